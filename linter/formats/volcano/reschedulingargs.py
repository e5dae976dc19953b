"""rescheduling's lowNodeUtilization ``thresholds`` and ``targetThresholds``: values Go asserts to be ints.

At ed72c7c (``plugins/rescheduling``), every session's ``OnSessionOpen`` parses the first rescheduling entry
of each tier, in tier order (``parseArguments``). A ``strategies`` list that is not empty replaces the
strategies so far; each item goes through ``mapstructure.Decode`` into ``Strategy{Name string; Params
map[string]interface{}}`` and an item that fails is skipped (logged at V(3)). The registry of parameters,
``RegisteredStrategyConfigs``, is then rebuilt from the strategies, by name. The default strategy is
lowNodeUtilization with Go-typed defaults, which are safe.

When lowNodeUtilization is among the strategies, the plugin registers ``victimsFnForLnu`` in the first
session (``lastRescheduleTime`` starts at zero, so ``timeToRun`` is true), and the shuffle action calls it
through ``ssn.VictimTasks`` for each enabled rescheduling entry. ``LowNodeUtilizationConf.parse`` then
asserts the ``thresholds`` mapping (a yaml.v2 ``map[interface{}]interface{}``; anything else is logged and
parsing stops) and stores ``v.(int)`` for each value: a float, a string, a boolean or ``null`` panics, and
nothing recovers. ``targetThresholds`` follows, read the same way, unless ``thresholds`` stopped the parse.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from linter.formats.volcano.handler import PluginEntry, VolcanoContext
from linter.formats.volcano.mapstructure import equal_fold, go_type_name
from linter.source import Pointer

RESCHEDULING = "rescheduling"
SHUFFLE = "shuffle"
LOW_NODE_UTILIZATION = "lowNodeUtilization"
THRESHOLD_KEYS = ("thresholds", "targetThresholds")

# (the params mapping, where it is written); None params: the strategy was written without any
_Params = tuple[dict[str, Any] | None, Pointer]


def _field_key(item: dict[str, Any], field: str) -> str | None:
    """The key ``decodeStructFromMap`` reads a field from: the exact name, else one equal under folding."""
    if field in item:
        return field
    return next((k for k in item if isinstance(k, str) and equal_fold(k, field)), None)


def _strategy_params(item: Any, at: Pointer) -> tuple[str, _Params] | None:
    """The (name, params) ``mapstructure.Decode`` makes of a ``strategies`` item, None when it fails."""
    if item is None:
        return "", (None, at)  # Decode of nil sets nothing: a zero Strategy is appended
    if not isinstance(item, dict):
        return None
    name_key, params_key = _field_key(item, "Name"), _field_key(item, "Params")
    name = item.get(name_key) if name_key is not None else None
    params = item.get(params_key) if params_key is not None else None
    if not (name is None or isinstance(name, str)) or not (params is None or isinstance(params, dict)):
        return None
    return name or "", (params, (*at, params_key) if params_key is not None else at)


def _lnu_params(ctx: VolcanoContext) -> _Params | None:
    """What ``RegisteredStrategyConfigs["lowNodeUtilization"]`` holds when the victim function runs, or None
    when the configured strategies leave lowNodeUtilization out (its victim function is then never added)."""
    registry: dict[str, _Params] = {LOW_NODE_UTILIZATION: ({}, ())}  # the Go default: safe, not checked
    tiers_seen: set[int] = set()
    for entry in ctx.plugins:
        if entry.name != RESCHEDULING or entry.tier in tiers_seen:
            continue
        tiers_seen.add(entry.tier)
        if "strategies" not in entry.arguments:
            continue
        items = entry.arguments["strategies"]
        if isinstance(items, list) and items:
            registry = {}
            at = (*entry.arguments_pointer, "strategies")
            for i, item in enumerate(items):
                decoded = _strategy_params(item, (*at, i))
                if decoded is not None:
                    registry[decoded[0]] = decoded[1]  # a later strategy of the same name wins
    return registry.get(LOW_NODE_UTILIZATION)


def _non_int(value: Any) -> bool:
    return isinstance(value, bool) or not isinstance(value, int) or go_type_name(value) != "int"


def _reached(ctx: VolcanoContext, entries: list[PluginEntry]) -> bool:
    """The shuffle action runs and some rescheduling entry has its victim function enabled."""
    return (any(a.name == SHUFFLE for a in ctx.actions)
            and any(e.switch("enabledVictim") for e in entries))


def threshold_panics(ctx: VolcanoContext) -> Iterator[tuple[Pointer, Any]]:
    """The (pointer, value) of the first threshold value ``v.(int)`` panics on, if any."""
    entries = [e for e in ctx.plugins if e.name == RESCHEDULING]
    if not entries or not _reached(ctx, entries):
        return
    found = _lnu_params(ctx)
    params, at = found if found is not None else (None, ())
    if params is None:  # no lowNodeUtilization strategy, or one without params: nothing is parsed
        return
    for key in THRESHOLD_KEYS:
        if key not in params:
            continue
        thresholds = params[key]
        if not isinstance(thresholds, dict):
            return  # "Assert ... to map error, abort the configuration parse."
        bad = [k for k, v in thresholds.items() if _non_int(v)]
        if bad:
            yield (*at, key, bad[0]), thresholds[bad[0]]
            return


# What lowNodeUtilization uses: two keys of the params (``LowNodeUtilizationConf.parse``), and two names in
# each, since a node's utilization (``getNodeUtilization``) has only cpu and memory. parseThreshold also
# stores a "pod" value, which no check reads.
READ_PARAMS = THRESHOLD_KEYS
READ_THRESHOLDS = ("cpu", "memory")


def ignored_arguments(ctx: VolcanoContext) -> Iterator[tuple[Pointer, str, bool]]:
    """``(pointer, message, on_key)`` for rescheduling arguments Volcano drops without a word: a
    ``strategies`` item ``mapstructure.Decode`` cannot make a ``Strategy`` of, and lowNodeUtilization
    params and threshold names ``parse`` does not read. Only when the shuffle action runs the victim
    function, and not when a threshold value makes it panic (BPL415)."""
    entries = [e for e in ctx.plugins if e.name == RESCHEDULING]
    if not entries or not _reached(ctx, entries) or next(threshold_panics(ctx), None) is not None:
        return
    tiers_seen: set[int] = set()
    for entry in entries:
        if entry.tier in tiers_seen:
            continue
        tiers_seen.add(entry.tier)
        items = entry.arguments.get("strategies")
        if isinstance(items, list):
            at = (*entry.arguments_pointer, "strategies")
            for i, item in enumerate(items):
                if _strategy_params(item, (*at, i)) is None:
                    yield ((*at, i), "rescheduling cannot decode this strategy (a mapping with a string name and "
                           "a mapping of params); Volcano skips it, logging only at verbosity 3", False)
    params, at = _lnu_params(ctx) or (None, ())
    if params is None:  # no lowNodeUtilization strategy, or one without params: nothing is parsed
        return
    for key in params:
        if key not in READ_PARAMS:
            yield ((*at, key), f"lowNodeUtilization reads only thresholds and targetThresholds; Volcano ignores "
                   f"{key!r}", True)
    for key in THRESHOLD_KEYS:
        if key not in params:
            continue
        thresholds = params[key]
        if not isinstance(thresholds, dict):
            return  # parse stops here, with a warning of its own in Volcano's log
        for name in thresholds:
            if name in READ_THRESHOLDS:
                continue
            yield ((*at, key, name), f"lowNodeUtilization judges nodes by cpu and memory utilization only: "
                   f"Volcano ignores {key} {name!r}", True)
