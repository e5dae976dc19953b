"""What kube-scheduler 1.22 (the last release that read the legacy Policy) said about a Policy.

Three stages, as the 1.22 scheduler ran them (``createFromConfig``):

1. ``ValidatePolicy`` -- aggregated errors (priority weights, custom-priority redeclaration,
   labelPreference/serviceAntiAffinity weights, empty arguments, extenders,
   ``hardPodAffinitySymmetricWeight``);
2. the legacy registry (``ProcessPredicatePolicy``/``ProcessPriorityPolicy``, errors since 1.21,
   no longer ``klog.Fatalf``): names without a config producer and no custom argument, arguments
   with other than one member; a ``NodeLabel``/``ServiceAffinity`` priority whose plugin args no
   custom entry filled made the producer dereference nil;
3. only when 1 and 2 passed: the RequestedToCapacityRatio priority's arguments, checked when its
   plugin was built (shape 0..10 with ``shape[i]...`` paths, resource weights >= 1).

Stages 1 and 3 are :func:`validation_errors` (the vectors' ``legacyValidationErrors``);
stage 2 is :func:`registry_errors`. Each error carries the JSON pointer it is about.
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

# 1.22 legacy_registry.go: the predicate and priority keys that have a config producer.
REGISTERED_PREDICATES = frozenset({
    "CheckNodeUnschedulable", "GeneralPredicates", "HostName", "PodFitsHostPorts", "MatchNodeSelector",
    "PodFitsResources", "NoDiskConflict", "PodToleratesNodeTaints", "CheckNodeLabelPresence",
    "CheckServiceAffinity", "MaxEBSVolumeCount", "MaxGCEPDVolumeCount", "MaxCSIVolumeCountPred",
    "MaxAzureDiskVolumeCount", "MaxCinderVolumeCount", "CheckVolumeBinding", "NoVolumeZoneConflict",
    "EvenPodsSpread", "MatchInterPodAffinity",
})
REGISTERED_PRIORITIES = frozenset({
    "SelectorSpreadPriority", "TaintTolerationPriority", "NodeAffinityPriority", "ImageLocalityPriority",
    "InterPodAffinityPriority", "NodePreferAvoidPodsPriority", "MostRequestedPriority", "BalancedResourceAllocation",
    "LeastRequestedPriority", "EvenPodsSpreadPriority",
    # the plugin names the custom priorities map to are keys too (RequestedToCapacityRatioPriority is not)
    "RequestedToCapacityRatio", "NodeLabel", "ServiceAffinity",
})
PREDICATE_ALIASES = {"PodFitsPorts": "PodFitsHostPorts"}
PRIORITY_ALIASES = {"ServiceSpreadingPriority": "SelectorSpreadPriority"}
EQUAL_PRIORITY = "EqualPriority"  # skipped by createFromConfig before the registry sees it
NIL_DEREFERENCE = "panic: runtime error: invalid memory address or nil pointer dereference"
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


def _custom_priority(name: str) -> bool:
    """A priority the 1.22 registry builds from its argument: not a registered key (nor EqualPriority)."""
    return name != EQUAL_PRIORITY and PRIORITY_ALIASES.get(name, name) not in REGISTERED_PRIORITIES


def first_rtcr(policy: Mapping[str, Any]) -> tuple[int, Mapping[str, Any]] | None:
    """Index and arguments of the priority 1.22 built the RequestedToCapacityRatio plugin from.

    A registered name (``LeastRequestedPriority`` ...) with RTCR arguments kept its own plugin: the
    registry reused the name and dropped the argument.
    """
    for i, priority in enumerate(as_list(policy.get("priorities"))):
        entry = as_map(priority)
        argument = as_map(entry.get("argument"))
        if not _custom_priority(as_str(entry.get("name"))):
            continue
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
                                                       "utilization values must be sorted in increasing "
                                                       "order")),
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
    """What 1.22 reported: ``ValidatePolicy``'s errors, else (registry passed) the RTCR plugin's; duplicates once."""
    errs = _policy_errors(policy) or ([] if registry_errors(policy) else _rtcr_errors(policy))
    out: list[LegacyError] = []
    for e in errs:
        if all(e.message != o.message for o in out):
            out.append(e)
    return out


def _several_members(section: str, entry: Mapping[str, Any], count: int) -> str:
    """``validatePredicate``/``validatePriority``: the struct is printed with %v, its argument as a pointer."""
    if section == "predicates":
        return (f"exactly 1 predicate argument is required, numArgs: {count}, "
                f"predicate {{{as_str(entry.get('name'))} 0x...}}")
    return (f"exactly 1 priority argument is required, numArgs: {count}, "
            f"priority {{{as_str(entry.get('name'))} {as_int(entry.get('weight'))} 0x...}}")


def registry_errors(policy: Mapping[str, Any]) -> list[LegacyError]:
    """The 1.22 legacy registry's start-up errors, each entry that has one (1.22 stopped at the first).

    The ``0x...`` in the several-members text stands for the argument's address, which varies.
    """
    errs: list[LegacyError] = []
    filled: set[str] = set()  # plugin args a custom entry filled: NodeLabel, ServiceAffinity
    bare: list[tuple[str, int]] = []  # NodeLabel/ServiceAffinity priorities named directly
    for section, label, members, registered, aliases in (
            ("predicates", "predicate", _PREDICATE_ARGS, REGISTERED_PREDICATES, PREDICATE_ALIASES),
            ("priorities", "priority", _PRIORITY_ARGS, REGISTERED_PRIORITIES, PRIORITY_ALIASES)):
        for i, item in enumerate(as_list(policy.get(section))):
            entry = as_map(item)
            name = as_str(entry.get("name"))
            if section == "priorities" and name == EQUAL_PRIORITY:
                continue
            argument = as_map(entry.get("argument"))
            count = sum(1 for m in members if _present(argument, m))
            if entry.get("argument") is not None and count != 1:
                # a priority argument with no member is ValidatePolicy's "no priority arguments set" already
                if count > 1 or section == "predicates":
                    errs.append(LegacyError(_several_members(section, entry, count), (section, i, "argument")))
                continue
            key = aliases.get(name, name)
            if key in registered:  # the argument, if any, is dropped
                if key in ("NodeLabel", "ServiceAffinity"):
                    bare.append((key, i))
            elif count == 0:
                errs.append(LegacyError(f"{label} type not found for {go_quote(key)}", (section, i, "name")))
            else:
                if _present(argument, "labelsPresence") or _present(argument, "labelPreference"):
                    filled.add("NodeLabel")
                if _present(argument, "serviceAffinity") or _present(argument, "serviceAntiAffinity"):
                    filled.add("ServiceAffinity")
    errs.extend(LegacyError(NIL_DEREFERENCE, ("priorities", i, "name")) for key, i in bare if key not in filled)
    return errs
