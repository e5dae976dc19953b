"""The whole kube-scheduler pipeline for one document: decode, default, validate, build, lint.

``analyze(document)`` runs every stage the real scheduler runs, in its order, and keeps going
after a stage fails where the data still allows it (after a fatal decode error it cannot), so a
user sees later problems too. The effective model is produced only when the scheduler would
start (no decode/validate/init error), whatever binpack-guard's own findings say.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from linter.formats.kubesched import codes as c
from linter.formats.kubesched.builds import VANILLA, Build
from linter.formats.kubesched.defaults import Profile, build_globals, build_profiles
from linter.formats.kubesched.extender_build import (
    build_extenders,
    extenders_filter_or_score,
    ignored_by_extenders,
    with_extender_ignored,
)
from linter.formats.kubesched.framework import Built, build, score_plugins
from linter.formats.kubesched.issues import Issue
from linter.formats.kubesched.lint import lint_profile
from linter.formats.kubesched.nonfinite import json_marshal_issues
from linter.formats.kubesched.stages import decode_stage, validate_stage
from linter.formats.kubesched.validate import validate_config
from linter.formats.kubesched.versions import type_meta_issues
from linter.jsondocument import value_texts
from linter.model import BalancedArgs, FitArgs, KubeSchedulerModel, PreemptionArgs
from linter.model import Profile as ModelProfile
from linter.source import Document, Pointer


@dataclass
class Analysis:
    issues: list[Issue] = field(default_factory=list)
    model: KubeSchedulerModel | None = None
    decoded: dict[str, Any] | None = None
    profiles: list[Profile] = field(default_factory=list)
    built: list[Built] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return self.decoded is not None and not any(i.stage != "lint" for i in self.issues)


def analyze(doc: Document, binary: Build = VANILLA) -> Analysis:
    result = Analysis()
    unconvertible = json_marshal_issues(doc.data)  # YAML-to-JSON conversion comes before everything else
    if unconvertible:
        result.issues = unconvertible
        return result
    meta = type_meta_issues(doc, binary.args_kinds, binary.label)
    if meta:
        result.issues = meta
        return result
    decoded, typed, issues = decode_stage(doc, doc.data, binary)
    result.issues += issues
    if decoded is None:
        return result
    result.decoded = decoded
    profiles = build_profiles(decoded, typed, binary)
    _keep_json_args_text(doc, profiles)
    result.profiles = profiles
    globals_ = build_globals(decoded)
    result.issues += validate_stage(validate_config(
        decoded, globals_, profiles, binding_conditions=binary.binding_conditions))
    profiles, extender_issue = build_extenders(decoded, profiles)
    init_issues: list[Issue] = [extender_issue] if extender_issue is not None else []
    for profile in profiles:
        built = build(profile, binary)
        result.built.append(built)
        if built.error is not None:
            init_issues += _init_issues(built, profile)
    if init_issues and extender_issue is None:  # the extenders' error stops the scheduler before any profile
        init_issues[0] = replace(init_issues[0], message=_first_init_message(result.built))
    result.issues += init_issues
    result.issues = _drop_echoes(result.issues)
    ignored = tuple(name for name, _ in ignored_by_extenders(decoded))
    for profile, built in zip(profiles, result.built, strict=True):
        result.issues += lint_profile(profile, built, binary, fit_entry_needed=bool(ignored))
    if result.accepted:
        result.model = _model(profiles, result.built, typed, binary, ignored, globals_.percentage or 0,
                              extenders_filter_or_score(decoded))
    return result


def _keep_json_args_text(doc: Document, profiles: list[Profile]) -> None:
    configs = [cfg for p in profiles for cfg in p.configs if cfg.pointer is not None]
    texts = value_texts(doc, [(*cfg.pointer, "args") for cfg in configs if cfg.pointer is not None])
    for cfg in configs:
        if cfg.pointer is not None and texts.get((*cfg.pointer, "args"), "null") != "null":
            cfg.raw_text = texts[(*cfg.pointer, "args")]


_STAGES = ("decode", "validate", "init")


def _drop_echoes(issues: list[Issue]) -> list[Issue]:
    """Leave out later-stage issues that only echo an earlier one: same place, or inside a mapping
    that has an unknown field (a misspelt key makes its mapping look incomplete). Linear in the number of
    issues (times the pointer depth): a config with thousands of findings must not take quadratic time."""
    unknown_parents = {i.pointer[:-1] for i in issues if i.code == c.UNKNOWN_FIELD}
    earliest: dict[Pointer, int] = {}  # pointer -> earliest stage among the kept issues there
    kept: list[Issue] = []
    for issue in issues:
        stage = _STAGES.index(issue.stage)
        if issue.stage != "decode" and (
            earliest.get(issue.pointer, stage) < stage
            or any(issue.pointer[:n] in unknown_parents for n in range(len(issue.pointer) + 1))
        ):
            continue
        kept.append(issue)
        earliest[issue.pointer] = min(stage, earliest.get(issue.pointer, stage))
    return kept


def _first_init_message(built: list[Built]) -> str:
    first = next(b.error for b in built if b.error is not None)
    assert first is not None
    return first.message


def _init_issues(built: Built, profile: Profile) -> list[Issue]:
    error = built.error
    assert error is not None
    if error.code != c.FIT_ARGS or len(error.field_errors) < 2:
        return [Issue(error.code, "init", error.message, error.pointers[0] if error.pointers else error.pointer,
                      hint=error.hint)]
    marker = 'initializing plugin "NodeResourcesFit": '
    head = error.message.split(marker)[0] + marker
    return [Issue(error.code, "init", head + fe.render(), ptr)
            for fe, ptr in zip(error.field_errors, error.pointers, strict=True)]


def _model(profiles: list[Profile], built: list[Built], typed: dict[Pointer, Any], binary: Build,
           extender_ignored: tuple[str, ...], global_percentage: int, extenders_busy: bool) -> KubeSchedulerModel:
    out: list[ModelProfile] = []
    for profile, b in zip(profiles, built, strict=True):
        weights = score_plugins(b)

        def user_args(name: str, profile: Profile = profile) -> dict[str, Any] | None:
            cfg = next((x for x in profile.configs if x.name == name and x.pointer is not None), None)
            return typed.get(cfg.pointer) if cfg is not None and cfg.pointer is not None else None

        # a plugin built for another extension point (Fit's Filter, Balanced's PreScore) keeps its args
        fit = (FitArgs.from_args(with_extender_ignored(user_args("NodeResourcesFit"), extender_ignored))
               if "NodeResourcesFit" in b.needed else None)
        balanced = (BalancedArgs.from_args(user_args("NodeResourcesBalancedAllocation"))
                    if "NodeResourcesBalancedAllocation" in b.needed else None)
        fit_scores, balanced_scores = "NodeResourcesFit" in weights, "NodeResourcesBalancedAllocation" in weights
        out.append(ModelProfile(
            scheduler_name=profile.shown_name,
            fit=fit if fit_scores else None,
            balanced=balanced if balanced_scores else None,
            unscored_fit=None if fit_scores else fit,
            unscored_balanced=None if balanced_scores else balanced,
            score_plugin_weights=weights,
            fit_filter_enabled="NodeResourcesFit" in b.points.get("filter", []),
            filter_plugins=tuple(b.points.get("filter", [])),
            pre_filter_plugins=tuple(b.points.get("preFilter", [])),
            post_filter_plugins=tuple(b.points.get("postFilter", [])),
            preemption=PreemptionArgs.from_args(user_args("DefaultPreemption")),
            out_of_tree_score_plugins=tuple(n for n in weights if binary.is_out_of_tree(n)),
            # a profile's own value wins even when it is 0 (adaptive), as the framework's pointer does
            percentage_of_nodes_to_score=global_percentage if profile.percentage is None else profile.percentage,
            extenders_filter_or_score=extenders_busy,
            added_preferred_terms=_added_preferred_terms(user_args("NodeAffinity")),
            **_unmodelled_args(user_args("PodTopologySpread"), user_args("InterPodAffinity")),
        ))
    return KubeSchedulerModel(profiles=tuple(out))


def _added_preferred_terms(args: dict[str, Any] | None) -> tuple[dict[str, Any], ...]:
    """NodeAffinityArgs ``addedAffinity.preferredDuringSchedulingIgnoredDuringExecution``, as written."""
    added = args.get("addedAffinity") if isinstance(args, dict) else None
    terms = added.get("preferredDuringSchedulingIgnoredDuringExecution") if isinstance(added, dict) else None
    return tuple(t for t in terms if isinstance(t, dict)) if isinstance(terms, list) else ()


def _unmodelled_args(spread: dict[str, Any] | None, interpod: dict[str, Any] | None) -> dict[str, Any]:
    """The PodTopologySpread and InterPodAffinity args that decide when those plugins act on a pod (the
    effective model's ``spread_*``/``interpod_*`` fields; absent args get the v1 defaults)."""
    spread = spread if isinstance(spread, dict) else {}
    interpod = interpod if isinstance(interpod, dict) else {}
    system = spread.get("defaultingType") in (None, "", "System")
    listed = spread.get("defaultConstraints")
    listed = listed if isinstance(listed, list) else []
    # System: the plugin's systemDefaultConstraints (zone maxSkew 5, hostname maxSkew 3, both ScheduleAnyway)
    actions = ("ScheduleAnyway", "ScheduleAnyway") if system else tuple(
        str(c.get("whenUnsatisfiable")) for c in listed if isinstance(c, dict))
    weight = interpod.get("hardPodAffinityWeight", 1)
    return {
        "spread_default_actions": actions,
        "spread_system_defaulted": system,
        "spread_listed_constraints": () if system else tuple(c for c in listed if isinstance(c, dict)),
        "interpod_hard_affinity_weight": weight if isinstance(weight, int) else 1,
        "interpod_ignore_existing_preferred": interpod.get("ignorePreferredTermsOfExistingPods") is True,
    }
