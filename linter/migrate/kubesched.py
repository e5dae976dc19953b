"""Rewrite a KubeSchedulerConfiguration of a removed apiVersion as ``kubescheduler.config.k8s.io/v1``.

Top-level fields v1 keeps elsewhere are moved (v1alpha1's ``schedulerName``, ``plugins`` and
``pluginConfig`` into the profile; ``hardPodAffinitySymmetricWeight``, ``bindTimeoutSeconds``
and ``disablePreemption`` into the InterPodAffinity, VolumeBinding and DefaultPreemption
plugins of every profile); fields v1 dropped are removed with the reason; ``profiles`` written
as a mapping becomes a list; each profile goes through :mod:`linter.migrate.profiles`.
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from linter.migrate.facts import DROPPED_TOP_LEVEL, LEADER_ELECTION_RENAMES, OLD_VERSIONS, PRE_V1BETA3, V1
from linter.migrate.notes import Notes
from linter.migrate.profiles import migrate_profile
from linter.migrate.tree import child_list, child_map, is_list, is_map, named, profile_list, profile_map, rename_key

# old top-level field -> (plugin, args field) it moved to
MOVED_TO_ARGS = {
    "hardPodAffinitySymmetricWeight": ("InterPodAffinity", "hardPodAffinityWeight"),
    "bindTimeoutSeconds": ("VolumeBinding", "bindTimeoutSeconds"),
}


def is_old_config(data: Any) -> bool:
    """A config to rewrite: a removed apiVersion, or v1 with ``profiles`` written as a mapping."""
    if not is_map(data) or data.get("kind") != "KubeSchedulerConfiguration":
        return False
    version = data.get("apiVersion")
    if not isinstance(version, str):  # `apiVersion: [..]` names no version (and a list is no dict key)
        return False
    return version in OLD_VERSIONS or (version == V1 and is_map(data.get("profiles")))


def migrate_config(config: CommentedMap, notes: Notes) -> None:
    version = str(config["apiVersion"])
    if version != V1:
        config["apiVersion"] = V1
        notes.change("", f"apiVersion {version} -> {V1} ({OLD_VERSIONS[version]} is not served by kube-scheduler "
                         "1.36)")
    profiles = _profiles(config, notes)
    _into_first_profile(config, profiles, notes)
    source = config.get("algorithmSource")
    for key, why in DROPPED_TOP_LEVEL.items():
        if key in config and not (key == "algorithmSource" and is_map(source) and "policy" in source):
            notes.change("", f"{key} dropped: {why}")
        config.pop(key, None)
    _leader_election(config, notes)
    if not profiles and version in PRE_V1BETA3:  # the default profile gets the weights this file ran with
        _ensure_profile(config, profiles)["schedulerName"] = "default-scheduler"
    for i, profile in enumerate(profiles):
        if is_map(profile):
            migrate_profile(profile, f"profiles[{i}]", version, notes)
    # after the profiles: these write v1 names (postFilter, NodeResourcesFit) that must not be renamed again
    _into_args(config, profiles, notes)
    _algorithm_source(source, config, profiles, notes)


def _profiles(config: CommentedMap, notes: Notes) -> list[Any]:
    raw = config.get("profiles")
    if is_map(raw):
        config["profiles"] = CommentedSeq([raw])
        notes.change("profiles", "was a mapping; now a list of one profile")
        return list(config["profiles"])
    return list(raw) if is_list(raw) else []


def _ensure_profile(config: CommentedMap, profiles: list[Any]) -> CommentedMap:
    if profiles and is_map(profiles[0]):
        return profiles[0]  # type: ignore[no-any-return]
    profile = CommentedMap()
    child_list(config, "profiles").insert(0, profile)
    profiles.insert(0, profile)
    return profile


def _into_first_profile(config: CommentedMap, profiles: list[Any], notes: Notes) -> None:
    for key in ("schedulerName", "plugins", "pluginConfig"):
        if key not in config:
            continue
        value = config.pop(key)
        comment = config.ca.items.pop(key, None)  # the comment written after the key goes with it
        profile = _ensure_profile(config, profiles)
        if key in profile:
            notes.error("", f"{key} is set both at the top level and in profiles[0]; kept the profile's")
            continue
        position = 0 if key == "schedulerName" else len(profile)
        profile.insert(position, key, value)
        if comment is not None:
            profile.ca.items[key] = comment
        notes.change("", f"{key} moved into profiles[0] (v1 keeps it per profile)")


def _into_args(config: CommentedMap, profiles: list[Any], notes: Notes) -> None:
    for key, (plugin, field) in MOVED_TO_ARGS.items():
        if key not in config:
            continue
        value = config.pop(key)
        if not profiles:
            _ensure_profile(config, profiles)
        for profile in profiles:
            if is_map(profile):
                args = _plugin_args(profile, plugin)
                args.setdefault(field, value)
        notes.change("", f"{key} moved to pluginConfig {plugin} args {field} in every profile")
    if "disablePreemption" in config:
        value = config.pop("disablePreemption")
        if value is True:
            if not profiles:
                _ensure_profile(config, profiles)
            for profile in profiles:
                if is_map(profile):
                    postfilter = child_map(profile_map(profile, "plugins"), "postFilter", position=0)
                    disabled = child_list(postfilter, "disabled")
                    if not any(e["name"] == "DefaultPreemption" for _, e in named(disabled)):
                        entry = CommentedMap()
                        entry["name"] = "DefaultPreemption"
                        disabled.append(entry)
            notes.change("", "disablePreemption: true is now DefaultPreemption disabled at postFilter in every profile")
        else:
            notes.change("", "disablePreemption dropped (false is v1's behaviour: DefaultPreemption enabled)")


def _plugin_args(profile: CommentedMap, plugin: str) -> CommentedMap:
    pconfig = profile_list(profile, "pluginConfig")
    for _, entry in named(pconfig):
        if entry["name"] == plugin:
            return child_map(entry, "args")
    entry = CommentedMap()
    entry["name"] = plugin
    entry["args"] = CommentedMap()
    pconfig.append(entry)
    return entry["args"]  # type: ignore[no-any-return]


def _algorithm_source(source: Any, config: CommentedMap, profiles: list[Any], notes: Notes) -> None:
    if not is_map(source):
        return
    if is_map(source.get("policy")):
        notes.error("algorithmSource", "points to a legacy Policy, which no release since 1.23 reads: migrate that "
                                       "file with `binpack-lint migrate POLICY` and use its profile here")
    if source.get("provider") == "ClusterAutoscalerProvider":
        if not profiles:
            _ensure_profile(config, profiles)
        for profile in profiles:
            if is_map(profile):
                args = _plugin_args(profile, "NodeResourcesFit")
                strategy = CommentedMap()
                strategy["type"] = "MostAllocated"
                args.setdefault("scoringStrategy", strategy)
        notes.change("algorithmSource", "ClusterAutoscalerProvider scored with MostRequested: NodeResourcesFit "
                                        "scoringStrategy MostAllocated")


def _leader_election(config: CommentedMap, notes: Notes) -> None:
    election = config.get("leaderElection")
    if not is_map(election):
        return
    for old, new in LEADER_ELECTION_RENAMES.items():
        if old in election:
            rename_key(election, old, new)
            notes.change("leaderElection", f"{old} renamed {new}")
    lock = election.get("resourceLock")
    if isinstance(lock, str) and lock != "leases":
        election["resourceLock"] = "leases"
        notes.change("leaderElection", f"resourceLock {lock} -> leases (the only lock v1 accepts; {lock} "
                                       "locks were migrated to leases by 1.24)")
