"""``ValidateKubeSchedulerConfiguration`` of kube-scheduler 1.36, field error by field error.

Returns the errors in the scheduler's order, each with the rule code that reports it and the
document pointer it belongs to. NodeResourcesFit args are *not* checked here (the validator's
table is keyed ``NodeResourcesFitArgs``); ``framework.py`` checks them at plugin construction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from linter.extenders import extender_errors
from linter.formats.kubesched import codes as c
from linter.formats.kubesched.argsvalid import validate_args
from linter.formats.kubesched.defaults import ConfigEntry, Globals, PluginSet, Profile
from linter.formats.kubesched.outoftree_args.internal import internal_json
from linter.formats.kubesched.registry import REMOVED_PLUGINS_V1, V1, VALIDATED_POINTS
from linter.gofmt import FieldError, Rendered, format_duration, go_compact, go_json
from linter.source import Pointer


@dataclass(frozen=True)
class Found:
    code: str
    error: FieldError
    pointer: Pointer
    on_key: bool = False


def _removed(name: str) -> str:
    return f'was invalid in version "v1" (KubeSchedulerConfiguration is version "{V1}")'


def validate_config(config: dict[str, Any], g: Globals, profiles: list[Profile], *,
                    binding_conditions: bool = True) -> list[Found]:
    out: list[Found] = []
    if g.burst < 0:
        error = FieldError("Invalid value", "clientConnection.burst", g.burst, "must be non-negative")
        out.append(Found(c.GLOBAL, error, ("clientConnection", "burst")))
    out += _leader_election(g)
    if g.parallelism <= 0:
        out.append(Found(c.GLOBAL, FieldError("Invalid value", "parallelism", g.parallelism,
                                              "should be an integer value greater than zero"), ("parallelism",)))
    seen: dict[str, int] = {}
    for p in profiles:
        out += _profile(p, binding_conditions)
        if p.shown_name in seen:
            out.append(Found(c.PROFILE_NAME, FieldError("Duplicate value", f"profiles[{p.index}].schedulerName",
                                                        Rendered("{}")), (*p.pointer, "schedulerName")))
        seen[p.shown_name] = p.index
    out += _common_queue_sort(profiles)
    if not 0 <= g.percentage <= 100:
        out.append(Found(c.GLOBAL, FieldError("Invalid value", "percentageOfNodesToScore", g.percentage,
                                              "not in valid range [0-100]"), ("percentageOfNodesToScore",)))
    if g.initial_backoff <= 0:
        out.append(Found(c.GLOBAL, FieldError("Invalid value", "podInitialBackoffSeconds", g.initial_backoff,
                                              "must be greater than 0"), ("podInitialBackoffSeconds",)))
    if g.max_backoff < g.initial_backoff:
        out.append(Found(c.GLOBAL, FieldError("Invalid value", "podMaxBackoffSeconds", g.max_backoff,
                                              "must be greater than or equal to PodInitialBackoffSeconds"),
                         ("podMaxBackoffSeconds",)))
    extenders = extender_errors(config.get("extenders"), json_resource_names=True)
    out += [Found(c.EXTENDER, error, ptr) for error, ptr in extenders]
    return out


def _leader_election(g: Globals) -> list[Found]:
    out: list[Found] = []
    base = ("leaderElection",)
    if g.leader_elect:
        for key, value in (("leaseDuration", g.lease), ("renewDeadline", g.renew), ("retryPeriod", g.retry)):
            if value <= 0:
                out.append(Found(c.LEADER, FieldError("Invalid value", f"leaderElection.{key}",
                                                      Rendered(f'"{format_duration(value)}"'),
                                                      "must be greater than zero"), (*base, key)))
        if g.lease <= g.renew:
            out.append(Found(c.LEADER, FieldError("Invalid value", "leaderElection.leaseDuration",
                                                  Rendered(f'"{format_duration(g.renew)}"'),
                                                  "must be greater than `RenewDeadline`"), (*base, "leaseDuration")))
        if g.resource_lock != "leases":
            out.append(Found(c.LEADER, FieldError("Invalid value", "leaderElection.resourceLock", g.resource_lock,
                                                  'resourceLock value must be "leases"'), (*base, "resourceLock")))
    return out


def _profile(p: Profile, binding_conditions: bool) -> list[Found]:
    out: list[Found] = []
    path = f"profiles[{p.index}]"
    if not p.name:
        out.append(Found(c.PROFILE_NAME, FieldError("Required value", f"{path}.schedulerName"),
                         (*p.pointer, "schedulerName")))
    if p.percentage is not None and not 0 <= p.percentage <= 100:
        out.append(Found(c.GLOBAL, FieldError("Invalid value", f"{path}.percentageOfNodesToScore", p.percentage,
                                              "not in valid range [0-100]"), (*p.pointer, "percentageOfNodesToScore")))
    for ep in VALIDATED_POINTS:
        for i, ref in enumerate(p.plugins[ep].enabled):
            if ref.name in REMOVED_PLUGINS_V1:
                out.append(Found(c.REMOVED_PLUGIN, FieldError("Invalid value", f"{path}.plugins.{ep}.enabled[{i}]",
                                                              ref.name, _removed(ref.name)),
                                 ref.pointer or (*p.pointer, "plugins", ep)))
    names: set[str] = set()
    for j, cfg in enumerate(p.configs):
        cpath = f"{path}.pluginConfig[{j}]"
        cptr = cfg.pointer or (*p.pointer, "pluginConfig")
        if cfg.name in names:
            out.append(Found(c.DUPLICATE_CONFIG, FieldError("Duplicate value", cpath, cfg.name), (*cptr, "name")))
        names.add(cfg.name)
        if cfg.name in REMOVED_PLUGINS_V1:
            out.append(Found(c.REMOVED_PLUGIN, FieldError("Invalid value", cpath, cfg.name, _removed(cfg.name)),
                             (*cptr, "name")))
        elif cfg.name == "NodeResourcesFitArgs":
            out.append(Found(c.ARGS_MISMATCH, FieldError("Invalid value", f"{cpath}.args", _shown_opaque(cfg),
                                                         "has to match plugin args"), (*cptr, "args")))
        elif cfg.typed and cfg.name != "NodeResourcesFit" and cfg.args is not None:
            for fe, rel in validate_args(cfg.name, cfg.args, f"{cpath}.args",
                                         binding_conditions=binding_conditions):
                code = c.BALANCED_ARGS if cfg.name == "NodeResourcesBalancedAllocation" else c.PLUGIN_ARGS
                out.append(Found(code, fe, (*cptr, "args", *rel)))
    return out


def plugin_set_json(s: PluginSet) -> str:
    """An internal ``config.PluginSet`` as Go's JSON (capitalised field names, nil -> null)."""
    def items(refs: list[Any]) -> Any:
        return [{"Name": r.name, "Weight": r.weight or 0} for r in refs] if refs else None
    return go_json({"Enabled": items(s.enabled), "Disabled": items(s.disabled)}, sort=False)


