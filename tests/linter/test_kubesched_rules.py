"""Table tests for the kube-scheduler rules: every rule's documented examples, and snippets with
the exact (code, line, column) each finding must land on."""

from __future__ import annotations

import textwrap

import pytest

from linter.engine import lint_text
from linter.findings import Severity
from linter.rules.kubesched import RULES
from linter.settings import LintSettings

H = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
MP = "profiles:\n- plugins:\n    multiPoint:\n      enabled:\n"


def _section(doc: str, title: str) -> str:
    lines = doc.splitlines()
    start = lines.index(title) + 1
    body = []
    for line in lines[start:]:
        if line and not line.startswith(" "):
            break
        body.append(line)
    return textwrap.dedent("\n".join(body)).strip("\n") + "\n"


@pytest.mark.parametrize("rule", RULES, ids=[r.CODE for r in RULES])
def test_documented_examples(rule: object) -> None:
    doc = rule.__doc__ or ""
    for heading in ("What it does:", "Why it matters:", "Example (fails):", "Use instead (passes):"):
        assert heading in doc
    failing = _section(doc, "Example (fails):")
    # an example written for a custom build says so in its first line
    settings = LintSettings(scheduler="scheduler-plugins") if "--scheduler scheduler-plugins" in failing else None
    bad = lint_text(failing, "bad.yaml", settings)
    assert rule.CODE in {f.rule for f in bad}, bad  # type: ignore[attr-defined]
    good = lint_text(_section(doc, "Use instead (passes):"), "good.yaml", settings)
    assert rule.CODE not in {f.rule for f in good}, good  # type: ignore[attr-defined]
    assert not [f for f in good if f.severity is Severity.ERROR], good


