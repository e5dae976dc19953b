"""``binpack-lint migrate`` on every removed-version config and legacy Policy of the wild corpus and the seeds.

Each one is migrated, then linted as kube-scheduler 1.36 would read it: no error except BPL151 for
the out-of-tree plugins of scheduler-plugins builds (a vanilla scheduler does not have them), and
the effective scoring model of the result equals what the original meant:

* v1beta2/v1beta3 files are already v1-shaped: the oracle is the linter's own model of the
  original with only its apiVersion set to v1, except for the three default weights v1beta3
  raised, which a pre-v1beta3 file keeps at 1;
* Policies with a RequestedToCapacityRatio priority: the oracle is the legacy engine's model;
* the other files: the expectation read off the file by hand (comments say why).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
import yaml

from linter.engine import load_scheduler_model
from linter.formats.kubesched.builds import resolve
from linter.formats.kubesched.registry import PLUGINS
from linter.formats.policy.handler import legacy_model
from linter.migrate import check, migrate_text
from linter.model import KubeSchedulerModel, Profile, ResourceWeight, ShapePoint
from linter.settings import LintSettings
from tests.paths import SHARED

WILD = SHARED / "wild"
DATA = Path(__file__).resolve().parents[1] / "data" / "migrate"
OLD = re.compile(r"kubescheduler\.config\.k8s\.io/v1(alpha|beta)\d|\"?kind\"?\s*:\s*\"?Policy")
PRE_V1BETA3_WEIGHTS = {"TaintToleration": 1, "NodeAffinity": 1, "InterPodAffinity": 1}
# Files whose migration must say it cannot keep everything (plugins with no v1 successor).
LOSSY = {"k8s-perf-serviceaffinity-v1beta1.yaml", "k8s-perf-config-template-v1beta1.yaml",
         "w-serviceaffinity-policy.json"}


def _corpus() -> list[Path]:
    index = json.loads((WILD / "index.json").read_text())
    files = [WILD / "files" / e["file"] for e in index
             if "kube-scheduler" in e["format"] or e["format"] == "legacy-policy"]
    chosen = [p for p in files if OLD.search(p.read_text())]
    return chosen + sorted(p for p in DATA.iterdir() if p.suffix in (".yaml", ".json"))


CORPUS = _corpus()


def test_the_corpus_has_every_removed_version_and_the_policies() -> None:
    text = "".join(p.read_text() for p in CORPUS)
    for version in ("v1alpha1", "v1alpha2", "v1beta1", "v1beta2", "v1beta3"):
        assert f"kubescheduler.config.k8s.io/{version}" in text
    assert sum('"Policy"' in p.read_text() or "Policy" in p.read_text() for p in CORPUS) >= 8


def _migrated_model(path: Path) -> tuple[KubeSchedulerModel, str]:
    migration = migrate_text(path.read_text())
    assert migration.changed
    text = migration.configs[0][1]  # a ConfigMap's config is unwrapped by the linter
    model, findings = load_scheduler_model(text, path.name)
    assert model is not None, [f.message for f in findings]
    assert isinstance(model, KubeSchedulerModel)
    return model, text


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_migrated_file_is_accepted(path: Path) -> None:
    migration = migrate_text(path.read_text())
    assert migration.changed
    errors = [f for f in check(migration, path.name) if f.severity.value == "error"]
    for finding in errors:  # only plugins a vanilla kube-scheduler does not register
        assert finding.rule == "BPL151", finding.message
        name = re.search(r'"([^"]+)" does not exist', finding.message)
        assert name is not None and name.group(1) not in PLUGINS, finding.message
    assert bool(migration.errors) == (path.name in LOSSY), [n.render() for n in migration.errors]
    again = migrate_text(migration.text)  # migrating the result changes nothing
    assert not again.changed and again.text == migration.text


@pytest.mark.parametrize("path", [p for p in CORPUS if p.name.startswith("sp-")], ids=lambda p: p.name)
def test_scheduler_plugins_configs_keep_their_plugins(path: Path) -> None:
    # declared as a scheduler-plugins build, no plugin that build registers is called missing
    build = resolve("scheduler-plugins")
    migration = migrate_text(path.read_text())
    findings = check(migration, path.name, LintSettings(scheduler="scheduler-plugins"))
    for finding in findings:
        if finding.rule == "BPL151":
            name = re.search(r'"([^"]+)" does not exist', finding.message)
            assert name is not None and name.group(1) not in build.plugins, finding.message


def _profile(model: KubeSchedulerModel) -> Profile:
    assert len(model.profiles) == 1
    return model.profiles[0]


def _as_v1(text: str) -> str:
    return re.sub(r"config\.k8s\.io/v1beta[23]", "config.k8s.io/v1", text)


# v1beta2/v1beta3 files a vanilla 1.36 accepts once only the apiVersion is changed (the others name
# scheduler-plugins plugins; test_v1beta3_content_is_kept_as_written covers what the migration does to them)
V1_SHAPED = [p for p in CORPUS if re.search(r"config\.k8s\.io/v1beta[23]\n", p.read_text())
             and "RequestedToCapacityRatio\n" not in p.read_text() and "kind: ConfigMap" not in p.read_text()
             and "NodeResourcesLeastAllocated" not in p.read_text()
             and load_scheduler_model(_as_v1(p.read_text()), p.name)[0] is not None]


def test_some_files_are_v1_shaped() -> None:
    assert len(V1_SHAPED) >= 3


@pytest.mark.parametrize("path", V1_SHAPED, ids=lambda p: p.name)
def test_v1_shaped_files_score_as_before(path: Path) -> None:
    text = path.read_text()
    oracle, _ = load_scheduler_model(_as_v1(text), path.name)
    migrated, _ = _migrated_model(path)
    assert isinstance(oracle, KubeSchedulerModel)
    for before, after in zip(oracle.profiles, migrated.profiles, strict=True):
        assert after.fit == before.fit and after.balanced == before.balanced
        expected = dict(before.score_plugin_weights)
        if "v1beta2" in text:
            expected.update({k: v for k, v in PRE_V1BETA3_WEIGHTS.items() if k in expected})
        assert dict(after.score_plugin_weights) == expected


V1BETA3 = [p for p in CORPUS if "config.k8s.io/v1beta3\n" in p.read_text() and "kind: ConfigMap" not in p.read_text()
           and "RequestedToCapacityRatio\n" not in p.read_text()]


@pytest.mark.parametrize("path", V1BETA3, ids=lambda p: p.name)
def test_v1beta3_content_is_kept_as_written(path: Path) -> None:
    # v1beta3 is v1's shape: only the apiVersion changes, and names that never existed since v1beta2 go
    before = yaml.safe_load(path.read_text())
    after = yaml.safe_load(migrate_text(path.read_text()).text)
    before["apiVersion"] = "kubescheduler.config.k8s.io/v1"
    for profile in before.get("profiles") or []:
        score = (profile.get("plugins") or {}).get("score") or {}
        score["disabled"] = [e for e in score.get("disabled") or [] if e["name"] != "NodeResourcesLeastAllocated"]
        if not score["disabled"]:
            del score["disabled"]
    assert after == before


def test_rtcr_policy_scores_as_the_legacy_engine_says() -> None:
    path = DATA / "seed-alibaba-policy.json"
    legacy = legacy_model(json.loads(path.read_text())).rtcr
    assert legacy is not None
    profile = _profile(_migrated_model(path)[0])
    assert profile.fit is not None and profile.fit.strategy == "RequestedToCapacityRatio"
    assert profile.fit.shape == legacy.shape  # 0..10 in both; 1.22 and 1.36 both multiply by 10
    assert profile.fit.resources == legacy.resources
    assert profile.fit_weight == legacy.weight == 5
    assert profile.balanced is None  # 1.22 built only the priorities the Policy listed


@pytest.mark.parametrize("name", ["seed-ja-rtcr-v1beta1.yaml", "seed-ko-rtcr-v1beta3.yaml"])
def test_docs_rtcr_examples_become_the_reference_equivalent(name: str) -> None:
    # reference/config.md §3.1: NodeResourcesFit, RequestedToCapacityRatio, the same shape and resources
    model, _ = _migrated_model(DATA / name)
    profile = _profile(model)
    assert profile.fit is not None and profile.fit.strategy == "RequestedToCapacityRatio"
    assert profile.fit.shape == (ShapePoint(0, 10), ShapePoint(100, 0))
    assert profile.fit.resources == (ResourceWeight("intel.com/foo", 3), ResourceWeight("intel.com/bar", 5))
    assert profile.fit_weight == 1
    weights = dict(profile.score_plugin_weights)
    if "v1beta1" in name:
        assert {k: weights[k] for k in PRE_V1BETA3_WEIGHTS} == PRE_V1BETA3_WEIGHTS
    else:
        assert weights["TaintToleration"] == 3


# Policy -> 1.22 profile, read off each file: priority -> plugin with the priority's weight
# (ServiceSpreading/SelectorSpread -> PodTopologySpread; EqualPriority and NodePreferAvoidPods drop
# out); no priorities -> 1.22's default set; LeastRequested is NodeResourcesFit LeastAllocated.
POLICY_WEIGHTS = {
    "k8s-examples-scheduler-policy-config.json": {
        "NodeResourcesFit": 1, "NodeResourcesBalancedAllocation": 1, "PodTopologySpread": 1},
    "k8s-perf-scheduler-config.json": {
        "NodeResourcesFit": 1, "NodeResourcesBalancedAllocation": 1, "PodTopologySpread": 1},
    "w-serviceaffinity-policy.json": {
        "NodeResourcesFit": 1, "NodeResourcesBalancedAllocation": 1, "PodTopologySpread": 1},
    "w-extenders-policy.json": {
        "NodeResourcesFit": 1, "NodeResourcesBalancedAllocation": 1, "PodTopologySpread": 10, "InterPodAffinity": 1,
        "NodeAffinity": 1, "TaintToleration": 1, "ImageLocality": 1},
    "k8s-examples-policy-with-extender.json": {
        "NodeResourcesFit": 1, "NodeResourcesBalancedAllocation": 1, "PodTopologySpread": 2, "InterPodAffinity": 1,
        "NodeAffinity": 1, "TaintToleration": 1, "ImageLocality": 1},
}


@pytest.mark.parametrize("name", sorted(POLICY_WEIGHTS))
def test_policy_priorities_keep_their_weights(name: str) -> None:
    profile = _profile(_migrated_model(WILD / "files" / name)[0])
    # scorers a 1.22 Policy could not name (DRA; VolumeBinding's score is behind a gate) stay as v1 has them
    weights = {k: v for k, v in profile.score_plugin_weights.items() if k not in ("DynamicResources", "VolumeBinding")}
    assert weights == POLICY_WEIGHTS[name]
    assert profile.fit is not None and profile.fit.strategy == "LeastAllocated"
    assert profile.fit.resources == (ResourceWeight("cpu", 1), ResourceWeight("memory", 1))


def test_policy_predicates_become_the_filters() -> None:
    # predicates PodFitsPorts, PodFitsResources, NoDiskConflict, MatchNodeSelector, HostName (+ the mandatory two)
    profile = _profile(_migrated_model(WILD / "files" / "k8s-examples-scheduler-policy-config.json")[0])
    legacy_filters = {"NodePorts", "NodeResourcesFit", "VolumeRestrictions", "NodeAffinity", "NodeName",
                      "TaintToleration", "NodeUnschedulable"}
    modelled = {"NodeVolumeLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread", "InterPodAffinity"}
    assert legacy_filters <= set(profile.filter_plugins)
    assert not modelled & set(profile.filter_plugins)


def test_hard_pod_affinity_weight_and_extenders_move_over() -> None:
    migration = migrate_text((WILD / "files" / "w-extenders-policy.json").read_text())
    data = json.loads(migration.text)
    assert {"name": "InterPodAffinity", "args": {"hardPodAffinityWeight": 10}} in data["profiles"][0]["pluginConfig"]
    assert len(data["extenders"]) == 5 and all("enableHTTPS" in e for e in data["extenders"])


def test_extender_keys_the_policy_decoder_refused_are_dropped() -> None:
    # 1.22 decoded a Policy strictly (and case-sensitively) and so does v1: carrying these keys over
    # would make kube-scheduler 1.36 refuse the migrated file
    policy = {"kind": "Policy", "apiVersion": "v1", "extenders": [
        {"urlPrefix": "http://a", "apiVersion": "v1beta1", "filterVerb": "filter", "BindVerb": "bind",
         "managedResources": [{"name": "example.com/foo", "ignoredByScheduler": True, "extra": 1}]}]}
    migration = migrate_text(json.dumps(policy))
    assert (json.loads(migration.text)["extenders"]
            == [{"urlPrefix": "http://a", "filterVerb": "filter",
                 "managedResources": [{"name": "example.com/foo", "ignoredByScheduler": True}]}])
    assert not [f for f in check(migration, "policy.json") if f.severity.value == "error"]
    notes = "\n".join(n.render() for n in migration.notes)
    assert "extenders[0]: BindVerb dropped: not a Policy key (1.22's strict decoder refused it)" in notes
    assert "extenders[0]: managedResources[0].extra dropped" in notes


def test_v1beta1_least_allocated_args_and_old_weights() -> None:
    # NodeResourcesLeastAllocated with cpu:1, memory:1 was the default scorer; its weight-1 defaults stay
    profile = _profile(_migrated_model(WILD / "files" / "k8s-perf-config-template-v1beta1.yaml")[0])
    assert profile.fit is not None and profile.fit.strategy == "LeastAllocated"
    assert profile.fit_weight == 1
    assert {k: profile.score_plugin_weights[k] for k in PRE_V1BETA3_WEIGHTS} == PRE_V1BETA3_WEIGHTS


def test_v1alpha1_top_level_fields_land_in_the_profile() -> None:
    model, text = _migrated_model(WILD / "files" / "w-kind-v1alpha1.yaml")
    assert _profile(model).scheduler_name == "default-scheduler"
    assert "hardPodAffinityWeight: 1" in text and "bindTimeoutSeconds: 600" in text
    assert "\n  lockObjectName" not in text and "\n  resourceName: kube-scheduler" in text
    assert "resourceLock: leases" in text


def test_weights_above_100_are_divided_exactly() -> None:
    model, _ = _migrated_model(DATA / "commented-v1beta1.yaml")
    profile = _profile(model)
    assert profile.fit is not None and profile.fit.strategy == "MostAllocated"
    assert profile.fit.resources == (ResourceWeight("cpu", 1), ResourceWeight("nvidia.com/gpu", 4),
                                     ResourceWeight("memory", 2))
    assert profile.fit_weight == 5


def test_shared_folder_is_there() -> None:
    assert os.path.isdir(WILD / "files"), f"{WILD} missing: set BINPACK_GUARD_SHARED"


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_damaged_files_never_crash(path: Path) -> None:
    # every prefix cut at a line end, and a few type confusions: a result or MigrateError, nothing else
    from linter.migrate import MigrateError

    text = path.read_text()
    variants = [text[:i] for i in range(0, len(text), max(1, len(text) // 8))]
    variants += [text.replace("weight: ", "weight: x"), text.replace("- name:", "- nam:"),
                 text.replace("profiles:", "profiles: 3\nx:"), text.replace('"weight"', '"weight": null, "w"')]
    for variant in variants:
        try:
            migration = migrate_text(variant)
        except MigrateError as exc:
            assert "\n" not in str(exc)
            continue
        check(migration, path.name)


def test_v1alpha1_points_preemption_and_policy_source() -> None:
    text = ("apiVersion: kubescheduler.config.k8s.io/v1alpha1\nkind: KubeSchedulerConfiguration\nschedulerName: my\n"
            "algorithmSource: {policy: {file: {path: /etc/policy.json}}}\ndisablePreemption: true\n"
            "plugins:\n  postFilter:\n    enabled:\n    - name: Foo\n  unreserve:\n    enabled:\n    - name: Foo\n")
    migration = migrate_text(text)
    profile = yaml.safe_load(migration.text)["profiles"][0]
    assert profile["schedulerName"] == "my"
    assert profile["plugins"]["postFilter"] == {"disabled": [{"name": "DefaultPreemption"}]}
    assert profile["plugins"]["preScore"] == {"enabled": [{"name": "Foo"}]}  # v1alpha1's postFilter
    assert profile["plugins"]["reserve"] == {"enabled": [{"name": "Foo"}]}
    assert [n.where for n in migration.errors] == ["algorithmSource"]
    assert "algorithmSource" not in yaml.safe_load(migration.text)


def test_two_resource_strategies_cannot_both_stay() -> None:
    text = ('{"kind": "Policy", "apiVersion": "v1", "priorities": [{"name": "LeastRequestedPriority", "weight": 1},'
            ' {"name": "MostRequestedPriority", "weight": 4}]}')
    migration = migrate_text(text)
    assert ["kept MostRequestedPriority (weight 4)" in n.message for n in migration.errors] == [True]
    profile = _profile(load_scheduler_model(migration.text, "p.json")[0])  # type: ignore[arg-type]
    assert profile.fit is not None and profile.fit.strategy == "MostAllocated" and profile.fit_weight == 4


def test_least_allocated_default_beside_another_strategy_is_said() -> None:
    text = ("apiVersion: kubescheduler.config.k8s.io/v1beta1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
            "- plugins:\n    score:\n      enabled:\n      - name: NodeResourcesMostAllocated\n        weight: 3\n")
    migration = migrate_text(text)
    assert any("scored beside NodeResourcesMostAllocated" in n.message for n in migration.notes)
    profile = _profile(load_scheduler_model(migration.text, "x.yaml")[0])  # type: ignore[arg-type]
    assert profile.fit is not None and profile.fit.strategy == "MostAllocated" and profile.fit_weight == 3


def test_two_enabled_resource_scorers_of_a_config_cannot_both_stay() -> None:
    # v1beta1 scored with every enabled resource plugin and added the scores up; v1 has one strategy
    text = ("apiVersion: kubescheduler.config.k8s.io/v1beta1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
            "- plugins:\n    score:\n      enabled:\n      - name: NodeResourcesMostAllocated\n"
            "      - name: NodeResourcesLeastAllocated\n        weight: 2\n")
    migration = migrate_text(text)
    assert [n.render() for n in migration.errors] == [
        "profiles[0]: plugins.score.enabled: NodeResourcesLeastAllocated dropped: it scored beside "
        "NodeResourcesMostAllocated, and v1 scores resources with one strategy (MostAllocated)"]
    profile = _profile(load_scheduler_model(migration.text, "x.yaml")[0])  # type: ignore[arg-type]
    assert profile.fit is not None and profile.fit.strategy == "MostAllocated" and profile.fit_weight == 1


def test_args_of_a_disabled_resource_scorer_do_not_turn_it_back_on() -> None:
    # the profile disabled LeastAllocated and enabled no other resource scorer: v1beta1 scored no resources
    text = ("apiVersion: kubescheduler.config.k8s.io/v1beta1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
            "- plugins:\n    score:\n      disabled:\n      - name: NodeResourcesLeastAllocated\n"
            "  pluginConfig:\n  - name: NodeResourcesLeastAllocated\n    args:\n      resources:\n"
            "      - name: cpu\n        weight: 2\n")
    migration = migrate_text(text)
    assert not migration.errors
    assert any("NodeResourcesFit is disabled at score" in n.message for n in migration.notes)
    profile = _profile(load_scheduler_model(migration.text, "x.yaml")[0])  # type: ignore[arg-type]
    assert profile.fit is None and "NodeResourcesFit" not in profile.score_plugin_weights


def test_disabling_least_allocated_after_v1beta1_did_nothing_and_still_does_nothing() -> None:
    migration = migrate_text((WILD / "files" / "sp-doc-tlp-1.yaml").read_text())
    assert any("disabling it did nothing (NodeResourcesFit kept scoring" in n.message for n in migration.notes)
    assert "NodeResourcesLeastAllocated" not in migration.text.split("\napiVersion")[1]


def test_a_built_in_name_keeps_its_plugin_and_its_argument_is_dropped() -> None:
    # 1.22's legacy registry reused a registered predicate/priority name and ignored the argument
    rtcr = {"requestedToCapacityRatioArguments": {"shape": [{"utilization": 0, "score": 0},
                                                            {"utilization": 100, "score": 10}]}}
    policy = {"kind": "Policy", "apiVersion": "v1",
              "predicates": [{"name": "PodFitsResources", "argument": {"labelsPresence": {"labels": ["x"]}}}],
              "priorities": [{"name": "LeastRequestedPriority", "weight": 3, "argument": rtcr}]}
    migration = migrate_text(json.dumps(policy))
    profile = _profile(load_scheduler_model(migration.text, "scheduler-config.json")[0])
    assert profile.fit is not None and profile.fit.strategy == "LeastAllocated" and profile.fit_weight == 3
    assert "NodeResourcesFit" in profile.filter_plugins
    notes = "\n".join(n.render() for n in migration.notes)
    assert "priorities[0]: argument dropped: LeastRequestedPriority is a built-in priority" in notes
    assert "predicates[0]: argument dropped: PodFitsResources is a built-in predicate" in notes
    assert not [n for n in migration.notes if "NodeLabel" in n.render()]
