"""What kube-scheduler 1.22 (the last release that read the legacy Policy) said about a Policy.

Three stages, as the 1.22 scheduler ran them:

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

from linter.extenders import extender_errors
from linter.gofmt import FieldError, go_quote
from linter.goint import INT64_MAX
from linter.gozero import as_int, as_list, as_map, as_str
from linter.source import Pointer

MAX_WEIGHT = INT64_MAX // 10  # config.MaxWeight = MaxTotalScore / MaxPriority
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


def _present(argument: Mapping[str, Any], key: str) -> bool:
    return argument.get(key) is not None


def _policy_errors(policy: Mapping[str, Any]) -> list[LegacyError]:
    """``ValidatePolicy`` (1.22), in its order."""
    errs: list[LegacyError] = []
    declared: dict[str, tuple[str, int]] = {}  # custom priority type -> (name, weight) of the first
    for i, priority in enumerate(as_list(policy.get("priorities"))):
        p = as_map(priority)
        name, weight = as_str(p.get("name")), as_int(p.get("weight"))
        at: Pointer = ("priorities", i)
        if weight <= 0 or weight >= MAX_WEIGHT:
            errs.append(LegacyError(f"priority {name} should have a positive weight applied to it or it has overflown",
                                    (*at, "weight")))
        if p.get("argument") is None:
            continue
        argument = as_map(p.get("argument"))
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
    errs.extend(LegacyError(str(error), ptr) for error, ptr in extender_errors(policy.get("extenders")))
    symmetric = as_int(policy.get("hardPodAffinitySymmetricWeight"))
    if symmetric < 0 or symmetric > 100:
        errs.append(LegacyError(str(FieldError("Invalid value", "hardPodAffinitySymmetricWeight", symmetric,
                                               "not in valid range [0-100]")), ("hardPodAffinitySymmetricWeight",)))
    return errs


def first_rtcr(policy: Mapping[str, Any]) -> tuple[int, Mapping[str, Any]] | None:
    """Index and arguments of the first priority whose argument selects RequestedToCapacityRatio."""
    for i, priority in enumerate(as_list(policy.get("priorities"))):
        argument = as_map(as_map(priority).get("argument"))
        if not (_present(argument, "labelPreference") or _present(argument, "serviceAntiAffinity")) and _present(
                argument, RTCR_KEY):
            return i, as_map(argument.get(RTCR_KEY))
    return None


def _rtcr_errors(policy: Mapping[str, Any]) -> list[LegacyError]:
    """``ValidateRequestedToCapacityRatioArgs(nil, args)`` as the 1.22 plugin ran it (paths ``shape[i]...``)."""
    found = first_rtcr(policy)
    if found is None:
        return []
    i, args = found
    base: Pointer = ("priorities", i, "argument", RTCR_KEY)
    errs: list[LegacyError] = []
    shape = [as_map(p) for p in as_list(args.get("shape"))]
    if not shape:
        errs.append(LegacyError(str(FieldError("Required value", "shape", detail="at least one point must be "
                                               "specified")), (*base, "shape")))
    else:
        for k in range(1, len(shape)):
            if as_int(shape[k - 1].get("utilization")) >= as_int(shape[k].get("utilization")):
                errs.append(LegacyError(str(FieldError("Invalid value", f"shape[{k}].utilization",
                                                       as_int(shape[k].get("utilization")),
                                                       "values must be sorted in increasing order")),
                                        (*base, "shape", k, "utilization")))
                break
        for k, point in enumerate(shape):
            for key, high in (("utilization", 100), ("score", MAX_CUSTOM_PRIORITY_SCORE)):
                value = as_int(point.get(key))
                if value < 0 or value > high:
                    errs.append(LegacyError(str(FieldError("Invalid value", f"shape[{k}].{key}", value,
                                                           f"not in valid range [0, {high}]")),
                                            (*base, "shape", k, key)))
    for k, resource in enumerate(as_list(args.get("resources"))):
        r = as_map(resource)
        weight = as_int(r.get("weight"))
        if weight < 1:
            errs.append(LegacyError(str(FieldError("Invalid value", f"resources[{k}].weight", weight,
                                                   f"resource weight of {as_str(r.get('name'))} not in valid range "
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
        for i, item in enumerate(as_list(policy.get(section))):
            entry = as_map(item)
            name = as_str(entry.get("name"))
            argument = as_map(entry.get("argument"))
            count = sum(1 for m in members if _present(argument, m))
            # a priority argument with no member is ValidatePolicy's "no priority arguments set" already
            if entry.get("argument") is not None and (count > 1 or (count == 0 and section == "predicates")):
                errs.append(LegacyError(f"Exactly 1 {label.lower()} argument is required, numArgs: {count}, "
                                        f"{label}: {name}", (section, i, "argument")))
            elif name not in known and entry.get("argument") is None:
                errs.append(LegacyError(f"Invalid configuration: {label} type not found for {go_quote(name)}",
                                        (section, i, "name")))
    return errs
