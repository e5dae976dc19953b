"""Custom scheduler builds: the scheduler-plugins facts this linter relies on, as table tests.

Each expected text below was read off kubernetes-sigs/scheduler-plugins at master 903da7df
(``apis/config/v1/defaults.go``, ``apis/config/validation``, each plugin's ``New()``, its
``scheme_test.go``/``validation_plugingargs_test.go`` cases) and kube-scheduler's framework
(``initializing plugin "<name>": <error>``; ``setDefaults_KubeSchedulerProfile`` adds defaulted args for
every enabled plugin whose kind the shared v1 scheme builder knows, which scheduler-plugins' kinds join).
"""

from __future__ import annotations

from typing import Any

import pytest

from linter.engine import lint_text
from linter.findings import Finding, Severity
from linter.formats.kubesched.builds import SCHEDULER_PLUGINS, resolve
from linter.formats.kubesched.builds.suggest import osa_distance, suggest
from linter.formats.kubesched.defaults import build_profiles
from linter.formats.kubesched.outoftree_args.construct import construct
from linter.formats.kubesched.outoftree_args.defaults import default_args
from linter.settings import LintSettings

SP = LintSettings(scheduler="scheduler-plugins")
H = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
PREFIX = "initializing profiles: creating profile for scheduler name default-scheduler: "


def _errors(text: str, settings: LintSettings | None = None) -> list[Finding]:
    return [f for f in lint_text(H + text, "c.yaml", settings) if f.severity is Severity.ERROR]


# --- did you mean -------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "build", "expected"), [
    ("NodeResourcesFitt", "kube-scheduler", "NodeResourcesFit"),
    ("Coschedulign", "scheduler-plugins", "Coscheduling"),
    ("coscheduling", "scheduler-plugins", "Coscheduling"),
    ("BalancedAllocation", "kube-scheduler", "NodeResourcesBalancedAllocation"),
    ("Coschedulign", "kube-scheduler", None),  # plain kube-scheduler does not know Coscheduling
    ("MyCustomPluginA", "scheduler-plugins", None),
    ("NodeNumber", "scheduler-plugins", None),
    ("CrossNodePreemption", "scheduler-plugins", None),  # commented out of the binary's registry
])
def test_suggestion(name: str, build: str, expected: str | None) -> None:
    assert suggest(name, resolve(build).plugins) == expected


def test_osa_distance_counts_a_swap_as_one_edit() -> None:
    assert osa_distance("coschedulign", "coscheduling") == 1
    assert osa_distance("abc", "abc") == 0
    assert osa_distance("kitten", "sitting") == 3


def test_unknown_plugin_keeps_the_scheduler_text_and_adds_the_suggestion() -> None:
    errors = _errors("profiles:\n- plugins:\n    score:\n      enabled:\n      - name: NodeResourcesFitt\n")
    assert [(f.rule, f.line, f.column) for f in errors] == [("BPL151", 7, 9)]
    assert errors[0].message == (PREFIX + 'ScorePlugin "NodeResourcesFitt" does not exist'
                                 ' (did you mean "NodeResourcesFit"?)')
    assert errors[0].detail == PREFIX + 'ScorePlugin "NodeResourcesFitt" does not exist'  # the scheduler's text


def test_typo_of_an_out_of_tree_plugin_on_the_scheduler_plugins_build() -> None:
    errors = _errors("profiles:\n- plugins:\n    queueSort:\n      enabled:\n      - name: Coschedulign\n"
                     "      disabled:\n      - name: '*'\n", SP)
    assert [f.rule for f in errors] == ["BPL151"]
    assert errors[0].message == PREFIX + 'QueueSortPlugin "Coschedulign" does not exist (did you mean "Coscheduling"?)'
    assert errors[0].detail == PREFIX + 'QueueSortPlugin "Coschedulign" does not exist'


def test_plain_kube_scheduler_names_the_build_that_has_the_plugin() -> None:
    errors = _errors("profiles:\n- plugins:\n    score:\n      enabled:\n      - name: TargetLoadPacking\n")
    # too long for one readable line: the summary plus the hint, the scheduler's whole text in the detail
    assert errors[0].message == ('profile default-scheduler: ScorePlugin "TargetLoadPacking" does not exist '
                                 "(TargetLoadPacking is a kubernetes-sigs/scheduler-plugins plugin: lint with "
                                 "--scheduler scheduler-plugins)")
    assert errors[0].detail == PREFIX + 'ScorePlugin "TargetLoadPacking" does not exist'


