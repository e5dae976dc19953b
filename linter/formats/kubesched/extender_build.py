"""kube-scheduler's ``buildExtenders``: resources an extender marks ``ignoredByScheduler``.

``scheduler.New`` runs it after validation and before any profile's plugins are built. When some
extender's ``managedResources`` entry has ``ignoredByScheduler: true``, the names of all such entries
(extenders in order, then entries in order) *replace* NodeResourcesFit's ``ignoredResources`` in
every profile: the user's list is dropped, not merged. NodeResourcesFit then validates, filters with
and writes out that list. A profile with no NodeResourcesFit pluginConfig entry (written, or added
by defaulting because the plugin is enabled) stops the scheduler with ``couldn't build extenders:
can't find NodeResourcesFitArgs in plugin config``; no profile is built after that. Before that, each
extender's HTTP client is made (``extender_transport.py``): a ``tlsConfig`` client-go refuses stops it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from linter.formats.kubesched import codes as c
from linter.formats.kubesched.defaults import Profile
from linter.formats.kubesched.extender_transport import transport_issue
from linter.formats.kubesched.issues import Issue
from linter.gozero import as_list, as_map, as_str
from linter.source import Pointer

FIT = "NodeResourcesFit"
MISSING_FIT_ARGS = "couldn't build extenders: can't find NodeResourcesFitArgs in plugin config"


def ignored_by_extenders(decoded: dict[str, Any]) -> tuple[tuple[str, Pointer], ...]:
    """Each ``ignoredByScheduler: true`` resource's name and the pointer of that flag, in Go's order."""
    out: list[tuple[str, Pointer]] = []
    for i, extender in enumerate(as_list(decoded.get("extenders"))):
        for j, resource in enumerate(as_list(as_map(extender).get("managedResources"))):
            entry = as_map(resource)
            if entry.get("ignoredByScheduler") is True:
                out.append((as_str(entry.get("name")), ("extenders", i, "managedResources", j, "ignoredByScheduler")))
    return tuple(out)


def extenders_filter_or_score(decoded: dict[str, Any]) -> bool:
    """Some extender has a filterVerb or a prioritizeVerb (then kube-scheduler looks for more than one
    feasible node even in a profile with no score plugin)."""
    return any(as_str(as_map(e).get("filterVerb")) or as_str(as_map(e).get("prioritizeVerb"))
               for e in as_list(decoded.get("extenders")))


def with_extender_ignored(args: dict[str, Any] | None, ignored: tuple[str, ...]) -> dict[str, Any] | None:
    """NodeResourcesFit args as the framework receives them: ``ignoredResources`` replaced when extenders set it."""
    if not ignored:
        return args
    return {**(args or {}), "ignoredResources": list(ignored)}


def build_extenders(decoded: dict[str, Any], profiles: list[Profile]) -> tuple[list[Profile], Issue | None]:
    """The profiles with NodeResourcesFit's args as ``buildExtenders`` leaves them, and its error if any.

    Unlike Go, every profile that has the args gets them replaced, so later checks see the same
    args the scheduler would have built had the failing profile been fixed.
    """
    transport = transport_issue(decoded)
    if transport is not None:  # NewHTTPExtender fails inside the loop, before the resources are applied
        return profiles, transport
    flags = ignored_by_extenders(decoded)
    if not flags:
        return profiles, None
    names = tuple(name for name, _ in flags)
    out: list[Profile] = []
    issue: Issue | None = None
    for profile in profiles:
        entry = next((cfg for cfg in profile.configs if cfg.name == FIT), None)
        if entry is None:
            if issue is None:
                issue = Issue(c.EXTENDER_FIT_ARGS, "init", MISSING_FIT_ARGS, profile.pointer,
                              hint=_hint(profile, flags[0][1]))
            out.append(profile)
            continue
        configs = [replace(cfg, args=with_extender_ignored(cfg.args, names)) if cfg is entry else cfg
                   for cfg in profile.configs]
        out.append(replace(profile, configs=configs))
    return out, issue


def _hint(profile: Profile, flag: Pointer) -> str:
    where = f"profile {profile.shown_name}" if profile.name is not None else f"profiles[{profile.index}]"
    return (f" ({where}: add a NodeResourcesFit pluginConfig entry, `args: {{}}` will do; extenders[{flag[1]}] sets "
            f"ignoredByScheduler)")
