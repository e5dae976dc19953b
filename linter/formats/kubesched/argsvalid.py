"""Validation of typed plugin args (``validation_pluginargs.go`` of kube-scheduler 1.36).

Each validator yields ``(FieldError, pointer relative to the args)``; ``prefix`` is the field
path the scheduler puts in front (``profiles[0].pluginConfig[1].args`` at config validation,
empty for NodeResourcesFit, which is checked when the plugin is built).
Feature gates are the 1.36 defaults (StorageCapacityScoring off; the DRA timeouts allowed), except that
a Kubernetes 1.35 binary has DRADeviceBindingConditions off, which forbids ``bindingTimeout``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from linter.formats.kubesched.nodeaffinity_args import validate_node_affinity
from linter.gofmt import FieldError, Rendered, format_duration, go_json, supported
from linter.k8snames import qualified_name_errors
from linter.source import Pointer

Result = Iterator[tuple[FieldError, Pointer]]
STRATEGIES = ["LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"]
SECOND = 1_000_000_000


def _p(prefix: str, rest: str) -> str:
    if not prefix:
        return rest
    return prefix + rest if rest.startswith("[") else f"{prefix}.{rest}"


def _typed_string(value: str) -> Rendered:
    """A value of a named string type (ScoringStrategyType, ...): field.ErrorBody quotes only a plain
    ``string`` with %q and prints any other type with json.Marshal, which escapes <, > and & as \u003c..."""
    return Rendered(go_json(value))


def validate_args(name: str, args: dict[str, Any], prefix: str, *, binding_conditions: bool = True) -> Result:
    """``binding_conditions``: whether DRADeviceBindingConditions is on (off in a Kubernetes 1.35 binary)."""
    if name == "DynamicResources":
        yield from _dynamic_resources(args, prefix, binding_conditions)
        return
    validator = _VALIDATORS.get(name)
    if validator is not None:
        yield from validator(args, prefix)


def _default_preemption(args: dict[str, Any], prefix: str) -> Result:
    pct, absolute = args.get("minCandidateNodesPercentage", 10), args.get("minCandidateNodesAbsolute", 100)
    pp, ap = _p(prefix, "minCandidateNodesPercentage"), _p(prefix, "minCandidateNodesAbsolute")
    if not 0 <= pct <= 100:
        yield FieldError("Invalid value", pp, pct, "not in valid range [0, 100]"), ("minCandidateNodesPercentage",)
    if absolute < 0:
        yield FieldError("Invalid value", ap, absolute, "not in valid range [0, inf)"), ("minCandidateNodesAbsolute",)
    if pct == 0 and absolute == 0:
        yield (FieldError("Invalid value", pp, pct, "cannot be zero at the same time as minCandidateNodesAbsolute"),
               ("minCandidateNodesPercentage",))
        yield (FieldError("Invalid value", ap, absolute,
                          "cannot be zero at the same time as minCandidateNodesPercentage"),
               ("minCandidateNodesAbsolute",))


def _inter_pod_affinity(args: dict[str, Any], prefix: str) -> Result:
    w = args.get("hardPodAffinityWeight", 1)
    if not 0 <= w <= 100:
        yield (FieldError("Invalid value", _p(prefix, "hardPodAffinityWeight"), w, "not in valid range [0, 100]"),
               ("hardPodAffinityWeight",))


def _label_name(value: str, path: str, ptr: Pointer) -> Result:
    for msg in qualified_name_errors(value):
        yield FieldError("Invalid value", path, value, msg), ptr


def _topology_spread(args: dict[str, Any], prefix: str) -> Result:
    kind = args.get("defaultingType", "System")
    constraints = args.get("defaultConstraints") or []
    if kind not in ("System", "List"):
        yield (FieldError("Unsupported value", _p(prefix, "defaultingType"), _typed_string(kind),
                          supported(["System", "List"])),
               ("defaultingType",))
    elif kind == "System" and constraints:
        yield (FieldError("Invalid value", _p(prefix, "defaultingType"), _typed_string(kind),
                          "when .defaultConstraints are not empty"),
               ("defaultingType",))
    base = _p(prefix, "defaultConstraints")
    for i, con in enumerate(constraints):
        path, ptr = f"{base}[{i}]", ("defaultConstraints", i)
        if con.get("maxSkew", 0) <= 0:
            yield (FieldError("Invalid value", f"{path}.maxSkew", con.get("maxSkew", 0), "not in valid range (0, inf)"),
                   (*ptr, "maxSkew"))
        key = con.get("topologyKey", "")
        if not key:
            yield FieldError("Required value", f"{path}.topologyKey", detail="can not be empty"), (*ptr, "topologyKey")
        else:
            yield from _label_name(key, f"{path}.topologyKey", (*ptr, "topologyKey"))
        action = con.get("whenUnsatisfiable", "")
        if not action:
            yield (FieldError("Required value", f"{path}.whenUnsatisfiable", detail="can not be empty"),
                   (*ptr, "whenUnsatisfiable"))
        elif action not in ("DoNotSchedule", "ScheduleAnyway"):
            yield (FieldError("Unsupported value", f"{path}.whenUnsatisfiable", _typed_string(action),
                              supported(["DoNotSchedule", "ScheduleAnyway"])), (*ptr, "whenUnsatisfiable"))
        if "labelSelector" in con:
            yield (FieldError("Forbidden", f"{path}.labelSelector",
                              detail="constraint must not define a selector, as they deduced for each pod"),
                   (*ptr, "labelSelector"))
        for other in constraints[:i]:
            if other.get("topologyKey", "") == key and other.get("whenUnsatisfiable", "") == action:
                yield FieldError("Duplicate value", path, f"{{{key}, {action}}}"), ptr
                break


def _shape(shape: list[dict[str, Any]], path: str, ptr: Pointer) -> Result:
    if not shape:
        yield FieldError("Required value", path, detail="at least one point must be specified"), ptr
        return
    for i in range(1, len(shape)):
        if shape[i - 1].get("utilization", 0) >= shape[i].get("utilization", 0):
            yield (FieldError("Invalid value", f"{path}[{i}].utilization", shape[i].get("utilization", 0),
                              "values must be sorted in increasing order"), (*ptr, i, "utilization"))
            break
    for i, point in enumerate(shape):
        u, s = point.get("utilization", 0), point.get("score", 0)
        if not 0 <= u <= 100:
            yield (FieldError("Invalid value", f"{path}[{i}].utilization", u, "not in valid range [0, 100]"),
                   (*ptr, i, "utilization"))
        if not 0 <= s <= 10:
            yield FieldError("Invalid value", f"{path}[{i}].score", s, "not in valid range [0, 10]"), (*ptr, i, "score")


def _balanced(args: dict[str, Any], prefix: str) -> Result:
    seen: set[str] = set()
    for i, res in enumerate(args.get("resources") or []):
        path, ptr = _p(prefix, f"resources[{i}]"), ("resources", i)
        name = res.get("name", "")
        if name in seen:
            yield FieldError("Duplicate value", f"{path}.name", name), (*ptr, "name")
        seen.add(name)
        if res.get("weight", 0) != 1:
            yield FieldError("Invalid value", f"{path}.weight", res.get("weight", 0), "must be 1"), (*ptr, "weight")


def _volume_binding(args: dict[str, Any], prefix: str) -> Result:
    timeout = args.get("bindTimeoutSeconds", 600)
    if timeout < 0:
        yield (FieldError("Invalid value", _p(prefix, "bindTimeoutSeconds"), timeout,
                          "invalid BindTimeoutSeconds, should not be a negative value"), ("bindTimeoutSeconds",))
    if "shape" in args:  # StorageCapacityScoring is off by default in 1.36
        # the internal config.UtilizationShapePoint has no json tags: its Go field names are the keys
        shown = [{"Utilization": p.get("utilization", 0), "Score": p.get("score", 0)} for p in args["shape"]]
        yield (FieldError("Invalid value", _p(prefix, "shape"), Rendered(go_json(shown, sort=False)),
                          "unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring"),
               ("shape",))


def _dynamic_resources(args: dict[str, Any], prefix: str, binding_conditions: bool) -> Result:
    timeout = args.get("filterTimeout")
    if timeout is not None and timeout < 0:
        yield (FieldError("Invalid value", _p(prefix, "filterTimeout"), Rendered(f'"{_dur(timeout)}"'),
                          "must be zero or positive"), ("filterTimeout",))
    binding = args.get("bindingTimeout")
    if binding is not None and not binding_conditions:  # any value is refused while the gate is off
        yield (FieldError("Forbidden", _p(prefix, "bindingTimeout"), detail="DRADeviceBindingConditions or "
                          "DRAResourceClaimDeviceStatus feature gate is disabled"), ("bindingTimeout",))
    elif binding is not None and binding < SECOND:
        yield (FieldError("Invalid value", _p(prefix, "bindingTimeout"), Rendered(f'"{_dur(binding)}"'),
                          "must be at least 1 second"), ("bindingTimeout",))


def _dur(nanos: int) -> str:
    return format_duration(nanos)


def validate_fit(args: dict[str, Any]) -> Result:
    """``ValidateNodeResourcesFitArgs(nil, args)``: paths relative to the args."""
    for i, res in enumerate(args.get("ignoredResources") or []):
        yield from _label_name(res, f"ignoredResources[{i}]", ("ignoredResources", i))
    for i, group in enumerate(args.get("ignoredResourceGroups") or []):
        path, ptr = f"ignoredResourceGroups[{i}]", ("ignoredResourceGroups", i)
        if "/" in group:
            yield FieldError("Invalid value", path, group, "resource group name can't contain '/'"), ptr
        yield from _label_name(group, path, ptr)
    strategy = args.get("scoringStrategy")
    if strategy is None:
        yield (FieldError("Required value", "scoringStrategy", detail="ScoringStrategy field is required"),
               ("scoringStrategy",))
        return
    kind = strategy.get("type", "")
    if kind not in STRATEGIES:
        yield (FieldError("Unsupported value", "scoringStrategy.type", _typed_string(kind), supported(STRATEGIES)),
               ("scoringStrategy", "type"))
    for i, res in enumerate(strategy.get("resources") or []):
        w = res.get("weight", 0)
        if w <= 0 or w > 100:
            yield (FieldError("Invalid value", f"scoringStrategy.resources[{i}].weight", w,
                              f"resource weight of {res.get('name', '')} not in valid range (0, 100]"),
                   ("scoringStrategy", "resources", i, "weight"))
    rtcr = strategy.get("requestedToCapacityRatio")
    if kind == "RequestedToCapacityRatio":
        if rtcr is None:
            yield (FieldError("Required value", "scoringStrategy.requestedToCapacityRatio",
                              detail="must be specified when type is RequestedToCapacityRatio"),
                   ("scoringStrategy", "requestedToCapacityRatio"))
        else:
            yield from _shape(rtcr.get("shape") or [], "scoringStrategy.requestedToCapacityRatio.shape",
                              ("scoringStrategy", "requestedToCapacityRatio", "shape"))
    elif rtcr is not None:
        yield (FieldError("Forbidden", "scoringStrategy.requestedToCapacityRatio",
                          detail="must be nil when type is not RequestedToCapacityRatio"),
               ("scoringStrategy", "requestedToCapacityRatio"))


_VALIDATORS = {
    "DefaultPreemption": _default_preemption,
    "InterPodAffinity": _inter_pod_affinity,
    "NodeAffinity": validate_node_affinity,
    "PodTopologySpread": _topology_spread,
    "NodeResourcesBalancedAllocation": _balanced,
    "VolumeBinding": _volume_binding,
}
