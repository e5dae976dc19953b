"""PriorityClass validation exactly as kube-apiserver v1.36 does it.

Pure functions over plain dicts (v1 objects as JSON/YAML gives them); no linter-finding
concerns, so the webhook's PriorityClass policy can use the same code and give the same
messages:

* :class:`PriorityClassInfo` -- the defaulted fields the Priority admission plugin reads;
* :func:`apply_defaults` -- v1 defaulting (``preemptionPolicy`` -> ``PreemptLowerPriority``);
* :func:`validate_create` / :func:`validate_update` -- the 422 field errors, in the API server's order
  (:func:`validate_create_located` adds the manifest path each error is about);
* :func:`effective_name` -- the name the API server stores: ``metadata.name``, else the one it generates
  from ``generateName`` (random part shown as ``xxxxx``, see :mod:`.objectmeta`);
* :func:`existing_default` / :func:`global_default_conflict` -- the Priority admission plugin's
  "only one globalDefault" check (403);
* :func:`invalid_message` / :func:`forbidden_message` -- the ``Status.message`` texts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from linter.formats.priorityclass import objectmeta
from linter.formats.priorityclass.objectmeta import Located, effective_name
from linter.gofmt import FieldError, aggregate, go_quote, supported
from linter.gozero import as_int
from linter.k8snames import dns1123_subdomain_errors

__all__ = ["Located", "effective_name"]  # re-exported: callers need only this module

SYSTEM_PRIORITY_CLASS_PREFIX = "system-"
HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000
SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY
PREEMPT_LOWER_PRIORITY = "PreemptLowerPriority"
PREEMPT_NEVER = "Never"
PREEMPTION_POLICIES = (PREEMPT_LOWER_PRIORITY, PREEMPT_NEVER)


@dataclass(frozen=True)
class PriorityClassInfo:
    """The parts of a PriorityClass the Priority admission plugin reads, after v1 defaulting."""

    name: str
    value: int
    global_default: bool = False
    preemption_policy: str = PREEMPT_LOWER_PRIORITY

    @classmethod
    def from_object(cls, obj: Mapping[str, Any]) -> PriorityClassInfo:
        """From a v1 PriorityClass dict (``globalDefault`` omitted = false, policy defaulted)."""
        return cls(name_of(obj), value_of(obj), is_global_default(obj), preemption_policy_of(obj))


# The classes the API server creates at start-up (scheduling.SystemPriorityClasses()).
BUILTIN_CLASSES: tuple[PriorityClassInfo, ...] = (
    PriorityClassInfo("system-node-critical", SYSTEM_CRITICAL_PRIORITY + 1000),
    PriorityClassInfo("system-cluster-critical", SYSTEM_CRITICAL_PRIORITY),
)

# --- object access (tolerant: the linter may hand in anything a YAML file holds) -------------

def name_of(obj: Mapping[str, Any]) -> str:
    """``metadata.name`` as written (``""`` for a class named only by ``generateName``)."""
    name = objectmeta.metadata_of(obj).get("name")
    return name if isinstance(name, str) else ""


def value_of(obj: Mapping[str, Any]) -> int:
    """``value`` as Go holds it: an absent value is the int32 zero value."""
    return as_int(obj.get("value"))


def is_global_default(obj: Mapping[str, Any]) -> bool:
    return obj.get("globalDefault") is True


def preemption_policy_of(obj: Mapping[str, Any]) -> str:
    """The defaulted ``preemptionPolicy``."""
    policy = obj.get("preemptionPolicy")
    return policy if isinstance(policy, str) else PREEMPT_LOWER_PRIORITY


def apply_defaults(obj: Mapping[str, Any]) -> dict[str, Any]:
    """A copy with v1 defaulting applied: ``preemptionPolicy`` when absent (null counts as absent)."""
    out = dict(obj)
    if out.get("preemptionPolicy") is None:
        out["preemptionPolicy"] = PREEMPT_LOWER_PRIORITY
    return out


def builtin(name: str) -> PriorityClassInfo | None:
    return next((b for b in BUILTIN_CLASSES if b.name == name), None)


# --- create / update validation (422) --------------------------------------------------------

def _system_class_error(name: str, value: int, global_default: bool) -> str | None:
    """``scheduling.IsKnownSystemPriorityClass``: None when the object is exactly a built-in class."""
    known = builtin(name)
    if known is None:
        return f"{name} is not a known system priority class"
    if known.value != value:
        return f"value of {known.name} PriorityClass must be {known.value}"
    if known.global_default != global_default:
        return f"globalDefault of {known.name} PriorityClass must be {'true' if known.global_default else 'false'}"
    return None


def validate_create(obj: Mapping[str, Any]) -> list[FieldError]:
    """``ValidatePriorityClass`` on the defaulted object, errors in the API server's order."""
    return [error for error, _ in validate_create_located(obj)]


