"""Turn a legacy scheduler Policy into the v1 profile kube-scheduler 1.22 built from it.

1.22 (the last release that read a Policy) made one ``default-scheduler`` profile: each
priority became a score plugin with the priority's weight (two priorities on one plugin: the
larger weight; a repeated priority: the last weight), the predicates (plus the mandatory
PodToleratesNodeTaints and CheckNodeUnschedulable) became the filter plugins, absent
``predicates``/``priorities`` meant 1.22's default sets, ``hardPodAffinitySymmetricWeight``
became InterPodAffinity's ``hardPodAffinityWeight``, and the extenders were kept. This module
writes that profile in v1: default score plugins the Policy did not list are disabled, and so
are default filters its predicates did not select. Plugins v1 added since (DynamicResources,
SchedulingGates, ...) stay as v1 has them.
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from linter import schema
from linter.formats.policy.handler import SCHEMA_NAME as POLICY_SCHEMA
from linter.formats.policy.validate import validation_errors
from linter.gofmt import format_duration
from linter.migrate import facts as f
from linter.migrate.notes import Notes
from linter.migrate.strategy import fit_weights
from linter.migrate.tree import commented, is_list, is_map

RTCR = "RequestedToCapacityRatio"
_STRATEGY_ORDER = (RTCR, "MostRequestedPriority", "LeastRequestedPriority")


def migrate_policy(policy: dict[str, Any], notes: Notes) -> CommentedMap:
    for error in validation_errors(policy):
        notes.error("", f"kube-scheduler 1.22 refused this Policy: {error.message}")
    filters = _filters(policy.get("predicates"), notes)
    keys, rtcr_args = _priority_keys(policy.get("priorities"), notes)
    profile = CommentedMap()
    profile["schedulerName"] = "default-scheduler"
    plugins = CommentedMap()
    score = _score(keys, notes)
    if score:
        plugins["score"] = score
    if filters is not None:
        disabled = [name for name in f.V1_DEFAULT_FILTER_1_22 if name not in filters]
        if disabled:
            plugins["filter"] = CommentedMap(disabled=_refs(disabled))
            plugins["filter"].yaml_add_eol_comment("no Policy predicate selected these", "disabled")
            notes.change("profiles[0].plugins.filter", "disabled the default filters no Policy predicate selected: "
                         + ", ".join(disabled))
    if plugins:
        profile["plugins"] = plugins
    config = _plugin_config(policy, keys, rtcr_args, notes)
    if config:
        profile["pluginConfig"] = config
    out = CommentedMap()
    out["apiVersion"] = f.V1
    out["kind"] = f.KIND
    out["profiles"] = CommentedSeq([profile])
    extenders = _extenders(policy.get("extenders"), notes)
    if extenders:
        out["extenders"] = extenders
    if "alwaysCheckAllPredicates" in policy:
        notes.change("", "alwaysCheckAllPredicates dropped: v1 has no such setting (it only changed which filter "
                         "failures were reported)")
    notes.change("", "legacy Policy rewritten as the KubeSchedulerConfiguration (v1) profile kube-scheduler 1.22 "
                     "built from it; pass it with --config (--policy-config-file and --policy-configmap are gone)")
    return out


def _filters(predicates: Any, notes: Notes) -> set[str] | None:
    """The v1 filter plugins the predicates selected (None: 1.22's defaults, which cover every v1 default)."""
    if predicates is None:
        return None
    selected: set[str] = set()
    for i, predicate in enumerate(predicates if is_list(predicates) else []):
        if not is_map(predicate):
            continue
        name = str(predicate.get("name") or "")
        argument = predicate.get("argument")
        if name in f.PREDICATE_PLUGINS:  # 1.22's registry reused a registered name and dropped any argument
            selected.update(f.PREDICATE_PLUGINS[name])
            if is_map(argument):
                notes.change(f"predicates[{i}]", f"argument dropped: {name} is a built-in predicate, 1.22 ignored "
                                                 "its argument")
        elif is_map(argument) and (argument.get("serviceAffinity") is not None
                                   or argument.get("labelsPresence") is not None):
            plugin = "ServiceAffinity" if argument.get("serviceAffinity") is not None else "NodeLabel"
            notes.error(f"predicates[{i}]", f"{name} ({plugin} filter) dropped: {f.REMOVED_PLUGINS[plugin][1]}")
        elif name in f.TAINT_PREDICATES:
            notes.change(f"predicates[{i}]", f"{name} dropped: node conditions are node taints since 1.17, which "
                                             "TaintToleration (always on) filters")
        else:
            notes.error(f"predicates[{i}]", f"unknown predicate {name!r} dropped (1.22 refused it too)")
    for name in f.MANDATORY_PREDICATES:
        selected.update(f.PREDICATE_PLUGINS[name])
    return selected


def _priority_keys(priorities: Any, notes: Notes) -> tuple[dict[str, int], dict[str, Any] | None]:
    """1.22's priority map: translated name -> weight (the last one written wins), and the RTCR arguments."""
    if priorities is None:
        notes.change("priorities", "absent: 1.22's default priorities are written out")
        return dict(f.DEFAULT_PRIORITIES), None
    keys: dict[str, int] = {}
    rtcr_args: dict[str, Any] | None = None
    for i, priority in enumerate(priorities if is_list(priorities) else []):
        if not is_map(priority):
            continue
        name, weight = str(priority.get("name") or ""), priority.get("weight")
        weight = weight if isinstance(weight, int) and not isinstance(weight, bool) else 0
        argument = priority.get("argument")
        where = f"priorities[{i}]"
        registered = name in f.PRIORITY_PLUGINS or name == "NodePreferAvoidPodsPriority"
        if name == "EqualPriority":
            notes.change(where, "EqualPriority dropped: it gave every node the same score (1.22 skipped it too)")
        elif registered:  # 1.22's registry reused a registered name and dropped any argument
            keys["SelectorSpreadPriority" if name == "ServiceSpreadingPriority" else name] = weight
            if is_map(argument):
                notes.change(where, f"argument dropped: {name} is a built-in priority, 1.22 ignored its argument")
        elif is_map(argument) and argument.get("requestedToCapacityRatioArguments") is not None:
            keys[RTCR] = weight
            rtcr_args = argument["requestedToCapacityRatioArguments"]
        elif is_map(argument) and (argument.get("labelPreference") is not None
                                   or argument.get("serviceAntiAffinity") is not None):
            plugin = "NodeLabel" if argument.get("labelPreference") is not None else "ServiceAffinity"
            notes.error(where, f"{name} ({plugin} score) dropped: {f.REMOVED_PLUGINS[plugin][1]}")
        else:
            notes.error(where, f"unknown priority {name!r} dropped (1.22 refused it too)")
    return keys, rtcr_args


def _strategy_key(keys: dict[str, int], notes: Notes) -> str | None:
    present = [k for k in _STRATEGY_ORDER if k in keys]
    if len(present) > 1:
        notes.error("priorities", f"{' and '.join(present)} were separate score plugins in 1.22; v1 has one "
                                  f"NodeResourcesFit strategy: kept {present[0]} (weight {keys[present[0]]})")
    return present[0] if present else None


def _score(keys: dict[str, int], notes: Notes) -> CommentedMap:
    weights: dict[str, int] = {}
    strategy = _strategy_key(keys, notes)
    for key, weight in keys.items():
        if key == "NodePreferAvoidPodsPriority":
            why = f.REMOVED_PLUGINS["NodePreferAvoidPods"][1]
            notes.change("priorities", f"NodePreferAvoidPodsPriority dropped: {why}")
            continue
        plugin = f.FIT if key == RTCR else f.PRIORITY_PLUGINS[key]
        if plugin == f.FIT and key != strategy:
            continue
        weights[plugin] = max(weights.get(plugin, weight), weight)  # 1.22 kept the larger weight
    order = [p for p in f.V1_DEFAULT_SCORE if p in weights]
    score = CommentedMap()
    if order:
        score["enabled"] = CommentedSeq(CommentedMap(name=p, weight=weights[p]) for p in order)
        score.yaml_add_eol_comment("the Policy's priorities, with their weights", "enabled")
    disabled = [p for p in f.V1_DEFAULT_SCORE if p not in weights]
    if disabled:
        score["disabled"] = _refs(disabled)
        score.yaml_add_eol_comment("not among the Policy's priorities", "disabled")
        notes.change("profiles[0].plugins.score", "disabled the default score plugins the Policy did not list: "
                     + ", ".join(disabled))
    return score


def _plugin_config(policy: dict[str, Any], keys: dict[str, int], rtcr_args: dict[str, Any] | None,
                   notes: Notes) -> CommentedSeq:
    config = CommentedSeq()
    strategy = _strategy_key(keys, Notes())  # (its conflict note was already given)
    if strategy == RTCR:
        args: dict[str, Any] = rtcr_args if is_map(rtcr_args) else {}
        written = args.get("resources")
        resources: list[Any] = written if is_list(written) and written else [
            {"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}]
        rtcr = CommentedMap(shape=commented(args.get("shape") if is_list(args.get("shape")) else []))
        scoring = CommentedMap(type="RequestedToCapacityRatio",
                               resources=commented(fit_weights(resources, "priorities", notes)),
                               requestedToCapacityRatio=rtcr)
        config.append(CommentedMap(name=f.FIT, args=CommentedMap(scoringStrategy=scoring)))
        notes.change("priorities", "the RequestedToCapacityRatio priority is NodeResourcesFit with scoringStrategy "
                                   "RequestedToCapacityRatio: same shape (scores 0..10; 1.22 and 1.36 both multiply "
                                   "them by 10), same resources, the priority's weight")
    elif strategy == "MostRequestedPriority":
        config.append(CommentedMap(name=f.FIT, args=CommentedMap(scoringStrategy=CommentedMap(type="MostAllocated"))))
    symmetric = policy.get("hardPodAffinitySymmetricWeight")
    if isinstance(symmetric, int) and not isinstance(symmetric, bool) and symmetric != 0:
        config.append(CommentedMap(name="InterPodAffinity", args=CommentedMap(hardPodAffinityWeight=symmetric)))
        notes.change("hardPodAffinitySymmetricWeight", "moved to pluginConfig InterPodAffinity args "
                                                       "hardPodAffinityWeight")
    if "EvenPodsSpreadPriority" in keys and "SelectorSpreadPriority" not in keys:
        config.append(CommentedMap(name="PodTopologySpread", args=CommentedMap(defaultingType="List")))
        notes.change("priorities", "EvenPodsSpreadPriority without SelectorSpreadPriority: PodTopologySpread with "
                                   "defaultingType List (no system default constraints), as 1.22 configured it")
    return config


def _extenders(extenders: Any, notes: Notes) -> CommentedSeq:
    out = CommentedSeq()
    ignored = _ignored_extender_keys(extenders)
    for i, extender in enumerate(extenders if is_list(extenders) else []):
        if not is_map(extender):
            continue
        copy = commented(extender)
        for path in ignored.get(i, []):
            _drop(copy, path)
            notes.change(f"extenders[{i}]", f"{schema.dotted(path)} dropped: not a Policy key (1.22's strict "
                                            "decoder refused it) nor a v1 one (kube-scheduler 1.36 would refuse it)")
        if "enableHttps" in copy:
            copy.insert(list(copy.keys()).index("enableHttps"), "enableHTTPS", copy.pop("enableHttps"))
            notes.change(f"extenders[{i}]", "enableHttps is spelled enableHTTPS in v1")
        timeout = copy.get("httpTimeout")
        if isinstance(timeout, int) and not isinstance(timeout, bool):
            copy["httpTimeout"] = format_duration(timeout)
            notes.change(f"extenders[{i}]", f"httpTimeout {timeout} (nanoseconds) written as a duration")
        out.append(copy)
    return out


def _ignored_extender_keys(extenders: Any) -> dict[int, list[tuple[str | int, ...]]]:
    """Per extender, the paths (inside it) of the keys the 1.22 Policy decoder did not know (and refused)."""
    out: dict[int, list[tuple[str | int, ...]]] = {}
    for pointer, message in schema.errors({"extenders": extenders}, POLICY_SCHEMA):
        if message.startswith("unknown field") and len(pointer) > 2 and isinstance(pointer[1], int):
            out.setdefault(pointer[1], []).append(tuple(pointer[2:]))
    return out


def _drop(tree: Any, path: tuple[str | int, ...]) -> None:
    *parents, last = path
    for part in parents:
        tree = tree[part]
    del tree[last]


def _refs(names: list[str]) -> CommentedSeq:
    return CommentedSeq(CommentedMap(name=n) for n in names)
