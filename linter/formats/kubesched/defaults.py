"""v1 defaulting: global defaults, profiles, the default-plugin merge and plugin-args defaults.

Mirrors ``SetDefaults_KubeSchedulerConfiguration``: one empty profile when none is given, the
``default-scheduler`` name only for a single unnamed profile, every extension point merged
with the default set (``mergePluginSet``: user ``disabled`` first, ``*`` drops all defaults, a
re-enabled default keeps its place and takes the user's entry), and a defaulted args entry for
every enabled plugin that has an args kind and no pluginConfig. The args kinds are those of the
scheme's shared v1 builder, which scheduler-plugins' kinds join (its ``apis/config/v1/register.go``
registers into ``k8s.io/kube-scheduler/config/v1.SchemeBuilder``), so its plugins get theirs too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from linter.formats.kubesched.builds import VANILLA, Build
from linter.formats.kubesched.outoftree_args.defaults import default_args as out_of_tree_defaults
from linter.formats.kubesched.registry import DEFAULT_MULTI_POINT
from linter.formats.kubesched.types import ARGS_TYPES, EXTENSION_POINTS
from linter.source import Pointer

SECOND = 1_000_000_000


@dataclass(frozen=True)
class PluginRef:
    name: str
    weight: int | None  # None = not written (Go nil -> 0)
    pointer: Pointer | None = None  # None for entries that come from the defaults


@dataclass
class PluginSet:
    enabled: list[PluginRef] = field(default_factory=list)
    disabled: list[PluginRef] = field(default_factory=list)

    def disabled_names(self) -> set[str]:
        return {p.name for p in self.disabled}


@dataclass
class ConfigEntry:
    name: str
    args: dict[str, Any] | None  # typed (decoded) args, None for opaque ones
    raw: Any  # args as written
    pointer: Pointer | None  # None for entries added by defaulting
    typed: bool
    # the args as written in a JSON file (Go keeps an opaque args value as these bytes); None for YAML
    raw_text: str | None = None


@dataclass
class Profile:
    index: int
    pointer: Pointer
    name: str | None  # None when not written and not defaulted
    percentage: int | None
    written_plugins: dict[str, PluginSet]
    plugins: dict[str, PluginSet]
    configs: list[ConfigEntry]

    @property
    def shown_name(self) -> str:
        return self.name or ""


def _plugin_set(raw: dict[str, Any] | None, base: Pointer) -> PluginSet:
    raw = raw or {}
    enabled = [PluginRef(p.get("name", ""), p.get("weight"), (*base, "enabled", i))
               for i, p in enumerate(raw.get("enabled") or [])]
    disabled = [PluginRef(p.get("name", ""), None, (*base, "disabled", i))
                for i, p in enumerate(raw.get("disabled") or [])]
    return PluginSet(enabled, disabled)


def merge_plugin_set(default: PluginSet, custom: PluginSet) -> PluginSet:
    disabled = [PluginRef(p.name, None, p.pointer) for p in custom.disabled + default.disabled]
    names = {p.name for p in disabled}
    by_name = {p.name: (i, p) for i, p in enumerate(custom.enabled)}  # a later duplicate wins, as in Go
    replaced: set[int] = set()
    enabled: list[PluginRef] = []
    if "*" not in names:
        for p in default.enabled:
            if p.name in names:
                continue
            if p.name in by_name:
                index, p = by_name[p.name]
                replaced.add(index)
            enabled.append(p)
    enabled += [p for i, p in enumerate(custom.enabled) if i not in replaced]
    return PluginSet(enabled, disabled)


def default_plugins(multi_point: tuple[tuple[str, int | None], ...] = DEFAULT_MULTI_POINT) -> dict[str, PluginSet]:
    sets = {ep: PluginSet() for ep in EXTENSION_POINTS}
    sets["multiPoint"] = PluginSet([PluginRef(n, w) for n, w in multi_point])
    return sets


def enabled_names(plugins: dict[str, PluginSet]) -> list[str]:
    """``pluginsNames``: every name enabled at any point, sorted (as Go's sets.List)."""
    return sorted({p.name for s in plugins.values() for p in s.enabled})


def build_profiles(config: dict[str, Any], typed_args: dict[Pointer, dict[str, Any]],
                   build: Build = VANILLA) -> list[Profile]:
    written = config.get("profiles") or []
    raw_profiles: list[tuple[Pointer, dict[str, Any]]] = [(("profiles", i), p) for i, p in enumerate(written)]
    if not raw_profiles:
        raw_profiles = [(("profiles",), {})]
    profiles: list[Profile] = []
    for index, (pointer, raw) in enumerate(raw_profiles):
        name = raw.get("schedulerName")
        if name is None and len(raw_profiles) == 1:
            name = "default-scheduler"
        custom = {ep: _plugin_set((raw.get("plugins") or {}).get(ep), (*pointer, "plugins", ep))
                  for ep in EXTENSION_POINTS}
        defaults = default_plugins(build.default_multi_point)
        merged = {ep: merge_plugin_set(defaults[ep], custom[ep]) for ep in EXTENSION_POINTS}
        configs: list[ConfigEntry] = []
        for j, entry in enumerate(raw.get("pluginConfig") or []):
            cp = (*pointer, "pluginConfig", j)
            cname = entry.get("name", "")
            typed = cname in build.args_types
            args = None
            if typed:  # out-of-tree args are defaulted by their own project's SetDefaults
                given = typed_args.get(cp, {})
                args = default_args(cname, given) if cname in ARGS_TYPES else out_of_tree_defaults(cname, given)
            configs.append(ConfigEntry(cname, args, entry.get("args"), cp, typed))
        have = {c.name for c in configs}
        for cname in enabled_names(merged):
            if cname in build.args_types and cname not in have:
                args = default_args(cname, {}) if cname in ARGS_TYPES else out_of_tree_defaults(cname, {})
                configs.append(ConfigEntry(cname, args, None, None, True))
        profiles.append(Profile(index, pointer, name, raw.get("percentageOfNodesToScore"), custom, merged, configs))
    return profiles


def _resources(raw: Any) -> list[dict[str, Any]]:
    items = [dict(r) for r in raw] if isinstance(raw, list) and raw else [
        {"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}]
    for r in items:
        r.setdefault("name", "")
        if not r.get("weight"):
            r["weight"] = 1
    return items


def default_args(name: str, args: dict[str, Any]) -> dict[str, Any]:
    """``SetDefaults_<name>Args`` on decoded args (a copy; lists of resources are copied too)."""
    out = dict(args)
    if name == "NodeResourcesFit":
        strategy = dict(out.get("scoringStrategy") or {}) if "scoringStrategy" in out else {"type": "LeastAllocated"}
        strategy["resources"] = _resources(strategy.get("resources"))
        out["scoringStrategy"] = strategy
    elif name == "NodeResourcesBalancedAllocation":
        out["resources"] = _resources(out.get("resources"))
    elif name == "DefaultPreemption":
        out.setdefault("minCandidateNodesPercentage", 10)
        out.setdefault("minCandidateNodesAbsolute", 100)
    elif name == "InterPodAffinity":
        out.setdefault("hardPodAffinityWeight", 1)
    elif name == "VolumeBinding":
        out.setdefault("bindTimeoutSeconds", 600)
    elif name == "PodTopologySpread" and not out.get("defaultingType"):
        out["defaultingType"] = "System"
    return out


@dataclass(frozen=True)
class Globals:
    parallelism: int
    percentage: int
    initial_backoff: int
    max_backoff: int
    burst: int
    leader_elect: bool
    lease: int
    renew: int
    retry: int
    resource_lock: str


def build_globals(config: dict[str, Any]) -> Globals:
    le = config.get("leaderElection") or {}
    cc = config.get("clientConnection") or {}
    return Globals(
        parallelism=config.get("parallelism", 16),
        percentage=config.get("percentageOfNodesToScore", 0),
        initial_backoff=config.get("podInitialBackoffSeconds", 1),
        max_backoff=config.get("podMaxBackoffSeconds", 10),
        burst=cc.get("burst") or 100,
        leader_elect=le.get("leaderElect", True),
        lease=le.get("leaseDuration") or 15 * SECOND,
        renew=le.get("renewDeadline") or 10 * SECOND,
        retry=le.get("retryPeriod") or 2 * SECOND,
        resource_lock=le.get("resourceLock") or "leases",
    )