def _same_set(a: PluginSet, b: PluginSet) -> bool:
    def key(s: PluginSet) -> tuple[Any, ...]:
        return (tuple((r.name, r.weight or 0) for r in s.enabled), tuple(r.name for r in s.disabled))
    return key(a) == key(b)


def _compared_args(cfg: ConfigEntry) -> Any:
    """What ``validateCommonQueueSort`` compares: typed args after defaulting (so written-out defaults
    equal omitted ones, and a profile without an entry has the defaulted one), opaque args as written:
    in a JSON file their very bytes (a ``runtime.Unknown``), so spacing and member order count there."""
    if cfg.typed and cfg.args is not None:
        return cfg.args
    return ("json", cfg.raw_text) if cfg.raw_text is not None else cfg.raw


def _shown_opaque(cfg: ConfigEntry) -> Rendered | None:
    """An opaque args value as ``field.Invalid`` prints it: json.Marshal of the ``runtime.Unknown``, i.e.
    its raw bytes compacted (a JSON file's text, a YAML file's value converted to JSON), nil as null."""
    if cfg.raw_text is not None:
        return Rendered(go_compact(cfg.raw_text))
    return Rendered(go_json(cfg.raw)) if cfg.raw is not None else None


def _shown_args(cfg: ConfigEntry) -> Rendered | None:
    """A pluginConfig's args as ``field.Invalid`` prints them: typed ones as their internal struct (defaulted,
    Go field names), opaque ones as written."""
    shown = internal_json(cfg.name, cfg.args) if cfg.typed and cfg.args is not None else None
    return Rendered(shown) if shown is not None else _shown_opaque(cfg)


def _common_queue_sort(profiles: list[Profile]) -> list[Found]:
    out: list[Found] = []
    first = profiles[0]
    canon = first.plugins["queueSort"]
    queue_sort_name = canon.enabled[0].name if canon.enabled else ""
    if len(canon.enabled) > 1:
        out.append(Found(c.QUEUE_SORT, FieldError("Invalid value", "profiles[0].plugins.queueSort.Enabled",
                                                  len(canon.enabled), "only one queue sort plugin can be enabled"),
                         (*first.pointer, "plugins", "queueSort", "enabled")))
    canon_args = next((_compared_args(cfg) for cfg in first.configs if queue_sort_name and cfg.name == queue_sort_name),
                      None)
    for p in profiles[1:]:
        curr = p.plugins["queueSort"]
        if not _same_set(canon, curr):
            error = FieldError("Invalid value", f"profiles[{p.index}].plugins.queueSort",
                               Rendered(plugin_set_json(curr)), "must be the same for all profiles")
            out.append(Found(c.QUEUE_SORT, error, (*p.pointer, "plugins", "queueSort")))
        for cfg in p.configs:
            if cfg.name == queue_sort_name and _compared_args(cfg) != canon_args:
                out.append(Found(c.QUEUE_SORT, FieldError("Invalid value", f"profiles[{p.index}].pluginConfig.args",
                                                          _shown_args(cfg),
                                                          "queueSort must be the same for all profiles"),
                                 cfg.pointer or p.pointer))
    return out
