"""Fold the pre-v1beta2 resource-scoring plugins into ``NodeResourcesFit.scoringStrategy``.

``NodeResourcesLeastAllocated``, ``NodeResourcesMostAllocated`` and ``RequestedToCapacityRatio``
were separate score plugins up to v1beta1; v1 has one NodeResourcesFit with one strategy (two enabled
at once scored side by side: an error, v1 cannot add them up).
The strategy is the one the file asks for: a folded plugin enabled at score wins, else one
configured in pluginConfig and not disabled (MostAllocated/RTCR before the LeastAllocated default). Its weight
becomes NodeResourcesFit's score weight, its ``resources`` and ``shape`` the strategy's.
Shapes keep their 0..10 scores (every version wrote them so); resource weights above v1's
100 are divided by their common divisor, which leaves every weighted average unchanged.
"""

from __future__ import annotations

from functools import reduce
from math import gcd
from typing import Any

from ruamel.yaml.comments import CommentedMap

from linter.migrate.facts import FIT, FOLDED_SCORE_PLUGINS, PRE_V1BETA3
from linter.migrate.notes import Notes
from linter.migrate.tree import child_list, child_map, commented, drop_empty, is_map, named, profile_list

MAX_RESOURCE_WEIGHT = 100
_POINTS = ("score", "multiPoint")


def fold_resource_scoring(profile: CommentedMap, where: str, version: str, notes: Notes) -> None:
    plugins = profile.get("plugins") if is_map(profile.get("plugins")) else CommentedMap()
    enabled = [(point, i, ref) for point in _POINTS for i, ref in _refs(plugins, point, "enabled")
               if ref["name"] in FOLDED_SCORE_PLUGINS]
    disabled = [(point, i, ref) for point in _POINTS for i, ref in _refs(plugins, point, "disabled")
                if ref["name"] in FOLDED_SCORE_PLUGINS]
    configs = [(j, entry) for j, entry in named(profile.get("pluginConfig")) if entry["name"] in FOLDED_SCORE_PLUGINS]
    if not (enabled or disabled or configs):
        return
    old = version in PRE_V1BETA3
    # args of a plugin the profile disables did not score: they cannot choose the strategy
    switched_off = {ref["name"] for _, _, ref in disabled}
    chosen = _choose([ref["name"] for _, _, ref in enabled],
                     [entry["name"] for _, entry in configs if entry["name"] not in switched_off])
    if chosen is not None:
        was_enabled = any(ref["name"] == chosen for _, _, ref in enabled)
        _write_strategy(profile, where, chosen, [entry for _, entry in configs], notes)
        _rename_enabled(plugins, where, chosen, enabled, notes)
        if not was_enabled and old and chosen != "NodeResourcesLeastAllocated":
            notes.change(where, f"{chosen} was only configured, not enabled at score: in {version} that left the "
                                "LeastAllocated default scoring; v1 scores with the configured strategy")
        elif was_enabled and old and chosen != "NodeResourcesLeastAllocated" and not _least_disabled(plugins, disabled):
            notes.change(where, f"NodeResourcesLeastAllocated, a default score plugin in {version}, scored beside "
                                f"{chosen} (it was not disabled); v1 has one strategy, so only "
                                f"{FOLDED_SCORE_PLUGINS[chosen]} scores now")
    elif old and any(ref["name"] == "NodeResourcesLeastAllocated" for _, _, ref in disabled):
        notes.change(where, "NodeResourcesLeastAllocated was disabled: NodeResourcesFit is disabled at score "
                            "(it still filters)")
    _drop_disabled(plugins, where, disabled, chosen is None and old, old, notes)
    _drop_configs(profile, where, configs, chosen, notes)


def _least_disabled(plugins: CommentedMap, disabled: list[tuple[str, int, CommentedMap]]) -> bool:
    everything = any(e["name"] == "*" for _, e in _refs(plugins, "score", "disabled"))
    return everything or any(ref["name"] == "NodeResourcesLeastAllocated" for _, _, ref in disabled)


def _refs(plugins: CommentedMap, point: str, which: str) -> list[tuple[int, CommentedMap]]:
    pset = plugins.get(point)
    return list(named(pset.get(which))) if is_map(pset) else []


def _choose(enabled: list[str], configured: list[str]) -> str | None:
    def best(names: list[str]) -> str | None:
        for preferred in ("RequestedToCapacityRatio", "NodeResourcesMostAllocated", "NodeResourcesLeastAllocated"):
            if preferred in names:
                return preferred
        return None

    return best(enabled) or best(configured)


