"""Pod priority resolution, exactly as the in-tree ``Priority`` admission plugin does it on CREATE.

(reference/priority.md §3.) Named class -> its value and preemptionPolicy; no class ->
the globalDefault class (lowest value if several) including its name, or priority 0
and PreemptLowerPriority; unknown class -> 403. A pod that already carries
``spec.priority``/``spec.preemptionPolicy`` must agree with the resolution (403 with
the plugin's text otherwise). When the plugin already ran (the usual case) every field
is present and equal, and the patch is empty: the webhook only adds what is missing,
never rewrites ``priorityClassName``, so the plugin's re-invocation accepts the result.

A class missing from the cache snapshot is never trusted on the pod's word: ``lookup`` (the view's live read)
asks the apiserver. Found -> resolved from the live object (the cache was only behind); not found -> the
plugin's 403; the apiserver unreachable, or silent until the review's deadline -> 503 ``ServiceUnavailable``
(nothing proves the priority).
``carry_over`` is the plugin's UPDATE step: fields the new pod omits are copied back from the old one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from linter.formats.priorityclass.validate import PREEMPT_LOWER_PRIORITY, PriorityClassInfo
from linter.goint import INT32_MAX, INT32_MIN
from webhook.admission.decide.k8serrors import bad_request, forbidden_decision
from webhook.admission.encode import Decision
from webhook.admission.patch import PatchOp, set_member
from webhook.errors import LiveReadError

PODS_RESOURCE = "pods"


@dataclass(frozen=True)
class Resolution:
    """What the plugin writes into the pod spec."""

    class_name: str
    priority: int
    preemption_policy: str


@dataclass(frozen=True)
class PriorityOutcome:
    """Either a denial, or the resolution plus the patch that completes the pod."""

    denial: Decision | None
    resolution: Resolution | None
    ops: tuple[PatchOp, ...] = ()
    warning: str | None = None


def default_class(classes: Mapping[str, PriorityClassInfo]) -> PriorityClassInfo | None:
    """The globalDefault class; with several (a race), the lowest value wins (ties: by name)."""
    defaults = [c for c in classes.values() if c.global_default]
    return min(defaults, key=lambda c: (c.value, c.name)) if defaults else None


def object_display_name(obj: Mapping[str, Any] | None) -> str:
    """The name the apiserver puts in admission errors: name, else generateName, else Unknown."""
    metadata = obj.get("metadata") if obj is not None else None
    if isinstance(metadata, Mapping):
        for key in ("name", "generateName"):
            value = metadata.get(key)
            if isinstance(value, str) and value:
                return value
    return "Unknown"


ClassLookup = Callable[[str], PriorityClassInfo | None]


def resolve(
    pod: Mapping[str, Any], classes: Mapping[str, PriorityClassInfo], lookup: ClassLookup | None = None
) -> PriorityOutcome:
    """Resolve a pod being created from the PriorityClass snapshot (and ``lookup`` on a snapshot miss)."""
    spec = pod.get("spec")
    if not isinstance(spec, Mapping):
        return PriorityOutcome(bad_request("object.spec: missing or not an object"), None)
    name = object_display_name(pod)
    class_name = spec.get("priorityClassName")
    if class_name is not None and not isinstance(class_name, str):
        return PriorityOutcome(bad_request("spec.priorityClassName: must be a string"), None)
    given_priority = spec.get("priority")
    # Go decodes spec.priority into an int32: anything else never reaches admission
    if given_priority is not None and (isinstance(given_priority, bool) or not isinstance(given_priority, int)
                                       or not INT32_MIN <= given_priority <= INT32_MAX):
        return PriorityOutcome(bad_request("spec.priority: must be a 32-bit integer"), None)
    given_policy = spec.get("preemptionPolicy")
    if given_policy is not None and not isinstance(given_policy, str):
        return PriorityOutcome(bad_request("spec.preemptionPolicy: must be a string"), None)

    if not class_name:
        default = default_class(classes)
        if default is None:
            resolution = Resolution("", 0, PREEMPT_LOWER_PRIORITY)
        else:
            resolution = Resolution(default.name, default.value, default.preemption_policy)
    else:
        found = classes.get(class_name)
        warning = None
        if found is None and lookup is not None:
            try:
                found = lookup(class_name)
            except LiveReadError as exc:
                message = (f"PriorityClass {class_name} is not in binpack-guard's cache and the apiserver "
                           f"could not be asked ({exc}); the pod's priority cannot be checked, retry")
                return PriorityOutcome(Decision.deny(503, "ServiceUnavailable", message), None)
            if found is not None:
                warning = f"PriorityClass {class_name} was read from the apiserver (binpack-guard's cache is behind)"
        if found is None:
            why = f"no PriorityClass with name {class_name} was found"
            return PriorityOutcome(forbidden_decision(PODS_RESOURCE, name, why), None)
        resolution = Resolution(found.name, found.value, found.preemption_policy)
        if warning is not None:
            outcome = _complete(pod, name, class_name, given_priority, given_policy, resolution)
            return PriorityOutcome(outcome.denial, outcome.resolution, outcome.ops, warning)
    return _complete(pod, name, class_name, given_priority, given_policy, resolution)


def _complete(
    pod: Mapping[str, Any], name: str, class_name: str | None, given_priority: int | None, given_policy: str | None,
    resolution: Resolution,
) -> PriorityOutcome:
    """Check the pod's own fields against the resolution, then patch in what is missing."""
    if given_priority is not None and given_priority != resolution.priority:
        why = (
            f"the integer value of priority ({given_priority}) must not be provided in pod spec; "
            f"priority admission controller computed {resolution.priority} from the given PriorityClass name"
        )
        return PriorityOutcome(forbidden_decision(PODS_RESOURCE, name, why), resolution)
    if given_policy is not None and given_policy != resolution.preemption_policy:
        why = (
            f"the string value of PreemptionPolicy ({given_policy}) must not be provided in pod spec; "
            f"priority admission controller computed {resolution.preemption_policy} "
            "from the given PriorityClass name"
        )
        return PriorityOutcome(forbidden_decision(PODS_RESOURCE, name, why), resolution)

    ops: list[PatchOp] = []
    if not class_name and resolution.class_name:
        ops += set_member(pod, ["spec", "priorityClassName"], resolution.class_name)
    if given_priority is None:
        ops += set_member(pod, ["spec", "priority"], resolution.priority)
    if given_policy is None:
        ops += set_member(pod, ["spec", "preemptionPolicy"], resolution.preemption_policy)
    return PriorityOutcome(None, resolution, tuple(ops))


def carry_over(pod: Mapping[str, Any], old_pod: Mapping[str, Any] | None) -> tuple[PatchOp, ...]:
    """The plugin on UPDATE: ``spec.priority``/``spec.preemptionPolicy`` the new pod omits come back from the old."""
    spec, old_spec = pod.get("spec"), old_pod.get("spec") if old_pod is not None else None
    if not isinstance(spec, Mapping) or not isinstance(old_spec, Mapping):
        return ()
    ops: list[PatchOp] = []
    for field in ("priority", "preemptionPolicy"):
        if spec.get(field) is None and old_spec.get(field) is not None:
            ops += set_member(pod, ["spec", field], old_spec[field])
    return tuple(ops)
