"""binpack-guard's own findings: things kube-scheduler accepts silently but that do not do what
they look like (warnings), and the negative-weight policy (an error even where the scheduler
starts). Every message says what the scheduler actually does.
"""

from __future__ import annotations

from typing import Any

from linter.findings import Severity
from linter.formats.kubesched import codes as c
from linter.formats.kubesched.argsvalid import validate_fit
from linter.formats.kubesched.builds import VANILLA, Build
from linter.formats.kubesched.defaults import PluginRef, Profile
from linter.formats.kubesched.framework import Built
from linter.formats.kubesched.issues import Issue
from linter.formats.kubesched.registry import DEFAULT_MULTI_POINT, LEGACY_SCORE_PLUGINS, REMOVED_PLUGINS_V1

_POLICY = "binpack-guard policy: weights are never negative"
_DEFAULT_WEIGHTS = {name: weight for name, weight in DEFAULT_MULTI_POINT if weight is not None}


def lint_profile(p: Profile, built: Built | None, binary: Build = VANILLA,
                 fit_entry_needed: bool = False) -> list[Issue]:
    """``fit_entry_needed``: an extender marks a resource ``ignoredByScheduler``, so ``buildExtenders`` needs
    every profile's NodeResourcesFit pluginConfig entry, built or not (BPL156)."""
    out: list[Issue] = []
    who = f"profile {p.shown_name!r}" if p.shown_name else f"profiles[{p.index}]"
    needed = built.needed if built is not None else {r.name for s in p.plugins.values() for r in s.enabled}
    for point in ("score", "multiPoint"):
        for ref in p.written_plugins[point].enabled:
            ptr = (*ref.pointer, "weight") if ref.pointer else p.pointer
            if point == "multiPoint" and not _multi_point_weight_used(p, ref):
                continue
            if ref.weight is not None and ref.weight < 0 and _may_score(ref.name, binary):
                text = (f"plugins.{point}: score weight {ref.weight} of {ref.name} is negative: kube-scheduler "
                        f"accepts it and subtracts this plugin's weighted score ({_POLICY})")
                out.append(Issue(c.NEGATIVE_WEIGHT, "lint", text, ptr, severity=Severity.ERROR))
            elif ref.weight == 0 and ref.name in binary.plugins and _may_score(ref.name, binary):
                text = (f"plugins.{point}: weight 0 of {ref.name} is not allowed by the framework and is replaced "
                        f"by 1 (to turn the plugin off, list it under {point}.disabled)")
                out.append(Issue(c.SCORE_WEIGHT_DEFAULTED, "lint", text, ptr))
            elif ref.weight is None and point == "score" and _DEFAULT_WEIGHTS.get(ref.name, 1) != 1:
                text = (f"plugins.score.enabled: {ref.name} has no weight, so the framework uses 1 instead of its "
                        f"default multiPoint weight {_DEFAULT_WEIGHTS[ref.name]}")
                out.append(Issue(c.SCORE_WEIGHT_DEFAULTED, "lint", text, ref.pointer or p.pointer))
            elif ref.weight is None and point == "multiPoint" and _loses_default_weight(p, ref):
                text = (f"plugins.multiPoint.enabled: {ref.name} has no weight, so the framework uses 1 instead of "
                        f"its default multiPoint weight {_DEFAULT_WEIGHTS[ref.name]}")
                out.append(Issue(c.SCORE_WEIGHT_DEFAULTED, "lint", text, ref.pointer or p.pointer))
    for cfg in p.configs:
        if cfg.pointer is None:
            continue
        name_ptr = (*cfg.pointer, "name")
        if cfg.name == "NodeResourcesFit":
            out += _fit_args(p, cfg.args or {}, cfg.pointer, "NodeResourcesFit" in needed, who, fit_entry_needed)
        elif cfg.name == "NodeResourcesBalancedAllocation":
            out += _zero_weights(cfg.raw, cfg.pointer, ("resources",))
        if cfg.name in needed and cfg.name in binary.plugins and cfg.name not in binary.declared and not cfg.typed:
            out.append(Issue(c.UNUSED_CONFIG, "lint", f"pluginConfig {cfg.name!r}: the plugin has no args kind, so "
                             f"kube-scheduler hands these args to it unread and the plugin ignores them", name_ptr))
            continue
        if cfg.name in needed or cfg.name in REMOVED_PLUGINS_V1 or cfg.name == "NodeResourcesFit":
            continue
        if cfg.name == "NodeResourcesFitArgs":
            continue
        if cfg.name not in binary.plugins:
            text = (f"pluginConfig {cfg.name!r}: {binary.label} has no plugin of that name and ignores these "
                    f"args{binary.did_you_mean(cfg.name)}")
            if cfg.name in LEGACY_SCORE_PLUGINS:
                text += (f" (folded into NodeResourcesFit in v1beta2: use its scoringStrategy.type "
                         f"{LEGACY_SCORE_PLUGINS[cfg.name]})")
        else:
            text = (f"pluginConfig {cfg.name!r}: the plugin is not enabled in {who}, so kube-scheduler ignores "
                    f"these args")
        out.append(Issue(c.UNUSED_CONFIG, "lint", text, name_ptr))
    return out