CASES = [
    # (snippet after the header, expected [(code, line, column)])
    ("parallelism: 5.5\n", [("BPL016", 3, 14)]),
    ("parallelism: 5.0\n", []),
    ("parallelism: 3000000000\n", [("BPL016", 3, 14)]),
    ("leaderElection:\n  leaseDuration: 15\n", [("BPL016", 4, 18)]),
    ("leaderElection:\n  leaseDuration: 15x\n", [("BPL016", 4, 18)]),
    ("leaderElection:\n  leaderElect: OFF\n  leaseDuration: 1s\n", []),
    ("leaderElection:\n  leaseDuration: 1s\n", [("BPL101", 4, 18)]),
    ("leaderElection:\n  resourceLock: endpoints\n", [("BPL101", 4, 17)]),
    ("profiles:\n- plugins:\n    score:\n      enabld: []\n", [("BPL015", 6, 7)]),
    ("profiles:\n- plugins:\n    score:\n      enabled:\n      - name: NodeResourcesFit\n        weight: 0\n",
     [("BPL204", 8, 17)]),
    ("profiles:\n- plugins:\n    score:\n      enabled:\n      - name: TaintToleration\n", [("BPL204", 7, 9)]),
    # a default plugin re-listed under multiPoint without a weight replaces its default entry (mergePluginSet),
    # so getScoreWeights reads 0 and uses 1; the same after disabling the defaults and listing it again
    (MP + "      - name: TaintToleration\n", [("BPL204", 7, 9)]),
    (MP + "      - name: PrioritySort\n      - name: DefaultBinder\n      - name: NodeAffinity\n"
     "      disabled:\n      - name: '*'\n", [("BPL204", 9, 9)]),
    # ... but not when that loses nothing: default weight 1, a weight given, a plugins.score entry (whose weight
    # wins; without one it is reported there), or a plugin disabled at Score
    (MP + "      - name: ImageLocality\n      - name: NodeResourcesFit\n", []),
    (MP + "      - name: TaintToleration\n        weight: 3\n", []),
    (MP + "      - name: TaintToleration\n    score:\n      enabled:\n      - name: TaintToleration\n"
     "        weight: 5\n", []),
    (MP + "      - name: TaintToleration\n    score:\n      enabled:\n      - name: TaintToleration\n",
     [("BPL204", 10, 9)]),
    (MP + "      - name: TaintToleration\n    score:\n      disabled:\n      - name: TaintToleration\n", []),
    (MP + "      - name: TaintToleration\n    score:\n      disabled:\n      - name: '*'\n", []),
    # a duplicate: the framework refuses it, and the weight it would read is the kept (later) entry's
    (MP + "      - name: TaintToleration\n      - name: TaintToleration\n        weight: 3\n", [("BPL152", 7, 9)]),
    # multiPoint weight 0: a Score plugin gets 1; a plugin without Score has its weight ignored (getScoreWeights
    # skips it), as in the config kube-scheduler itself writes out, where every such plugin carries weight 0
    ("profiles:\n- plugins:\n    multiPoint:\n      enabled:\n      - name: ImageLocality\n        weight: 0\n",
     [("BPL204", 8, 17)]),
    ("profiles:\n- plugins:\n    multiPoint:\n      enabled:\n      - name: PrioritySort\n        weight: 0\n"
     "      - name: DefaultBinder\n        weight: 0\n", []),
    # ... unless a plugins.score entry of the same plugin gives the weight: getScoreWeights reads it first,
    # so the multiPoint weight (0 or negative) is never used
    (MP + "      - name: ImageLocality\n        weight: 0\n    score:\n      enabled:\n      - name: ImageLocality\n"
     "        weight: 5\n", []),
    (MP + "      - name: ImageLocality\n        weight: -2\n    score:\n      enabled:\n      - name: ImageLocality\n"
     "        weight: 2\n", []),
    (MP + "      - name: ImageLocality\n        weight: -2\n    score:\n      disabled:\n      - name: '*'\n", []),
    # a plugin the build lacks: the scheduler stops at "does not exist" and never reads the weight
    ("profiles:\n- plugins:\n    multiPoint:\n      enabled:\n      - name: EBSLimits\n        weight: 0\n",
     [("BPL151", 7, 9)]),
    ("profiles:\n- plugins:\n    score:\n      enabled:\n      - name: ImageLocality\n        weight: -2\n",
     [("BPL154", 7, 9), ("BPL200", 8, 17)]),
    ("profiles:\n- plugins:\n    multiPoint:\n      disabled:\n      - name: NodeResourcesFit\n  pluginConfig:\n"
     "  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: MostAllocated\n"
     "        resources:\n        - name: cpu\n          weight: -4\n",
     [("BPL205", 9, 11), ("BPL200", 15, 19)]),
    ("profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
     "        type: MostAllocated\n        resources:\n        - name: cpu\n        - name: cpu\n",
     [("BPL203", 11, 17)]),
    ("profiles:\n- pluginConfig:\n  - name: ImageLocality\n    args: {}\n", [("BPL201", 5, 11)]),
    ("profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n    args:\n      defaultingType: List\n"
     "      defaultConstraints:\n      - maxSkew: 0\n        topologyKey: zone\n        whenUnsatisfiable: Never\n",
     [("BPL108", 9, 18), ("BPL108", 11, 28)]),
    ("profiles:\n- pluginConfig:\n  - name: VolumeBinding\n    args:\n      bindTimeoutSeconds: -1\n",
     [("BPL108", 7, 27)]),
    ("profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n    args:\n      minCandidateNodesPercentage: 0\n"
     "      minCandidateNodesAbsolute: 0\n", [("BPL108", 7, 36), ("BPL108", 8, 34)]),
    ("profiles:\n- schedulerName: a\n  plugins:\n    queueSort:\n      enabled: [{name: PrioritySort}]\n"
     "- schedulerName: b\n", [("BPL103", 8, 3)]),
    ("profiles:\n- plugins:\n    score:\n      enabled: [{name: NodePorts}]\n", [("BPL152", 6, 17)]),
    ("profiles:\n- plugins:\n    multiPoint:\n      enabled: [{name: Foo}]\n", [("BPL151", 6, 17)]),
    ("profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: [1]\n", [("BPL017", 6, 11)]),
    ("profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
     "        resources:\n        - name: cpu\n          weight: '2'\n", [("BPL016", 10, 19)]),
    ("extenders:\n- urlPrefix: http://a\n  bindVerb: b\n- urlPrefix: http://b\n  bindVerb: b\n",
     [("BPL109", 4, 1)]),
    ("extenders:\n- urlPrefix: http://a\n  managedResources:\n  - name: cpu\n", [("BPL109", 6, 11)]),
    ("clientConnection:\n  burst: -1\n", [("BPL100", 4, 10)]),
    ("profiles:\n- schedulerName: ''\n", [("BPL102", 4, 18)]),
    ("profiles:\n- pluginConfig:\n  - name: NodeResourcesFitArgs\n    args: {}\n", [("BPL106", 6, 11)]),
]