def test_no_suggestion_for_an_unrelated_name() -> None:
    errors = _errors("profiles:\n- plugins:\n    score:\n      enabled:\n      - name: MyCustomPluginA\n", SP)
    assert errors[0].message == PREFIX + 'ScorePlugin "MyCustomPluginA" does not exist'
    assert errors[0].detail == ""


# --- strict decoding of out-of-tree args (the in-tree decoder, the in-tree wording) ---------

def test_unknown_field_in_coscheduling_args_is_a_strict_decoding_error() -> None:
    # scheme_test.go: "coscheduling plugin args illegal to get validation error"
    findings = _errors("profiles:\n- schedulerName: scheduler-plugins\n  pluginConfig:\n  - name: Coscheduling\n"
                       "    args:\n      kubeConfigPath: /var/run/kubernetes/kube.config\n", SP)
    assert [(f.rule, f.line) for f in findings] == [("BPL015", 8)]
    assert findings[0].message == (
        "strict decoding error: decoding .profiles[0].pluginConfig[0]: strict decoding error: decoding args for "
        'plugin Coscheduling: strict decoding error: unknown field "kubeConfigPath"')


@pytest.mark.parametrize(("args", "text"), [
    ("permitWaitingTimeSeconds: ten", "json: cannot unmarshal string into Go struct field "
     "CoschedulingArgs.permitWaitingTimeSeconds of type int64"),
    ("podGroupRejectPercentage: 3000000000", "json: cannot unmarshal number 3000000000 into Go struct field "
     "CoschedulingArgs.podGroupRejectPercentage of type int32"),
])
def test_wrong_types_in_out_of_tree_args(args: str, text: str) -> None:
    findings = _errors("profiles:\n- pluginConfig:\n  - name: Coscheduling\n    args:\n      " + args + "\n", SP)
    assert [f.rule for f in findings] == ["BPL016"]
    assert findings[0].message.endswith(f"decoding args for plugin Coscheduling: {text}")


@pytest.mark.parametrize(("plugin", "other", "field", "go_type", "settings"), [
    ("TopologicalSort", "Coscheduling", "permitWaitingTimeSeconds", "int64", SP),
    ("NodeResourcesFit", "DefaultPreemption", "minCandidateNodesAbsolute", "int32", None),
])
def test_args_of_another_kind_are_decoded_as_that_kind_first(plugin: str, other: str, field: str, go_type: str,
                                                             settings: LintSettings | None) -> None:
    # the serializer creates the kind the args name and unmarshals into it before the plugin's kind is compared
    args = f"    args:\n      kind: {other}Args\n      {field}: x\n"
    findings = _errors(f"profiles:\n- pluginConfig:\n  - name: {plugin}\n" + args, settings)
    assert [(f.rule, f.detail or f.message) for f in findings if f.rule != "BPL020"] == [(
        "BPL016", f"decoding .profiles[0].pluginConfig[0]: decoding args for plugin {plugin}: json: cannot unmarshal "
        f"string into Go struct field {other}Args.{field} of type {go_type}")]
    valid = _errors(f"profiles:\n- pluginConfig:\n  - name: {plugin}\n" + args.replace(": x", ": 1"), settings)
    assert [(f.rule, f.detail or f.message) for f in valid if f.rule != "BPL020"] == [(
        "BPL017", f"decoding .profiles[0].pluginConfig[0]: args for plugin {plugin} were not of type "
        f"{plugin}Args.kubescheduler.config.k8s.io, got {other}Args.kubescheduler.config.k8s.io")]


def test_out_of_tree_args_are_opaque_on_plain_kube_scheduler() -> None:
    text = "profiles:\n- pluginConfig:\n  - name: Coscheduling\n    args:\n      kubeConfigPath: x\n"
    assert not _errors(text)  # kube-scheduler keeps them as runtime.Unknown: no decode error