def _loses_default_weight(p: Profile, ref: PluginRef) -> bool:
    """A weightless multiPoint entry (whose weight is the one used) of a default plugin whose default weight
    is not 1: mergePluginSet puts it in place of the default entry (or after the defaults, when those are
    disabled), so getScoreWeights reads weight 0 and uses 1."""
    return _DEFAULT_WEIGHTS.get(ref.name, 1) != 1


def _multi_point_weight_used(p: Profile, ref: PluginRef) -> bool:
    """Whether the score weight of this multiPoint entry is the one the plugin scores with. getScoreWeights
    reads ``score.enabled`` before ``multiPoint.enabled`` and keeps the first weight per plugin, so a
    ``score.enabled`` entry or an earlier multiPoint entry of the same name wins; a plugin disabled at Score
    (by name or ``*``) is not expanded there and never scores."""
    score = p.plugins["score"]
    if ref.name in {r.name for r in score.enabled} or {ref.name, "*"} & score.disabled_names():
        return False
    first = next((r for r in p.plugins["multiPoint"].enabled if r.name == ref.name), ref)
    return first.pointer == ref.pointer


def _may_score(name: str, binary: Build) -> bool:
    """False only for a plugin known not to implement Score: the framework reads weights of Score plugins
    alone (getScoreWeights), so such a plugin's weight is ignored, negative or not."""
    points = binary.plugins.get(name)
    return points is None or "score" in points


def _zero_weights(raw: Any, base: tuple[Any, ...], rel: tuple[str, ...]) -> list[Issue]:
    out: list[Issue] = []
    node = raw
    for part in rel:
        node = node.get(part) if isinstance(node, dict) else None
    for i, res in enumerate(node if isinstance(node, list) else []):
        if isinstance(res, dict) and res.get("weight") == 0 and not isinstance(res.get("weight"), bool):
            out.append(Issue(c.RESOURCE_WEIGHT_ZERO, "lint", f"weight 0 of resource {res.get('name', '')!r} is "
                             f"replaced by 1 (the default), so it still counts in the score",
                             (*base, "args", *rel, i, "weight")))
    return out


def _fit_args(p: Profile, args: dict[str, Any], ptr: tuple[Any, ...], built: bool, who: str,
              entry_needed: bool) -> list[Issue]:
    out: list[Issue] = []
    raw = next((cfg.raw for cfg in p.configs if cfg.pointer == ptr), None)
    if not built and entry_needed and not raw:
        return out  # `args: {}` kept only so buildExtenders finds the entry: nothing in it goes unused
    out += _zero_weights(raw, ptr, ("scoringStrategy", "resources"))
    strategy = args.get("scoringStrategy") or {}
    seen: dict[str, int] = {}
    raw_resources = ((raw or {}).get("scoringStrategy") or {}).get("resources") if isinstance(raw, dict) else None
    for i, res in enumerate(raw_resources if isinstance(raw_resources, list) else []):
        name = res.get("name", "") if isinstance(res, dict) else ""
        if name in seen:
            out.append(Issue(c.DUPLICATE_RESOURCE, "lint", f"resource {name!r} is listed twice in "
                             f"scoringStrategy.resources (also at index {seen[name]}): kube-scheduler scores it twice, "
                             f"once per entry with each entry's weight", (*ptr, "args", "scoringStrategy", "resources",
                                                                          i, "name")))
        seen.setdefault(name, i)
    if not built:
        errors = list(validate_fit(args))
        text = (f"NodeResourcesFit is not enabled in {who}, so kube-scheduler never builds it: these args are "
                f"neither validated nor used")
        if entry_needed:
            text = (f"NodeResourcesFit is not enabled in {who}: only the entry is needed (an extender sets "
                    f"ignoredByScheduler), these args are neither validated nor used: write `args: {{}}`")
        if errors:
            text += f" (they would fail with: {errors[0][0].render()})"
        out.append(Issue(c.FIT_ARGS_UNCHECKED, "lint", text, (*ptr, "name")))
        for i, res in enumerate(strategy.get("resources") or []):
            if res.get("weight", 0) < 0:
                out.append(Issue(c.NEGATIVE_WEIGHT, "lint", f"scoringStrategy.resources[{i}].weight: resource weight "
                                 f"{res['weight']} of {res.get('name', '')} is negative ({_POLICY}; kube-scheduler "
                                 f"does not check it here because NodeResourcesFit is not enabled)",
                                 (*ptr, "args", "scoringStrategy", "resources", i, "weight"), severity=Severity.ERROR))
    return out