@pytest.mark.parametrize(("snippet", "expected"), CASES, ids=[str(i) for i in range(len(CASES))])
def test_findings_land_on_their_line(snippet: str, expected: list[tuple[str, int, int]]) -> None:
    findings = lint_text(H + snippet, "config.yaml")
    assert sorted((f.rule, f.line, f.column) for f in findings) == sorted(expected), findings


def test_removed_version_message_names_release_and_scheduler_text() -> None:
    text = "apiVersion: kubescheduler.config.k8s.io/v1beta2\nkind: KubeSchedulerConfiguration\n"
    findings = lint_text(text, "a.yaml")
    (f,) = findings
    assert f.rule == "BPL011"
    assert f.detail.startswith('no kind "KubeSchedulerConfiguration" is registered for version '
                               '"kubescheduler.config.k8s.io/v1beta2" in scheme')
    assert "removed in Kubernetes 1.28" in f.message and "binpack-lint migrate" in f.message


def test_migration_hint_spells_the_v1_equivalent() -> None:
    text = ("apiVersion: kubescheduler.config.k8s.io/v1beta1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
            "- pluginConfig:\n  - name: RequestedToCapacityRatio\n    args:\n      shape:\n"
            "      - {utilization: 0, score: 10}\n      resources:\n      - {name: intel.com/foo, weight: 3}\n")
    hints = [f for f in lint_text(text, "a.yaml") if f.rule == "BPL013"]
    assert len(hints) == 1
    assert "NodeResourcesFit" in hints[0].message and len(hints[0].message) <= 200
    assert '"type":"RequestedToCapacityRatio"' in hints[0].detail
    assert '"shape":[{"utilization":0,"score":10}]' in hints[0].detail


def test_multiple_fit_errors_first_finding_carries_the_whole_scheduler_output() -> None:
    text = H + ("profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
                "        type: Most\n        resources:\n        - {name: cpu, weight: 200}\n")
    findings = [f for f in lint_text(text, "a.yaml") if f.rule == "BPL150"]
    assert [(f.line) for f in findings] == [8, 10]
    head = ('initializing profiles: creating profile for scheduler name default-scheduler: '
            'initializing plugin "NodeResourcesFit": ')
    # the readable message names profile and plugin; the detail is the scheduler's whole output
    assert findings[0].detail.startswith(head + "[scoringStrategy.type: Unsupported value: \"Most\"")
    assert findings[1].message.startswith("profile default-scheduler, plugin NodeResourcesFit: ")
    assert findings[1].detail == head + ("scoringStrategy.resources[0].weight: Invalid value: 200: "
                                          "resource weight of cpu not in valid range (0, 100]")