def test_trimaran_spec_fields_are_promoted_into_the_args() -> None:
    findings = _errors("profiles:\n- pluginConfig:\n  - name: TargetLoadPacking\n    args:\n"
                       "      metricProvider: {type: Prometheus, adress: x}\n", SP)
    assert [f.rule for f in findings] == ["BPL015"]
    assert findings[0].message.endswith('unknown field "metricProvider.adress"')


def test_peaks_keys_are_the_go_field_names() -> None:
    # its json tags are malformed, so encoding/json matches the Go field names, case-sensitively
    ok = "profiles:\n- pluginConfig:\n  - name: Peaks\n    args: {WatcherAddress: 'http://w:2020'}\n"
    assert not _errors(ok, SP)
    bad = _errors("profiles:\n- pluginConfig:\n  - name: Peaks\n    args: {watcherAddress: 'http://w:2020'}\n", SP)
    assert [f.rule for f in bad] == ["BPL015"]


def test_null_map_value_in_out_of_tree_args_is_the_zero_value() -> None:
    # encoding/json stores a map element's zero value for null: riskLimitWeights {cpu: 0} (in [0, 1], kept)
    text = ("profiles:\n- plugins:\n    score:\n      enabled:\n      - name: LowRiskOverCommitment\n"
            "  pluginConfig:\n  - name: LowRiskOverCommitment\n    args:\n      riskLimitWeights: {cpu: null}\n")
    assert _errors(text, SP) == []
    bad = _errors(text + "      metricProvider: {type: prometheus}\n", SP)
    assert [(f.rule, f.message) for f in bad] == [("BPL155", PREFIX + 'initializing plugin "LowRiskOverCommitment": '
                                                   "invalid MetricProvider.Type, got prometheus")]


