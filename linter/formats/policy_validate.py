"""What kube-scheduler 1.22 (the last release that read the legacy Policy) said about a Policy.

Three stages, as the 1.22 scheduler ran them (reference/config.md §6):

1. ``ValidatePolicy`` -- aggregated errors (priority weights, custom-priority redeclaration,
   labelPreference/serviceAntiAffinity weights, empty arguments, extenders,
   ``hardPodAffinitySymmetricWeight``);
2. only when 1 passed: the RequestedToCapacityRatio priority's arguments, checked when its
   plugin was built (shape 0..10 with ``shape[i]...`` paths, resource weights >= 1);
3. separately, the ``klog.Fatalf`` exits of the legacy registry: unknown predicate or
   priority names, more than one argument member.

Stages 1 and 2 are :func:`validation_errors` (the vectors' ``legacyValidationErrors``);
stage 3 is :func:`fatal_errors`. Each error carries the JSON pointer it is about.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from linter.gofmt import FieldError, go_quote
from linter.k8snames import is_extended_resource_name, qualified_name_errors
from linter.source import Pointer

MAX_WEIGHT = (2**63 - 1) // 10  # config.MaxWeight = MaxTotalScore / MaxPriority
MAX_CUSTOM_PRIORITY_SCORE = 10
RTCR_KEY = "requestedToCapacityRatioArguments"

KNOWN_PREDICATES = frozenset({
    "CheckNodeUnschedulable", "GeneralPredicates", "HostName", "PodFitsHostPorts", "MatchNodeSelector",
    "PodFitsResources", "NoDiskConflict", "PodToleratesNodeTaints", "CheckNodeLabelPresence",
    "CheckServiceAffinity", "MaxEBSVolumeCount", "MaxGCEPDVolumeCount", "MaxCSIVolumeCountPred",
    "MaxAzureDiskVolumeCount", "MaxCinderVolumeCount", "CheckVolumeBinding", "NoVolumeZoneConflict",
    "EvenPodsSpread", "MatchInterPodAffinity", "PodFitsPorts",  # PodFitsPorts: old alias of PodFitsHostPorts
})
KNOWN_PRIORITIES = frozenset({
    "EqualPriority", "MostRequestedPriority", "RequestedToCapacityRatioPriority", "SelectorSpreadPriority",
    "ServiceSpreadingPriority", "InterPodAffinityPriority", "LeastRequestedPriority", "BalancedResourceAllocation",
    "NodePreferAvoidPodsPriority", "NodeAffinityPriority", "TaintTolerationPriority", "ImageLocalityPriority",
    "ResourceLimitsPriority", "EvenPodsSpreadPriority",
})
_PRIORITY_ARGS = ("serviceAntiAffinity", "labelPreference", RTCR_KEY)
_PREDICATE_ARGS = ("serviceAffinity", "labelsPresence")


@dataclass(frozen=True)
class LegacyError:
    message: str
    pointer: Pointer


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _present(argument: Mapping[str, Any], key: str) -> bool:
    return argument.get(key) is not None


def _policy_errors(policy: Mapping[str, Any]) -> list[LegacyError]:
    """``ValidatePolicy`` (1.22), in its order."""
    errs: list[LegacyError] = []
    declared: dict[str, tuple[str, int]] = {}  # custom priority type -> (name, weight) of the first
    for i, priority in enumerate(_list(policy.get("priorities"))):
        p = _map(priority)
        name, weight = _str(p.get("name")), _int(p.get("weight"))
        at: Pointer = ("priorities", i)
        if weight <= 0 or weight >= MAX_WEIGHT:
            errs.append(LegacyError(f"priority {name} should have a positive weight applied to it or it has overflown",
                                    (*at, "weight")))
        if p.get("argument") is None:
            continue
        argument = _map(p.get("argument"))
        if _present(argument, "labelPreference") or _present(argument, "serviceAntiAffinity"):
            kind = "LabelPreference" if _present(argument, "labelPreference") else "ServiceAntiAffinity"
            existing = declared.get(kind)
            if existing is not None and existing[1] != weight:  # (two spaces after the kind, as 1.22 has it)
                errs.append(LegacyError(f"{kind}  priority {go_quote(name)} has a different weight with "
                                        f"{go_quote(existing[0])}", (*at, "weight")))
            else:
                declared[kind] = (name, weight)
        elif _present(argument, RTCR_KEY):
            if "RequestedToCapacityRatio" in declared:
                errs.append(LegacyError(
                    f"priority {go_quote(name)} redeclares custom priority \"RequestedToCapacityRatio\", from: "
                    f"{go_quote(declared['RequestedToCapacityRatio'][0])}", (*at, "argument", RTCR_KEY)))
            else:
                declared["RequestedToCapacityRatio"] = (name, weight)
        else:
            errs.append(LegacyError(f"no priority arguments set for priority {name}", (*at, "argument")))
    errs.extend(_extender_errors(_list(policy.get("extenders"))))
    symmetric = _int(policy.get("hardPodAffinitySymmetricWeight"))
    if symmetric < 0 or symmetric > 100:
        errs.append(LegacyError(str(FieldError("Invalid value", "hardPodAffinitySymmetricWeight", symmetric,
                                               "not in valid range [0-100]")), ("hardPodAffinitySymmetricWeight",)))
    return errs


def _extender_errors(extenders: list[Any]) -> list[LegacyError]:
    """``validateExtenders``: positive weight with a prioritizeVerb, managed resource names, one binder."""
    errs: list[LegacyError] = []
    binders = 0
    seen: set[str] = set()
    for i, extender in enumerate(extenders):
        e = _map(extender)
        if _str(e.get("prioritizeVerb")) and _int(e.get("weight")) <= 0:
            errs.append(LegacyError(str(FieldError("Invalid value", f"extenders[{i}].weight", _int(e.get("weight")),
                                                   "must have a positive weight applied to it")),
                                    ("extenders", i, "weight")))
        if _str(e.get("bindVerb")):
            binders += 1
        for j, resource in enumerate(_list(e.get("managedResources"))):
            name = _str(_map(resource).get("name"))
            path, at = f"extenders[{i}].managedResources[{j}].name", ("extenders", i, "managedResources", j, "name")
            problems = qualified_name_errors(name)
            if not problems and not is_extended_resource_name(name):
                problems = ["is an invalid extended resource name"]
            errs.extend(LegacyError(str(FieldError("Invalid value", path, name, m)), at) for m in problems)
            if name in seen:
                errs.append(LegacyError(str(FieldError("Invalid value", path, name,
                                                       "duplicate extender managed resource name")), at))
            seen.add(name)
    if binders > 1:
        errs.append(LegacyError(str(FieldError("Invalid value", "extenders", f"found {binders} extenders implementing "
                                               "bind", "only one extender can implement bind")), ("extenders",)))
    return errs


def first_rtcr(policy: Mapping[str, Any]) -> tuple[int, Mapping[str, Any]] | None:
    """Index and arguments of the first priority whose argument selects RequestedToCapacityRatio."""
    for i, priority in enumerate(_list(policy.get("priorities"))):
        argument = _map(_map(priority).get("argument"))
        if not (_present(argument, "labelPreference") or _present(argument, "serviceAntiAffinity")) and _present(
                argument, RTCR_KEY):
            return i, _map(argument.get(RTCR_KEY))
    return None


def _rtcr_errors(policy: Mapping[str, Any]) -> list[LegacyError]:
    """``ValidateRequestedToCapacityRatioArgs(nil, args)`` as the 1.22 plugin ran it (paths ``shape[i]...``)."""
    found = first_rtcr(policy)
    if found is None:
        return []
    i, args = found
    base: Pointer = ("priorities", i, "argument", RTCR_KEY)
    errs: list[LegacyError] = []
    shape = [_map(p) for p in _list(args.get("shape"))]
    if not shape:
        errs.append(LegacyError(str(FieldError("Required value", "shape", detail="at least one point must be "
                                               "specified")), (*base, "shape")))
    else:
        for k in range(1, len(shape)):
            if _int(shape[k - 1].get("utilization")) >= _int(shape[k].get("utilization")):
                errs.append(LegacyError(str(FieldError("Invalid value", f"shape[{k}].utilization",
                                                       _int(shape[k].get("utilization")),
                                                       "values must be sorted in increasing order")),
                                        (*base, "shape", k, "utilization")))
                break
        for k, point in enumerate(shape):
            for key, high in (("utilization", 100), ("score", MAX_CUSTOM_PRIORITY_SCORE)):
                value = _int(point.get(key))
                if value < 0 or value > high:
                    errs.append(LegacyError(str(FieldError("Invalid value", f"shape[{k}].{key}", value,
                                                           f"not in valid range [0, {high}]")),
                                            (*base, "shape", k, key)))
    for k, resource in enumerate(_list(args.get("resources"))):
        r = _map(resource)
        weight = _int(r.get("weight"))
        if weight < 1:
            errs.append(LegacyError(str(FieldError("Invalid value", f"resources[{k}].weight", weight,
                                                   f"resource weight of {_str(r.get('name'))} not in valid range "
                                                   "[1, inf)")), (*base, "resources", k, "weight")))
    return errs


def validation_errors(policy: Mapping[str, Any]) -> list[LegacyError]:
    """What 1.22 reported: ``ValidatePolicy``'s errors, else the RTCR plugin's; duplicates once."""
    errs = _policy_errors(policy) or _rtcr_errors(policy)
    out: list[LegacyError] = []
    for e in errs:
        if all(e.message != o.message for o in out):
            out.append(e)
    return out


def fatal_errors(policy: Mapping[str, Any]) -> list[LegacyError]:
    """The legacy registry's ``klog.Fatalf`` exits (unknown names, several argument members)."""
    errs: list[LegacyError] = []
    for section, known, members, label in (("predicates", KNOWN_PREDICATES, _PREDICATE_ARGS, "Predicate"),
                                           ("priorities", KNOWN_PRIORITIES, _PRIORITY_ARGS, "Priority")):
        for i, item in enumerate(_list(policy.get(section))):
            entry = _map(item)
            name = _str(entry.get("name"))
            argument = _map(entry.get("argument"))
            count = sum(1 for m in members if _present(argument, m))
            # a priority argument with no member is ValidatePolicy's "no priority arguments set" already
            if entry.get("argument") is not None and (count > 1 or (count == 0 and section == "predicates")):
                errs.append(LegacyError(f"Exactly 1 {label.lower()} argument is required, numArgs: {count}, "
                                        f"{label}: {name}", (section, i, "argument")))
            elif name not in known and entry.get("argument") is None:
                errs.append(LegacyError(f"Invalid configuration: {label} type not found for {go_quote(name)}",
                                        (section, i, "name")))
    return errs