def test_a_rejected_volume_binding_shape_prints_the_internal_struct_field_names() -> None:
    # field.Invalid gets config.VolumeBindingArgs.Shape: []config.UtilizationShapePoint, which has no json tags
    text = H + ("profiles:\n- pluginConfig:\n  - name: VolumeBinding\n    args:\n      shape:\n"
                "      - {utilization: 0, score: 0}\n      - {utilization: 100, score: 10}\n")
    (f,) = [f for f in lint_text(text, "a.yaml") if f.rule == "BPL108"]
    assert f.detail == ('profiles[0].pluginConfig[0].args.shape: Invalid value: [{"Utilization":0,"Score":0},'
                        '{"Utilization":100,"Score":10}]: unexpected field `shape`, remove it or turn on the feature '
                        'gate StorageCapacityScoring')


@pytest.mark.parametrize(("snippet", "rule", "rendered"), [
    # named string types go through json.Marshal in field.ErrorBody (HTML characters escaped); plain strings use %q
    ("  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: \"Most<&>\"\n", "BPL150",
     'scoringStrategy.type: Unsupported value: "Most\\u003c\\u0026\\u003e": supported values: '),
    ("  - name: PodTopologySpread\n    args:\n      defaultingType: \"<L>\"\n", "BPL108",
     'args.defaultingType: Unsupported value: "\\u003cL\\u003e": supported values: "System", "List"'),
    ("  - name: PodTopologySpread\n    args:\n      defaultingType: List\n      defaultConstraints:\n"
     "      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: \"Never&\"}\n", "BPL108",
     'whenUnsatisfiable: Unsupported value: "Never\\u0026": supported values: "DoNotSchedule", "ScheduleAnyway"'),
])
def test_named_string_values_are_printed_as_go_json(snippet: str, rule: str, rendered: str) -> None:
    text = H + "profiles:\n- schedulerName: a\n  pluginConfig:\n" + snippet
    (f,) = [f for f in lint_text(text, "a.yaml") if f.rule == rule]
    assert rendered in (f.detail or f.message)


def test_a_negative_weight_on_a_plugin_that_does_not_score_is_ignored_by_the_framework() -> None:
    # getScoreWeights skips plugins that do not implement ScorePlugin, so the weight is never read
    text = H + "profiles:\n- plugins:\n    multiPoint:\n      enabled:\n      - {name: DefaultBinder, weight: -5}\n"
    assert [f for f in lint_text(text, "a.yaml") if f.rule == "BPL200"] == []
    scoring = text.replace("DefaultBinder", "ImageLocality")
    assert [f.rule for f in lint_text(scoring, "a.yaml") if f.rule == "BPL200"] == ["BPL200"]


@pytest.mark.parametrize("scheduler", ["kube-scheduler", "scheduler-plugins"])
def test_a_weightless_multi_point_entry_names_the_default_weight_it_loses(scheduler: str) -> None:
    # scheduler-plugins runs kube-scheduler's own defaulting, so the same default weights are lost
    text = H + MP + "      - name: NodeAffinity\n"
    findings = [f for f in lint_text(text, "a.yaml", LintSettings(scheduler=scheduler)) if f.rule == "BPL204"]
    assert [(f.line, f.column, f.message) for f in findings] == [
        (7, 9, "plugins.multiPoint.enabled: NodeAffinity has no weight, so the framework uses 1 instead of its "
               "default multiPoint weight 2")]


def test_an_extender_resource_name_that_is_not_a_qualified_name_is_printed_as_go_json() -> None:
    # validateExtendedResourceName gives field.Invalid a v1.ResourceName, which ErrorBody prints with json.Marshal
    text = H + ("extenders:\n- urlPrefix: http://a\n  managedResources:\n  - name: \"example.com/a&b\"\n"
                "  - name: \"a&b\"\n")
    details = [f.detail or f.message for f in lint_text(text, "a.yaml") if f.rule == "BPL109"]
    assert details[0].startswith('[extenders[0].managedResources[0].name: Invalid value: "example.com/a\\u0026b": '
                                 "name part must consist of")
    assert details[1].startswith('extenders[0].managedResources[1].name: Invalid value: "a\\u0026b": name part')