def _write_strategy(profile: CommentedMap, where: str, chosen: str, configs: list[CommentedMap],
                    notes: Notes) -> None:
    strategy = CommentedMap()
    strategy["type"] = FOLDED_SCORE_PLUGINS[chosen]
    source = next((e for e in configs if e["name"] == chosen), None)
    args = source.get("args") if source is not None else None
    if is_map(args):
        resources = args.get("resources")
        if isinstance(resources, list) and resources:
            strategy["resources"] = _keep_comments(args, "resources", fit_weights(resources, where, notes), strategy)
        if chosen == "RequestedToCapacityRatio":
            rtcr = CommentedMap()
            rtcr["shape"] = _keep_comments(args, "shape", args.get("shape") if isinstance(args.get("shape"), list)
                                           else [], rtcr)
            strategy["requestedToCapacityRatio"] = rtcr
    elif chosen == "RequestedToCapacityRatio":
        notes.error(where, "RequestedToCapacityRatio is enabled without args: v1 needs a shape "
                           "(scoringStrategy.requestedToCapacityRatio.shape)")
    pconfig = profile_list(profile, "pluginConfig")
    existing = next((e for _, e in named(pconfig) if e["name"] == FIT), None)
    if existing is None and source is not None:
        source["name"] = FIT  # the folded entry becomes NodeResourcesFit's, where it stands
        source["args"] = CommentedMap()
        existing = source
    elif existing is None:
        existing = CommentedMap()
        existing["name"] = FIT
        pconfig.insert(next((j for j, e in named(pconfig) if e["name"] in FOLDED_SCORE_PLUGINS), len(pconfig)),
                       existing)
    fit_args = child_map(existing, "args")
    if is_map(fit_args.get("scoringStrategy")):
        notes.error(where, f"NodeResourcesFit already has a scoringStrategy; {chosen}'s settings were not merged")
        return
    fit_args["scoringStrategy"] = strategy
    notes.change(where, f"{chosen} folded into NodeResourcesFit args scoringStrategy (type "
                        f"{FOLDED_SCORE_PLUGINS[chosen]})")


def _keep_comments(args: CommentedMap, key: str, value: Any, target: CommentedMap) -> Any:
    """``value`` for ``target[key]``, taking along the comment written after ``args[key]``."""
    comment = args.ca.items.get(key) if hasattr(args, "ca") else None
    if comment is not None:
        target.ca.items[key] = comment
    return value if hasattr(value, "ca") else commented(value)


def fit_weights(resources: list[Any], where: str, notes: Notes) -> list[Any]:
    weights = [r.get("weight") for r in resources if is_map(r)]
    ints = [w for w in weights if isinstance(w, int) and not isinstance(w, bool) and w > 0]
    if not ints or max(ints) <= MAX_RESOURCE_WEIGHT:
        return resources
    divisor = reduce(gcd, ints)
    scaled = [dict(r) if is_map(r) else r for r in resources]  # an item that is no mapping stays as written
    top = max(ints) // divisor
    for r in scaled:
        w = r.get("weight") if is_map(r) else None
        if isinstance(w, int) and not isinstance(w, bool) and w > 0:
            r["weight"] = w // divisor if top <= MAX_RESOURCE_WEIGHT else max(1, round(w * MAX_RESOURCE_WEIGHT /
                                                                                      max(ints)))
    if top <= MAX_RESOURCE_WEIGHT:
        notes.change(where, f"resource weights divided by {divisor} to fit v1's 1..100 (same ratios, same scores)")
    else:
        notes.error(where, "resource weights above 100 scaled to 1..100: v1 cannot keep their exact ratios")
    return scaled


def _rename_enabled(plugins: CommentedMap, where: str, chosen: str,
                    enabled: list[tuple[str, int, CommentedMap]], notes: Notes) -> None:
    renamed = False
    for point, _, ref in enabled:
        if ref["name"] == chosen and not renamed:
            ref["name"] = FIT
            renamed = True
            notes.change(where, f"plugins.{point}.enabled: {chosen} is now NodeResourcesFit (same weight)")
    for point, _, ref in enabled:
        if ref["name"] in FOLDED_SCORE_PLUGINS:
            plugins[point]["enabled"].remove(ref)
            # both were enabled, so both scored: v1 cannot add two resource strategies up
            notes.error(where, f"plugins.{point}.enabled: {ref['name']} dropped: it scored beside {chosen}, and v1 "
                               f"scores resources with one strategy ({FOLDED_SCORE_PLUGINS[chosen]})")
    for point in _POINTS:
        if is_map(plugins.get(point)):
            drop_empty(plugins[point], "enabled")


def _drop_disabled(plugins: CommentedMap, where: str, disabled: list[tuple[str, int, CommentedMap]],
                   fit_off: bool, old: bool, notes: Notes) -> None:
    least_off = False
    for point, _, ref in disabled:
        plugins[point]["disabled"].remove(ref)
        least_off = least_off or (point == "score" and ref["name"] == "NodeResourcesLeastAllocated")
        if old and not fit_off:
            notes.change(where, f"plugins.{point}.disabled: {ref['name']} dropped (NodeResourcesFit scores with the "
                                "one strategy above)")
        elif not old:
            notes.change(where, f"plugins.{point}.disabled: {ref['name']} dropped: no such plugin since v1beta2, so "
                                "disabling it did nothing (NodeResourcesFit kept scoring, as it does now)")
    if fit_off and least_off:
        score = plugins["score"]
        disabled_list = child_list(score, "disabled")
        if not any(e["name"] in (FIT, "*") for _, e in named(disabled_list)):
            entry = CommentedMap()
            entry["name"] = FIT
            disabled_list.append(entry)
    for point in _POINTS:
        if is_map(plugins.get(point)):
            drop_empty(plugins[point], "disabled")


def _drop_configs(profile: CommentedMap, where: str, configs: list[tuple[int, CommentedMap]], chosen: str | None,
                  notes: Notes) -> None:
    pconfig = profile.get("pluginConfig")
    for _, entry in configs:
        if entry["name"] == FIT:  # the chosen entry, rewritten in place
            continue
        pconfig.remove(entry)
        if entry["name"] != chosen:
            notes.change(where, f"pluginConfig {entry['name']} dropped: v1 scores resources with one strategy "
                                f"({FOLDED_SCORE_PLUGINS[chosen] if chosen else 'LeastAllocated'})")
    drop_empty(profile, "pluginConfig")
