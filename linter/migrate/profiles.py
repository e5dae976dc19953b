"""Rewrite one scheduler profile of a removed version into v1 terms.

In order: renamed/folded extension points, the folded resource-scoring plugins
(:mod:`linter.migrate.strategy`), plugins removed without successor, the apiVersion inside
typed args, and -- for files older than v1beta3 -- the default score weights they ran with.
"""

from __future__ import annotations

from ruamel.yaml.comments import CommentedMap

from linter.migrate.facts import (
    DROPPED_POINTS,
    FOLDED_POINTS,
    OLD_DEFAULT_WEIGHTS,
    POINT_RENAMES_V1ALPHA1,
    PRE_V1BETA3,
    REMOVED_PLUGINS,
    V1,
    V1_ARGS_KINDS,
    V1_DEFAULT_WEIGHTS,
)
from linter.migrate.notes import Notes
from linter.migrate.strategy import fold_resource_scoring
from linter.migrate.tree import child_list, child_map, drop_empty, is_map, named, profile_map, rename_key

V1ALPHA1 = ("componentconfig/v1alpha1", "kubescheduler.config.k8s.io/v1alpha1")


def migrate_profile(profile: CommentedMap, where: str, version: str, notes: Notes) -> None:
    plugins = profile.get("plugins")
    if is_map(plugins):
        _points(plugins, where, version, notes)
    fold_resource_scoring(profile, where, version, notes)
    _removed_plugins(profile, where, notes)
    _args_versions(profile, where)
    if version in PRE_V1BETA3:
        _pin_old_weights(profile, where, version, notes)
    if is_map(profile.get("plugins")):
        drop_empty(profile["plugins"], *list(profile["plugins"].keys()))
        drop_empty(profile, "plugins")


def _points(plugins: CommentedMap, where: str, version: str, notes: Notes) -> None:
    if version in V1ALPHA1:
        for old, new in POINT_RENAMES_V1ALPHA1.items():
            if old in plugins and new not in plugins:
                rename_key(plugins, old, new)
                notes.change(where, f"plugins.{old} is plugins.{new} (renamed in v1alpha2)")
    for old, new in FOLDED_POINTS.items():
        if old not in plugins:
            continue
        moved = []
        target = child_map(plugins, new)
        present = {e["name"] for _, e in named(target.get("enabled"))}
        for _, entry in named((plugins[old] or {}).get("enabled") if is_map(plugins[old]) else None):
            if entry["name"] not in present:
                child_list(target, "enabled").append(entry)
                moved.append(entry["name"])
        del plugins[old]
        drop_empty(plugins, new)
        notes.change(where, f"plugins.{old} folded into plugins.{new} (v1beta1 made Unreserve part of every Reserve "
                            f"plugin)" + (f"; moved {', '.join(moved)}" if moved else ""))
    for point, why in DROPPED_POINTS.items():
        if point in plugins:
            del plugins[point]
            notes.change(where, f"plugins.{point} dropped: {why}")


def _removed_plugins(profile: CommentedMap, where: str, notes: Notes) -> None:
    plugins = profile.get("plugins")
    for point, pset in list(plugins.items()) if is_map(plugins) else []:
        if not is_map(pset):
            continue
        for which in ("enabled", "disabled"):
            for _, entry in list(named(pset.get(which))):
                if entry["name"] in REMOVED_PLUGINS:
                    pset[which].remove(entry)
                    _say(notes, where, f"plugins.{point}.{which}: {entry['name']}", which == "disabled")
            drop_empty(pset, which)
    for _, entry in list(named(profile.get("pluginConfig"))):
        if entry["name"] in REMOVED_PLUGINS:
            profile["pluginConfig"].remove(entry)
            _say(notes, where, f"pluginConfig {entry['name']}", False)
    drop_empty(profile, "pluginConfig")


def _say(notes: Notes, where: str, what: str, harmless: bool) -> None:
    name = what.rsplit(" ", 1)[-1]
    kept, why = REMOVED_PLUGINS[name]
    if kept or harmless:
        notes.change(where, f"{what} dropped: {why}")
    else:
        notes.error(where, f"{what} dropped: {why}")


def _args_versions(profile: CommentedMap, where: str) -> None:
    for _, entry in named(profile.get("pluginConfig")):
        args = entry.get("args")
        kind = args.get("kind") if is_map(args) else None
        if isinstance(kind, str) and kind in V1_ARGS_KINDS and "apiVersion" in args:  # a list kind is no args kind
            args["apiVersion"] = V1


def _pin_old_weights(profile: CommentedMap, where: str, version: str, notes: Notes) -> None:
    """Score plugins of the old default set keep the weight they had (v1beta3 raised three defaults)."""
    plugins = profile.get("plugins") if is_map(profile.get("plugins")) else None
    score = plugins.get("score") if plugins is not None and is_map(plugins.get("score")) else None
    disabled = {e["name"] for _, e in named(score.get("disabled"))} if score is not None else set()
    enabled = {e["name"] for _, e in named(score.get("enabled"))} if score is not None else set()
    if "*" in disabled:
        return
    weights = OLD_DEFAULT_WEIGHTS[version]
    pinned = [n for n in weights if n not in disabled and n not in enabled]
    if not pinned:
        return
    target = child_list(child_map(profile_map(profile, "plugins"), "score", position=0), "enabled")
    for name in pinned:
        entry = CommentedMap()
        entry["name"] = name
        entry["weight"] = weights[name]
        entry.yaml_add_eol_comment(f"the {version.rsplit('/', 1)[-1]} default; v1's is {V1_DEFAULT_WEIGHTS[name]}",
                                   "weight")
        target.append(entry)
    old = ", ".join(f"{n} {weights[n]}" for n in pinned)
    new = ", ".join(f"{n} {V1_DEFAULT_WEIGHTS[n]}" for n in pinned)
    notes.change(where, f"plugins.score.enabled: kept the default weights {version} scored with ({old}); v1's "
                        f"defaults are {new}: delete these entries to take them")