def validate_create_located(obj: Mapping[str, Any]) -> list[Located]:
    """:func:`validate_create`, each error with the manifest path it is about.

    The object is judged as the API server judges it: namespace cleared, a missing name generated
    from ``generateName`` (:mod:`.objectmeta`); then ObjectMeta, the ``system-`` reservation or the
    user value limit, and the preemption policy.
    """
    obj = apply_defaults(obj)
    errs = objectmeta.create_errors(obj, dns1123_subdomain_errors)
    name = effective_name(obj)
    value = value_of(obj)
    if name.startswith(SYSTEM_PRIORITY_CLASS_PREFIX):
        why = _system_class_error(name, value, is_global_default(obj))
        if why is not None:
            errs.append((FieldError(
                "Forbidden", "metadata.name",
                detail=f"priority class names with '{SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for "
                       f"system use only. error: {why}"), ("metadata", "name")))
    elif value > HIGHEST_USER_DEFINABLE_PRIORITY:
        errs.append((FieldError(
            "Forbidden", "value",
            detail=f"maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}"),
            ("value",)))
    policy = obj.get("preemptionPolicy")
    if isinstance(policy, str):
        errs.extend((e, ("preemptionPolicy",)) for e in preemption_policy_errors(policy))
    return errs


def preemption_policy_errors(policy: str, path: str = "preemptionPolicy") -> list[FieldError]:
    """``ValidatePreemptionPolicy`` for a policy that is set (possibly to the empty string)."""
    if policy in PREEMPTION_POLICIES:
        return []
    if policy == "":
        return [FieldError("Required value", path)]
    return [FieldError("Unsupported value", path, policy, supported(PREEMPTION_POLICIES))]


def validate_update(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[FieldError]:
    """The update's ObjectMeta errors (labels, annotations, name immutable), then
    ``ValidatePriorityClassUpdate``'s own: value and (defaulted) preemptionPolicy are immutable."""
    old, new = apply_defaults(old), apply_defaults(new)
    errs = objectmeta.update_errors(new, old)
    if value_of(new) != value_of(old):
        errs.append(FieldError("Forbidden", "value", detail="may not be changed in an update."))
    if new.get("preemptionPolicy") != old.get("preemptionPolicy"):
        errs.append(FieldError("Invalid value", "preemptionPolicy", new.get("preemptionPolicy"),
                               "field is immutable"))
    return errs


def invalid_message(name: str, errors: Sequence[FieldError]) -> str:
    """The 422 ``Status.message``: ``PriorityClass.scheduling.k8s.io "<name>" is invalid: <errors>``."""
    return f"PriorityClass.scheduling.k8s.io {go_quote(name)} is invalid: {aggregate(str(e) for e in errors)}"


# --- globalDefault uniqueness (Priority admission plugin, 403) -------------------------------

def existing_default(classes: Iterable[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """``getDefaultPriorityClass``: among the globalDefault classes, the first with the lowest value."""
    found: Mapping[str, Any] | None = None
    for pc in classes:
        if is_global_default(pc) and (found is None or value_of(found) > value_of(pc)):
            found = pc
    return found


def global_default_conflict(obj: Mapping[str, Any], existing: Iterable[Mapping[str, Any]], *,
                            update: bool = False) -> str | None:
    """The name of the default that blocks ``obj`` (None when allowed).

    On create any existing default blocks a new default; on update it blocks unless the
    existing default *is* the object being updated.
    """
    if not is_global_default(obj):
        return None
    current = existing_default(existing)
    return conflicting_default(name_of(obj), name_of(current) if current is not None else None, update=update)


def conflicting_default(name: str, current_default: str | None, *, update: bool) -> str | None:
    """The plugin's rule for a class ``name`` that is (or becomes) the default, given the existing default's name.

    Returns the name that blocks it: any existing default on create; on update, one that
    is not the class itself. Callers that keep their own snapshot (the webhook) use this.
    """
    if current_default is None or (update and current_default == name):
        return None
    return current_default


def already_default_reason(default_name: str) -> str:
    return f"PriorityClass {default_name} is already marked as default. Only one default can exist"


def forbidden_message(name: str, reason: str, resource: str = "priorityclasses.scheduling.k8s.io") -> str:
    """The 403 ``Status.message``: ``<resource> "<name>" is forbidden: <reason>``."""
    return f"{resource} {go_quote(name)} is forbidden: {reason}"