@pytest.mark.parametrize(("quantity", "error"), [
    ("abc", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
    ("true", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
    ("2x", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
    ("'1e'", "unable to parse quantity's suffix"),
    ("Pi", "unable to parse numeric part of quantity"),
    ("1500m", None), ("2", None), ("'0.5'", None),
])
def test_default_requests_are_quantities(quantity: str, error: str | None) -> None:
    # TargetLoadPackingArgs.defaultRequests is a v1.ResourceList: resource.Quantity's UnmarshalJSON returns
    # ParseQuantity's error as it is, and it ends the decoding (the wrong type after it is never reached)
    text = ("profiles:\n- pluginConfig:\n  - name: TargetLoadPacking\n    args:\n"
            f"      defaultRequests: {{cpu: {quantity}}}\n      targetUtilization: x\n")
    findings = _errors(text, SP)
    if error is None:
        assert [f.message for f in findings] == ["decoding .profiles[0].pluginConfig[0]: decoding args for plugin "
                                                 "TargetLoadPacking: json: cannot unmarshal string into Go struct "
                                                 "field TargetLoadPackingArgs.targetUtilization of type int64"]
    else:
        head = "decoding .profiles[0].pluginConfig[0]: decoding args for plugin TargetLoadPacking: "
        assert [(f.rule, f.line, f.detail or f.message) for f in findings] == [("BPL016", 7, head + error)]


# --- defaults (SetDefaults_* then v1 -> internal) ----------------------------------------

@pytest.mark.parametrize(("name", "given", "expected"), [
    ("Coscheduling", {}, {"permitWaitingTimeSeconds": 60, "podGroupBackoffSeconds": 0, "podGroupRejectPercentage": 10}),
    ("TopologicalSort", {}, {"namespaces": ["default"]}),
    ("NetworkOverhead", {"namespaces": ["networkAware"]},
     {"namespaces": ["networkAware"], "weightsName": "UserDefined", "networkTopologyName": "nt-default"}),
    ("SySched", {}, {"defaultProfileNamespace": "default", "defaultProfileName": "all-syscalls"}),
    ("PreemptionToleration", {}, {"minCandidateNodesPercentage": 10, "minCandidateNodesAbsolute": 100}),
    ("NodeResourcesAllocatable", {}, {"resources": [{"name": "cpu", "weight": 1048576},
                                                    {"name": "memory", "weight": 1}], "mode": "Least"}),
])
def test_defaults(name: str, given: dict[str, Any], expected: dict[str, Any]) -> None:
    assert default_args(name, given) == expected


def test_topology_match_defaults() -> None:
    got = default_args("NodeResourceTopologyMatch", {"preemptionMode": "Disabled"})
    assert got["scoringStrategy"] == {"type": "LeastAllocated", "resources": [{"name": "cpu", "weight": 1},
                                                                              {"name": "memory", "weight": 1}]}
    assert got["cache"] == {"foreignPodsDetect": "All", "resyncMethod": "Autodetect", "informerMode": "Dedicated"}


def test_trimaran_defaults() -> None:
    tlp = default_args("TargetLoadPacking", {"targetUtilization": 0})
    assert tlp["metricProvider"]["type"] == "KubernetesMetricsServer"
    assert (tlp["targetUtilization"], tlp["defaultRequestsMultiplier"]) == (40, "1.5")
    assert default_args("TargetLoadPacking", {"metricProvider": {"type": "Prometheus"}})["metricProvider"] == {
        "type": "Prometheus", "insecureSkipVerify": True, "address": ""}
    lro = default_args("LowRiskOverCommitment", {"riskLimitWeights": {"cpu": 2.0, "memory": 0.3}})
    assert (lro["smoothingWindowSize"], lro["riskLimitWeights"]) == (5, {"cpu": 0.5, "memory": 0.3})
    lvrb = default_args("LoadVariationRiskBalancing", {"safeVarianceMargin": -1.0, "safeVarianceSensitivity": 0.0})
    assert (lvrb["safeVarianceMargin"], lvrb["safeVarianceSensitivity"]) == (1.0, 0.0)
    assert default_args("LoadVariationRiskBalancing", {"watcherAddress": "w"})["metricProvider"]["type"] == ""


# --- what New() rejects -----------------------------------------------------------------

def _built(name: str, given: dict[str, Any]) -> str | None:
    return construct(name, default_args(name, given))


@pytest.mark.parametrize(("name", "given", "expected"), [
    ("Coscheduling", {"permitWaitingTimeSeconds": -10}, "permitWaitingTimeSeconds: Invalid value: -10: must be "
     "greater than 0"),
    ("Coscheduling", {"podGroupBackoffSeconds": -20}, "podGroupBackoffSeconds: Invalid value: -20: must be "
     "greater than 0"),
    ("Coscheduling", {"podGroupRejectPercentage": 150}, "podGroupRejectPercentage: Invalid value: 150: must be "
     "between 0 and 100"),
    ("Coscheduling", {"permitWaitingTimeSeconds": 10}, None),
    ("NodeResourcesAllocatable", {"resources": [{"name": "cpu", "weight": 0}, {"name": "memory", "weight": -1}]},
     "[resources[0].weight: Invalid value: 0: resource weight of cpu should be a positive value, got :0, "
     "resources[1].weight: Invalid value: -1: resource weight of memory should be a positive value, got :-1]"),
    ("NodeResourcesAllocatable", {"mode": "not existent"}, 'mode: Invalid value: "not existent": invalid support '
     "ModeType"),
    ("NodeResourceTopologyMatch", {"scoringStrategy": {"type": "Foo"}},
     'scoringStrategy.type: Invalid value: "Foo": invalid ScoringStrategyType'),
    # `scoringStrategy: {}` is a non-nil pointer: SetDefaults keeps its empty type, the validation refuses it
    ("NodeResourceTopologyMatch", {"scoringStrategy": {}},
     'scoringStrategy.type: Invalid value: "": invalid ScoringStrategyType'),
    # named string types are printed by json.Marshal, which escapes <, > and &; a plain string by %q
    ("NodeResourceTopologyMatch", {"scoringStrategy": {"type": "<Least>"}},
     'scoringStrategy.type: Invalid value: "\\u003cLeast\\u003e": invalid ScoringStrategyType'),
    ("NodeResourcesAllocatable", {"mode": "Least&Most"},
     'mode: Invalid value: "Least\\u0026Most": invalid support ModeType'),
    ("NodeMetadata", {"metadataKey": "<k>", "metadataSource": "<Label>", "metadataType": "Number",
                      "scoringStrategy": "Highest"},
     'invalid NodeMetadataArgs: metadataSource: Invalid value: "\\u003cLabel\\u003e": metadataSource must be '
     'either "Label" or "Annotation"'),
    ("NodeResourceTopologyMatch", {"preemptionMode": "Maybe"}, 'preemptionMode: Invalid value: "Maybe": invalid '
     "PreemptionMode"),
    ("PreemptionToleration", {"minCandidateNodesPercentage": 101},
     "[].minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]"),
    ("NodeMetadata", {"metadataSource": "Label", "metadataType": "Number", "scoringStrategy": "Highest"},
     'invalid NodeMetadataArgs: metadataKey: Invalid value: "": metadataKey cannot be empty'),
    ("NodeMetadata", {"metadataKey": "k", "metadataSource": "Label", "metadataType": "Number",
                      "scoringStrategy": "Newest"},
     'invalid NodeMetadataArgs: scoringStrategy: Invalid value: "Newest": scoringStrategy "Newest" and "Oldest" are '
     'only valid for metadataType "Timestamp"'),
    ("NodeMetadata", {"metadataKey": "k", "metadataSource": "Annotation", "metadataType": "Timestamp",
                      "scoringStrategy": "Oldest"}, None),
    ("TargetLoadPacking", {"metricProvider": {"type": "Graphite"}}, "invalid MetricProvider.Type, got Graphite"),
    ("TargetLoadPacking", {"watcherAddress": "http://w:2020", "metricProvider": {"type": "Graphite"}}, None),
    ("TargetLoadPacking", {"defaultRequestsMultiplier": "1,5"},
     'unable to parse DefaultRequestsMultiplier: strconv.ParseFloat: parsing "1,5": invalid syntax'),
    ("TargetLoadPacking", {"defaultRequestsMultiplier": "1e400"},
     'unable to parse DefaultRequestsMultiplier: strconv.ParseFloat: parsing "1e400": value out of range'),
    ("TargetLoadPacking", {"defaultRequestsMultiplier": "1.8"}, None),
    # Go's float literal syntax: underscores between digits, "1.e5"; an unsigned nan, a hex mantissa with digits
    ("TargetLoadPacking", {"defaultRequestsMultiplier": "1_000"}, None),
    ("TargetLoadPacking", {"defaultRequestsMultiplier": "1.e5"}, None),
    ("TargetLoadPacking", {"defaultRequestsMultiplier": "+nan"},
     'unable to parse DefaultRequestsMultiplier: strconv.ParseFloat: parsing "+nan": invalid syntax'),
    ("TargetLoadPacking", {"defaultRequestsMultiplier": "0x.p1"},
     'unable to parse DefaultRequestsMultiplier: strconv.ParseFloat: parsing "0x.p1": invalid syntax'),
    ("TargetLoadPacking", {"defaultRequestsMultiplier": "0x1p5000"},
     'unable to parse DefaultRequestsMultiplier: strconv.ParseFloat: parsing "0x1p5000": value out of range'),
    ("Peaks", {}, "invalid MetricProvider.Type, got "),
    ("Peaks", {"WatcherAddress": "http://w:2020"}, None),
])
def test_construct(name: str, given: dict[str, Any], expected: str | None) -> None:
    assert _built(name, given) == expected


@pytest.mark.parametrize("name", ["Coscheduling", "NetworkOverhead", "TopologicalSort", "NodeResourceTopologyMatch",
                                  "PreemptionToleration", "TargetLoadPacking", "LowRiskOverCommitment",
                                  "LoadVariationRiskBalancing", "SySched", "NodeResourcesAllocatable"])
def test_plugin_without_plugin_config_is_built_with_defaulted_args(name: str) -> None:
    # cmd/scheduler/main_test.go at 903da7df starts NodeResourceTopologyMatch, TopologicalSort and
    # NetworkOverhead from configs that have no pluginConfig entry: they get defaulted args, not nil.
    text = f"profiles:\n- plugins:\n    multiPoint:\n      enabled:\n      - name: {name}\n"
    if name in ("Coscheduling", "TopologicalSort"):
        text += "    queueSort:\n      disabled:\n      - name: PrioritySort\n"
    assert _errors(text, SP) == []


def test_defaulted_args_are_still_checked_by_new() -> None:
    # NodeMetadata has no defaults for its key, source, type and strategy, so its New() rejects them
    errors = _errors("profiles:\n- plugins:\n    score:\n      enabled:\n      - name: NodeMetadata\n", SP)
    assert [(f.rule, f.line, f.column) for f in errors] == [("BPL155", 7, 15)]
    assert errors[0].detail.startswith(PREFIX + 'initializing plugin "NodeMetadata": invalid NodeMetadataArgs: '
                                       '[metadataKey: Invalid value: "": metadataKey cannot be empty, ')
    peaks = _errors("profiles:\n- plugins:\n    score:\n      enabled:\n      - name: Peaks\n", SP)
    assert [f.message for f in peaks] == [PREFIX + 'initializing plugin "Peaks": invalid MetricProvider.Type, got ']


def test_init_error_has_the_binary_prefix_and_lands_on_the_args() -> None:
    text = ("profiles:\n- plugins:\n    postFilter:\n      enabled:\n      - name: PreemptionToleration\n"
            "  pluginConfig:\n  - name: PreemptionToleration\n    args: {minCandidateNodesPercentage: 101}\n")
    errors = _errors(text, SP)
    assert [(f.rule, f.line) for f in errors] == [("BPL155", 9)]
    assert errors[0].detail == (PREFIX + 'initializing plugin "PreemptionToleration": '
                                "[].minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]")


def test_empty_topology_match_scoring_strategy_is_refused_by_new() -> None:
    text = ("profiles:\n- plugins:\n    score:\n      enabled:\n      - name: NodeResourceTopologyMatch\n"
            "  pluginConfig:\n  - name: NodeResourceTopologyMatch\n    args:\n      scoringStrategy: {}\n")
    assert [(f.rule, f.message) for f in _errors(text, SP)] == [("BPL155",
        PREFIX + 'initializing plugin "NodeResourceTopologyMatch": scoringStrategy.type: Invalid value: "": '
        "invalid ScoringStrategyType")]


def test_extension_points_of_out_of_tree_plugins() -> None:
    # QOSSort only sorts the queue: enabling it at score is "does not extend"
    errors = _errors("profiles:\n- plugins:\n    score:\n      enabled:\n      - name: QOSSort\n", SP)
    assert [f.rule for f in errors] == ["BPL152"]
    assert errors[0].message == PREFIX + 'plugin "QOSSort" does not extend ScorePlugin plugin'
    assert SCHEDULER_PLUGINS == "scheduler-plugins"


@pytest.mark.parametrize("point", ["placementGenerate", "placementScore"])
def test_placement_points_are_unknown_fields_for_the_kubernetes_1_35_build(point: str) -> None:
    # k8s.io/kube-scheduler v0.35.7 config/v1 Plugins has no placement fields (v0.36 added them)
    text = f"profiles:\n- plugins:\n    {point}:\n      enabled:\n      - name: NodeResourcesFit\n"
    errors = _errors(text, SP)
    assert [(f.rule, f.line, f.message) for f in errors] == [
        ("BPL015", 5, f'strict decoding error: unknown field "profiles[0].plugins.{point}"')]
    assert _errors(text) == []  # kube-scheduler 1.36 decodes them


def _two_coscheduling_profiles(second_args: str) -> str:
    profile = ("- schedulerName: {name}\n  plugins:\n    queueSort:\n      enabled:\n      - name: Coscheduling\n"
               "      disabled:\n      - name: '*'\n    multiPoint:\n      enabled:\n      - name: Coscheduling\n")
    return ("profiles:\n" + profile.format(name="a") + profile.format(name="b")
            + f"  pluginConfig:\n  - name: Coscheduling\n    args:\n      permitWaitingTimeSeconds: {second_args}\n")


def test_queue_sort_args_are_compared_after_defaulting() -> None:
    # validateCommonQueueSort runs on the defaulted config: profile a's args are Coscheduling's defaults
    assert _errors(_two_coscheduling_profiles("60"), SP) == []
    errors = _errors(_two_coscheduling_profiles("61"), SP)
    assert [(f.rule, f.line) for f in errors] == [("BPL103", 25)]
    assert errors[0].message.endswith("queueSort must be the same for all profiles")


def test_differing_queue_sort_args_are_printed_as_the_internal_struct() -> None:
    # field.Invalid gets cfg.Args, the defaulted internal CoschedulingArgs: json.Marshal writes its Go field names
    errors = _errors(_two_coscheduling_profiles("61"), SP)
    assert [f.detail or f.message for f in errors] == [
        'profiles[1].pluginConfig.args: Invalid value: {"PermitWaitingTimeSeconds":61,"PodGroupBackoffSeconds":0,'
        '"PodGroupRejectPercentage":10}: queueSort must be the same for all profiles']
    # the entry kube-scheduler adds for a profile without one holds the defaults
    sort = "  plugins:\n    queueSort:\n      enabled: [{name: TopologicalSort}]\n      disabled: [{name: '*'}]\n"
    text = ("profiles:\n- schedulerName: a\n" + sort + "  pluginConfig:\n  - name: TopologicalSort\n"
            "    args: {namespaces: [team-a]}\n- schedulerName: b\n" + sort)
    assert [f.detail or f.message for f in _errors(text, SP)] == [
        'profiles[1].pluginConfig.args: Invalid value: {"Namespaces":["default"]}: queueSort must be the same for '
        "all profiles"]


def test_a_removed_version_names_the_build_that_refuses_it() -> None:
    text = "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n"
    (found,) = [f for f in lint_text(text, "c.yaml", SP) if f.rule == "BPL011"]
    assert ": scheduler-plugins (master 903da7df, v0.35 line) reads only kubescheduler.config.k8s.io/v1;" in (
        found.message)
    (found,) = [f for f in lint_text(text, "c.yaml") if f.rule == "BPL011"]
    assert ": kube-scheduler 1.36 reads only kubescheduler.config.k8s.io/v1;" in found.message


# --- the in-tree part is Kubernetes 1.35's ------------------------------------------------

def test_binding_timeout_is_forbidden_while_the_1_35_gate_is_off() -> None:
    # DRADeviceBindingConditions: alpha (off) in 1.34 and 1.35, beta (on) from 1.36; with it off,
    # ValidateDynamicResourcesArgs refuses any bindingTimeout
    text = "profiles:\n- pluginConfig:\n  - name: DynamicResources\n    args:\n      bindingTimeout: 5m\n"
    assert [(f.rule, f.line, f.message) for f in _errors(text, SP)] == [
        ("BPL108", 7, "profiles[0].pluginConfig[0].args.bindingTimeout: Forbidden: DRADeviceBindingConditions or "
         "DRAResourceClaimDeviceStatus feature gate is disabled")]
    assert _errors(text) == []  # kube-scheduler 1.36 has the gate on


def test_node_declared_features_is_not_a_default_plugin_in_1_35() -> None:
    # NodeDeclaredFeatures is alpha (off) in 1.35, so applyFeatureGates does not add it to the default set
    def enabled(build: str) -> list[str]:
        [profile] = build_profiles({}, {}, resolve(build))
        return [p.name for p in profile.plugins["multiPoint"].enabled]
    assert "NodeDeclaredFeatures" in enabled("kube-scheduler")
    assert enabled(SCHEDULER_PLUGINS) == [n for n in enabled("kube-scheduler") if n != "NodeDeclaredFeatures"]


@pytest.mark.parametrize("name", ["PodGroupPodsCount", "TopologyPlacement"])
def test_placement_plugins_of_1_36_do_not_exist_in_1_35(name: str) -> None:
    text = f"profiles:\n- plugins:\n    score:\n      enabled:\n      - name: {name}\n"
    errors = _errors(text, SP)
    assert [(f.rule, f.detail or f.message) for f in errors] == [
        ("BPL151", f'{PREFIX}ScorePlugin "{name}" does not exist')]
    assert _errors(text) == []  # registered in 1.36 (their extension points are not modelled)


def test_the_1_36_placement_generator_is_registered_as_topology_placement() -> None:
    # registry.go registers topologyaware.Name, whose value the 1.36 docs name: TopologyPlacement
    text = "profiles:\n- plugins:\n    placementGenerate:\n      enabled:\n      - name: {}\n"
    assert _errors(text.format("TopologyPlacement")) == []
    errors = _errors(text.format("TopologyAware"))
    assert [(f.rule, f.detail or f.message) for f in errors] == [
        ("BPL151", f'{PREFIX}PlacementGeneratePlugin "TopologyAware" does not exist')]
