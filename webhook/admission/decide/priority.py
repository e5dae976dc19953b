"""Pod priority resolution, exactly as the in-tree ``Priority`` admission plugin does it on CREATE.

(reference/priority.md §3.) Named class -> its value and preemptionPolicy; no class ->
the globalDefault class (lowest value if several) including its name, or priority 0
and PreemptLowerPriority; unknown class -> 403. A pod that already carries
``spec.priority``/``spec.preemptionPolicy`` must agree with the resolution (403 with
the plugin's text otherwise). When the plugin already ran (the usual case) every field
is present and equal, and the patch is empty: the webhook only adds what is missing,
never rewrites ``priorityClassName``, so the plugin's re-invocation accepts the result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from linter.formats.priorityclass.validate import PREEMPT_LOWER_PRIORITY, PriorityClassInfo
from webhook.admission.decide.k8serrors import bad_request, forbidden_decision
from webhook.admission.encode import Decision
from webhook.admission.patch import PatchOp, set_member

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


def resolve(pod: Mapping[str, Any], classes: Mapping[str, PriorityClassInfo]) -> PriorityOutcome:
    """Resolve a pod being created; pure function of the pod and the PriorityClass snapshot."""
    spec = pod.get("spec")
    if not isinstance(spec, Mapping):
        return PriorityOutcome(bad_request("object.spec: missing or not an object"), None)
    name = object_display_name(pod)
    class_name = spec.get("priorityClassName")
    if class_name is not None and not isinstance(class_name, str):
        return PriorityOutcome(bad_request("spec.priorityClassName: must be a string"), None)
    given_priority = spec.get("priority")
    if given_priority is not None and (isinstance(given_priority, bool) or not isinstance(given_priority, int)):
        return PriorityOutcome(bad_request("spec.priority: must be an integer"), None)
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
        if found is None and given_priority is not None:
            # Only the in-tree plugin fills spec.priority before webhooks, and it has just found
            # this class: our watch cache is behind (the class was created moments ago). Denying
            # would contradict the apiserver's own verdict, so trust it and say so.
            note = f"PriorityClass {class_name} is not in binpack-guard's cache yet; priority not re-checked"
            return PriorityOutcome(None, None, (), note)
        if found is None:
            why = f"no PriorityClass with name {class_name} was found"
            return PriorityOutcome(forbidden_decision(PODS_RESOURCE, name, why), None)
        resolution = Resolution(found.name, found.value, found.preemption_policy)

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
