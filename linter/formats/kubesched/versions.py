"""apiVersion/kind checks (the first thing the scheduler's decoder does) and migration hints.

Removed scheduler config versions get the scheduler's own decode error plus the release that
removed them; their content is then read for things that have a different v1 spelling
(the pre-v1beta2 resource-scoring plugins became ``NodeResourcesFit.scoringStrategy``).
"""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from linter.formats.kubesched import codes as c
from linter.formats.kubesched.decode import ARGS_KINDS, find_kind_error, type_meta_keys
from linter.formats.kubesched.issues import SCHEME, Issue
from linter.formats.kubesched.registry import DROPPED_PLUGINS, GROUP, LEGACY_SCORE_PLUGINS, REMOVED_VERSIONS, V1
from linter.gofmt import go_json, go_quote
from linter.gozero import as_list
from linter.source import Document

KIND = "KubeSchedulerConfiguration"


def type_meta_issues(doc: Document, args_kinds: Set[str] = ARGS_KINDS,
                     binary: str = "kube-scheduler 1.36") -> list[Issue]:
    """Problems with apiVersion/kind; an empty list means the document decodes as v1. ``binary`` names the
    scheduler build in messages."""
    data = doc.data
    meta_error = find_kind_error(data)
    if meta_error is not None:
        text, key = meta_error
        return [Issue(c.TYPE_META, "decode", text, () if key is None else (key,))]
    keys = type_meta_keys(data)  # `Kind:` counts here; the strict decode then reports it as an unknown field
    version_key, kind_key = keys.get("apiVersion", "apiVersion"), keys.get("kind", "kind")
    api_version, kind = data.get(version_key) or "", data.get(kind_key) or ""
    group, version = "", ""
    if api_version.count("/") == 1:
        group, version = api_version.split("/")
    elif "/" not in api_version:
        version = api_version
    else:  # schema.ParseGroupVersion refuses more than one slash, before any kind check
        return [Issue(c.TYPE_META, "decode", f"unexpected GroupVersion string: {api_version}", (version_key,))]
    if not kind:
        return [Issue(c.TYPE_META, "decode", "Object 'Kind' is missing in this document", (kind_key,),
                      detail=f"Object 'Kind' is missing in '{doc.text}'")]
    if not version:
        return [Issue(c.TYPE_META, "decode", "Object 'apiVersion' is missing in this document", (version_key,),
                      detail=f"Object 'apiVersion' is missing in '{doc.text}'")]
    gv = f"{group}/{version}" if group else version
    if gv == V1 and kind == KIND:
        return []
    if gv == V1 and kind in args_kinds:
        text = f"couldn't decode as KubeSchedulerConfiguration, got {V1}, Kind={kind}: "
        return [Issue(c.UNKNOWN_VERSION, "decode", text, (kind_key,))]
    text = f"no kind {go_quote(kind)} is registered for version {go_quote(gv)} {SCHEME}"
    if gv in REMOVED_VERSIONS and kind == KIND:
        served, removed = REMOVED_VERSIONS[gv]
        summary = (f"{gv} was removed in Kubernetes {removed} (served in {served}): {binary} reads only "
                   f"{V1}; 'binpack-lint migrate' rewrites the file")
        return [Issue(c.REMOVED_VERSION, "decode", summary, (version_key,), detail=text), *migration_hints(data)]
    pointer = (kind_key,) if gv == V1 else (version_key,)
    return [Issue(c.UNKNOWN_VERSION, "decode", text, pointer)]


def _fit_equivalent(strategy: str, args: Any) -> str:
    args = args if isinstance(args, dict) else {}
    out: dict[str, Any] = {"type": strategy}
    if args.get("resources"):
        out["resources"] = args["resources"]
    if strategy == "RequestedToCapacityRatio":
        out["requestedToCapacityRatio"] = {"shape": args.get("shape") or []}
    return f"pluginConfig: [{{name: NodeResourcesFit, args: {{scoringStrategy: {go_json(out, sort=False)}}}}}]"


def migration_hints(data: dict[str, Any]) -> list[Issue]:
    """What the v1 spelling of a removed-version file's scoring setup is (companion warnings)."""
    hints: list[Issue] = []
    profiles = data.get("profiles")
    if isinstance(profiles, dict):
        hints.append(Issue(c.MIGRATION, "lint", "profiles must be a list (\"- schedulerName: ...\"), not a mapping",
                           ("profiles",)))
        profiles = [profiles]
    for i, profile in enumerate(profiles if isinstance(profiles, list) else []):
        if not isinstance(profile, dict):
            continue
        base = ("profiles", i) if isinstance(data.get("profiles"), list) else ("profiles",)
        for j, entry in enumerate(as_list(profile.get("pluginConfig"))):
            name = entry.get("name") if isinstance(entry, dict) else None
            if not isinstance(name, str):
                continue
            if name in LEGACY_SCORE_PLUGINS:
                text = (f"{name} is not a plugin in {V1} (folded into NodeResourcesFit in v1beta2); "
                        "the v1 equivalent is in the detail")
                detail = f"v1 equivalent: {_fit_equivalent(LEGACY_SCORE_PLUGINS[name], entry.get('args'))}"
                if name == "RequestedToCapacityRatio":
                    detail += "\nin v1 resource weights must be in 1..100 and shape points are checked at start-up"
                hints.append(Issue(c.MIGRATION, "lint", text, (*base, "pluginConfig", j, "name"), detail=detail))
            elif name in DROPPED_PLUGINS:
                hints.append(Issue(c.MIGRATION, "lint", f"plugin {name} does not exist in {V1}; drop it",
                                   (*base, "pluginConfig", j, "name")))
        plugins = profile.get("plugins")
        for point, pset in (plugins.items() if isinstance(plugins, dict) else []):
            for k, ref in enumerate(as_list(pset.get("enabled")) if isinstance(pset, dict) else []):
                name = ref.get("name") if isinstance(ref, dict) else None
                if not isinstance(name, str):
                    continue
                if name in LEGACY_SCORE_PLUGINS:
                    weight = ref.get("weight")
                    text = (f"{name} is not a plugin in {V1}: NodeResourcesFit (enabled by default) scores with "
                            f"scoringStrategy.type {LEGACY_SCORE_PLUGINS[name]}")
                    if weight is not None:
                        text += ("; keep the weight with plugins.score.enabled: "
                                 f"[{{name: NodeResourcesFit, weight: {weight}}}]")
                    hints.append(Issue(c.MIGRATION, "lint", text, (*base, "plugins", point, "enabled", k, "name")))
                elif name in DROPPED_PLUGINS:
                    hints.append(Issue(c.MIGRATION, "lint", f"plugin {name} does not exist in {V1}; drop it",
                                       (*base, "plugins", point, "enabled", k, "name")))
    return hints


GROUP_PREFIXES = (f"{GROUP}/", "componentconfig/")
