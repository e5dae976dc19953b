"""PriorityClass validation: the API server's create/update checks and the plugin's one-default rule.

(reference/priority.md §2.) Order as in the API server: v1 defaulting, field validation
(422 ``Invalid``, errors joined ``[e1, e2]``), then the Priority plugin's globalDefault
uniqueness (403 ``Forbidden``, the lowest-valued existing default named). Because two
webhook replicas can each see "no default yet" at the same instant, a non-dry-run
request that makes a class the default must also win the cluster-wide claim
(``DefaultClassClaim``); deleting or un-defaulting a class releases it. The built-in
``system-`` classes cannot be deleted.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

from webhook.admission import AdmissionRequest, Decision
from webhook.lease import DefaultClassClaim
from webhook.policies.k8serrors import (
    bad_request,
    forbidden,
    forbidden_decision,
    invalid,
    invalid_value,
    not_supported,
    required,
)
from webhook.policies.priority import default_class, object_display_name
from webhook.view import PREEMPT_LOWER_PRIORITY, PREEMPT_NEVER, ClusterView

log = logging.getLogger(__name__)

GROUP = "scheduling.k8s.io"
QUALIFIED_KIND = "PriorityClass.scheduling.k8s.io"
QUALIFIED_RESOURCE = "priorityclasses.scheduling.k8s.io"
SYSTEM_PREFIX = "system-"
SYSTEM_CLASSES: Mapping[str, int] = {"system-node-critical": 2000001000, "system-cluster-critical": 2000000000}
HIGHEST_USER_DEFINABLE_PRIORITY = 1000000000
DNS1123_SUBDOMAIN_MAX = 253
_DNS1123_SUBDOMAIN_FMT = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"
_DNS1123_SUBDOMAIN = re.compile(_DNS1123_SUBDOMAIN_FMT)
_DNS1123_SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '"
    + _DNS1123_SUBDOMAIN_FMT
    + "')"
)
POLICIES = (PREEMPT_LOWER_PRIORITY, PREEMPT_NEVER)


class _Malformed(ValueError):
    """A field has a JSON type the API server could never have decoded."""


def decide(
    request: AdmissionRequest, view: ClusterView, claim: DefaultClassClaim | None
) -> Decision:
    """Judge a PriorityClass CREATE/UPDATE/DELETE against the view's class snapshot."""
    if request.kind.group != GROUP or request.kind.kind != "PriorityClass":
        return bad_request(f"expected a {GROUP} PriorityClass, got kind {request.kind.kind!r}")
    if request.operation == "DELETE":
        return _delete(request, claim)
    if request.operation not in ("CREATE", "UPDATE"):
        return Decision.allow()
    if request.object is None:
        return bad_request(f"request.object: missing on {request.operation}")
    if request.operation == "UPDATE" and request.old_object is None:
        return bad_request("request.oldObject: missing on UPDATE")
    try:
        new = defaulted(request.object)
        old = defaulted(request.old_object) if request.operation == "UPDATE" and request.old_object else None
    except _Malformed as exc:
        return bad_request(str(exc))
    name = object_display_name(new)
    errors = update_errors(new, old) if old is not None else create_errors(new)
    if errors:
        metadata = new.get("metadata")
        meta_name = metadata.get("name") if isinstance(metadata, Mapping) else None
        return invalid(QUALIFIED_KIND, meta_name if isinstance(meta_name, str) else "", errors)
    if new["globalDefault"] is True:
        existing = default_class(view.priority_classes())
        if existing is not None and (request.operation == "CREATE" or existing.name != name):
            return _already_default(name, existing.name)
        becomes_default = old is None or old["globalDefault"] is not True
        if becomes_default and not request.dry_run and claim is not None:
            return _claim(name, view, claim)
    elif old is not None and old["globalDefault"] is True and not request.dry_run and claim is not None:
        _release(name, claim)
    return Decision.allow()


def create_errors(pc: Mapping[str, Any]) -> list[str]:
    """``ValidatePriorityClass`` on a defaulted object: the field errors, in the API server's order."""
    errors: list[str] = []
    raw_metadata = pc.get("metadata")
    metadata: Mapping[str, Any] = raw_metadata if isinstance(raw_metadata, Mapping) else {}
    raw_name = metadata.get("name")
    name: str = raw_name if isinstance(raw_name, str) else ""
    if not name:
        errors.append(required("metadata.name", "name or generateName is required"))
    else:
        if len(name.encode("utf-8")) > DNS1123_SUBDOMAIN_MAX:
            too_long = f"must be no more than {DNS1123_SUBDOMAIN_MAX} characters"
            errors.append(invalid_value("metadata.name", name, too_long))
        if not _DNS1123_SUBDOMAIN.fullmatch(name):
            errors.append(invalid_value("metadata.name", name, _DNS1123_SUBDOMAIN_MSG))
    if metadata.get("namespace"):
        errors.append(forbidden("metadata.namespace", "not allowed on this type"))
    value = pc["value"]
    if name.startswith(SYSTEM_PREFIX):
        why = _system_class_problem(name, value, pc["globalDefault"])
        if why is not None:
            reserved = f"priority class names with '{SYSTEM_PREFIX}' prefix are reserved for system use only."
            errors.append(forbidden("metadata.name", f"{reserved} error: {why}"))
    elif value > HIGHEST_USER_DEFINABLE_PRIORITY:
        errors.append(
            forbidden("value", f"maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}")
        )
    policy = pc["preemptionPolicy"]
    if policy == "":
        errors.append(required("preemptionPolicy"))
    elif policy not in POLICIES:
        errors.append(not_supported("preemptionPolicy", policy, POLICIES))
    return errors


def update_errors(new: Mapping[str, Any], old: Mapping[str, Any]) -> list[str]:
    """``ValidatePriorityClassUpdate``: value and (defaulted) preemptionPolicy are immutable."""
    errors: list[str] = []
    if new["value"] != old["value"]:
        errors.append(forbidden("value", "may not be changed in an update."))
    if new["preemptionPolicy"] != old["preemptionPolicy"]:
        errors.append(invalid_value("preemptionPolicy", new["preemptionPolicy"], "field is immutable"))
    return errors


def defaulted(obj: Mapping[str, Any]) -> dict[str, Any]:
    """v1 defaulting (preemptionPolicy, globalDefault) plus the type checks JSON decoding would do."""
    out = dict(obj)
    value = out.get("value", 0)
    if isinstance(value, bool) or not isinstance(value, int) or not -(2**31) <= value < 2**31:
        raise _Malformed("value: must be a 32-bit integer")
    out["value"] = value
    default = out.get("globalDefault", False)
    if not isinstance(default, bool):
        raise _Malformed("globalDefault: must be a boolean")
    out["globalDefault"] = default
    policy = out.get("preemptionPolicy")
    if policy is None:
        policy = PREEMPT_LOWER_PRIORITY
    if not isinstance(policy, str):
        raise _Malformed("preemptionPolicy: must be a string")
    out["preemptionPolicy"] = policy
    return out


def _system_class_problem(name: str, value: int, global_default: bool) -> str | None:
    """``IsKnownSystemPriorityClass``: None when the object is exactly a built-in class."""
    builtin = SYSTEM_CLASSES.get(name)
    if builtin is None:
        return f"{name} is not a known system priority class"
    if value != builtin:
        return f"value of {name} PriorityClass must be {builtin}"
    if global_default:
        return f"globalDefault of {name} PriorityClass must be false"
    return None


def _already_default(name: str, holder: str) -> Decision:
    why = f"PriorityClass {holder} is already marked as default. Only one default can exist"
    return forbidden_decision(QUALIFIED_RESOURCE, name, why)


def _claim(name: str, view: ClusterView, claim: DefaultClassClaim) -> Decision:
    def is_still_default(holder: str) -> bool:
        info = view.priority_classes().get(holder)
        return info is not None and info.global_default

    try:
        holder = claim.claim(name, is_still_default=is_still_default)
    except Exception as exc:  # the lease API failing must deny, not crash: uniqueness is unproven
        log.warning("globalDefault claim for %s failed: %s", name, exc)
        return Decision.deny(
            500, "InternalError", f"cannot claim the cluster-wide globalDefault lease for {name}: {exc}"
        )
    if holder is not None and holder != name:
        return _already_default(name, holder)
    return Decision.allow()


def _delete(request: AdmissionRequest, claim: DefaultClassClaim | None) -> Decision:
    name = request.name or object_display_name(request.old_object)
    if name in SYSTEM_CLASSES:
        return forbidden_decision(QUALIFIED_RESOURCE, name, "this is a system priority class and cannot be deleted")
    old = request.old_object
    was_default = old is None or old.get("globalDefault") is True
    if was_default and not request.dry_run and claim is not None:
        _release(name, claim)
    return Decision.allow()


def _release(name: str, claim: DefaultClassClaim) -> None:
    try:
        claim.release(name)
    except Exception as exc:  # best effort: a stale claim is taken over once its class is gone
        log.warning("releasing the globalDefault claim of %s failed: %s", name, exc)
