"""BPL415-417: plugin arguments Volcano reads when a session opens, linted through the real engine."""

from __future__ import annotations

import pytest

from linter.engine import lint_text
from linter.findings import Finding

HEAD = 'actions: "enqueue, allocate"\ntiers:\n- plugins:\n'


def _lint(plugins: str, code: str) -> list[Finding]:
    return [f for f in lint_text(HEAD + plugins, "volcano-scheduler.conf") if f.rule == code]


def _at(plugins: str, code: str) -> list[tuple[int, int]]:
    return [(f.line, f.column) for f in _lint(plugins, code)]


def test_a_comma_separated_managed_resources_string_stops_volcano_with_its_own_text() -> None:
    found = _lint("  - name: extender\n    arguments:\n      extender.managedResources: a/gpu,b/gpu\n", "BPL415")
    assert [(f.line, f.column, f.severity.value) for f in found] == [(6, 34, "error")]
    assert found[0].message == ("extender.managedResources is a string, not a list: Volcano exits (klog.Fatal) "
                                "when a session opens: the scheduler crash-loops")
    assert found[0].detail == ("Could not parse argument for key extender.managedResources to type []string: '': "
                               "source data must be an array or slice, got string")


def test_the_finding_points_at_the_first_failing_value_written() -> None:
    plugins = ("  - name: resource-strategy-fit\n    arguments:\n      resources:\n"
               "        cpu: {type: LeastAllocated, weight: 1}\n        memory:\n          weight: x\n"
               "          type: 3\n")
    found = _lint(plugins, "BPL415")
    assert [(f.line, f.column) for f in found] == [(9, 19)]
    assert found[0].message.startswith("resources.memory.weight is a string, not an integer: ")
    assert found[0].detail.endswith("2 error(s) decoding:\n\n"
                                    "* '[<interface {} Value>].Type' expected type 'config.ScoringStrategyType', got "
                                    "unconvertible type 'int', value: '3'\n"
                                    "* '[<interface {} Value>].Weight' expected type 'int', got unconvertible type "
                                    "'string', value: 'x'")


@pytest.mark.parametrize("value", ["2.9", "null", "-3", "{}", "[]"])
def test_values_mapstructure_takes_do_not_stop_volcano(value: str) -> None:
    """Floats are truncated, null is the zero value; resourceStrategyFitWeight < 0 falls back to 10."""
    plugins = (f"  - name: resource-strategy-fit\n    arguments:\n      resourceStrategyFitWeight: "
               f"{value if value not in ('{}', '[]') else 1}\n      resources: {value if value == '{}' else '{}'}\n"
               f"  - name: extender\n    arguments:\n      extender.managedResources: "
               f"{value if value in ('null', '[]') else '[a]'}\n")
    assert _at(plugins, "BPL415") == []


def test_volume_binding_is_read_once_from_the_first_entry_that_has_it_on() -> None:
    first_off = ('  - name: predicates\n    arguments:\n      predicate.VolumeBindingEnable: "false"\n'
                 '      volumebinding.weight: "2"\n')
    second = '  - name: predicates\n    arguments:\n      volumebinding.weight: "3"\n'
    third = '  - name: predicates\n    arguments:\n      volumebinding.weight: "4"\n'
    assert _at(first_off + second + third, "BPL415") == [(10, 29)]
    ignored_switch = first_off.replace('"false"', "0")  # GetBool ignores an int: volume binding stays on
    assert _at(ignored_switch + second, "BPL415") == [(7, 29)]


@pytest.mark.parametrize(("written", "found"), [
    ("-1", "-1 (no note)"), ("-1.5", "-1 (Volcano reads -1.5 as -1)"),
    ("18446744073709551615", "-1 (Volcano reads 18446744073709551615 as -1)"), ("-0.5", None), ("0", None),
    ("null", None),
])
def test_a_negative_bind_timeout_is_refused_by_volumebinding_new(written: str, found: str | None) -> None:
    plugins = (f"  - name: predicates\n    arguments:\n      volumebinding.weight: 3\n"
               f"      volumebinding.bindTimeoutSeconds: {written}\n")
    got = _lint(plugins, "BPL415")
    if found is None:
        assert got == []
        return
    value, note = found.split(" ", 1)
    assert [(f.line, f.column) for f in got] == [(7, 41)]
    assert ("(Volcano reads" in got[0].message) is (note != "(no note)")
    assert got[0].detail == ("failed to create volume binding plugin with args &{Weight:3 VolumeBindingArgs:0xc...}: "
                             f"bindTimeoutSeconds: Invalid value: {value}: invalid BindTimeoutSeconds, should not be "
                             "a negative value")


def test_a_filter_timeout_past_time_duration_wraps_negative_and_stops_volcano() -> None:
    base = "  - name: predicates\n    arguments:\n      dynamicresources.filterTimeoutSeconds: {}\n"
    assert _at(base.format(9223372036), "BPL415") == []  # 9223372036e9 still fits in int64 nanoseconds
    assert _at(base.format(-5), "BPL415") == []  # a negative value keeps the default 10s
    found = _lint(base.format(9223372037), "BPL415")
    assert [(f.line, f.column) for f in found] == [(6, 46)]
    assert found[0].detail == ('failed to create dra plugin with err: filterTimeout: Invalid value: '
                               '"-2562047h47m16.709551616s": must be zero or positive')
    # every predicates entry sets DRA up, at every session
    assert _at(base.format('"15"') + base.format("[15]"), "BPL415") == [(6, 46), (9, 46)]


def test_a_file_volcano_rejects_is_never_run_so_nothing_exits() -> None:
    text = ('actions: "enqueue, alocate"\ntiers:\n- plugins:\n  - name: extender\n    arguments:\n'
            "      extender.managedResources: a\n  - name: deviceshare\n    arguments:\n"
            "      deviceshare.GPUSharingEnable: true\n      deviceshare.GPUNumberEnable: true\n")
    rules = {f.rule for f in lint_text(text, "volcano-scheduler.conf")}
    assert "BPL400" in rules and not rules & {"BPL415", "BPL416"}


def test_deviceshare_switches_carry_over_to_the_next_session() -> None:
    a = "  - name: deviceshare\n    arguments:\n      deviceshare.GPUSharingEnable: true\n"
    b = ("  - name: deviceshare\n    arguments:\n      deviceshare.GPUNumberEnable: true\n"
         "      deviceshare.GPUSharingEnable: false\n")
    found = _lint(a + b, "BPL416")
    assert [(f.line, f.column) for f in found] == [(6, 37)]  # entry a, in the second session
    assert found[0].message == ("deviceshare.GPUSharingEnable with deviceshare.GPUNumberEnable on (from "
                                "tiers[0].plugins[1], process-wide): Volcano exits (klog.Fatal) building this entry "
                                "in the second session")
    assert found[0].detail == "can not define true in both gpu sharing and gpu number"


@pytest.mark.parametrize(("arguments", "found"), [
    ('deviceshare.GPUSharingEnable: true\n      deviceshare.VGPUEnable: "t"', [(7, 31)]),
    ('deviceshare.GPUNumberEnable: "True"\n      deviceshare.GPUSharingEnable: 1', []),  # GetBool ignores 1
    ("deviceshare.GPUSharingEnable: true\n      deviceshare.GPUNumberEnable: false", []),
    ("deviceshare.VGPUEnable: true", []),
])
def test_deviceshare_conflicts_in_one_entry(arguments: str, found: list[tuple[int, int]]) -> None:
    assert _at(f"  - name: deviceshare\n    arguments:\n      {arguments}\n", "BPL416") == found


@pytest.mark.parametrize(("argument", "found"), [
    ("predicate.DynamicResourceAllocationEnable: true", False),  # asks for what the gate does
    ('predicate.DynamicResourceAllocationEnable: "true"', False),
    ("predicate.DynamicResourceAllocationEnable: false", True),
    ("predicate.GPUSharingEnable: true", True),
    ("predicate.GPUSharingEnable: false", False),  # asks for the off it gets
    ("predicate.VGPUEnable: true", True),
    ('predicate.NodePortsEnable: "false"', False),  # strconv.ParseBool takes it
    ("predicate.NodePortsEnable: 0", True),
    ('predicate.NodePortsEnable: "yes"', True),
    ("predicate.NodePortsEnable: null", True),
    ("predicate.CacheEnable: [true]", True),
    ("volumebinding.weight: 2", False),
    ("volumebinding.shape: [{utilization: 0, score: 10}]", True),
    ("predicate.resources: nvidia.com/gpu", False),  # inert without predicate.ProportionalEnable
    ("predicate.nodeAffinityEnable: false", True),
])
def test_predicates_arguments_volcano_does_not_read_or_ignores(argument: str, found: bool) -> None:
    plugins = f"  - name: predicates\n    arguments:\n      {argument}\n"
    assert bool(_at(plugins, "BPL417")) is found


def test_old_predicates_keys_name_where_they_moved_and_pass_when_the_new_switch_is_on() -> None:
    old = "  - name: predicates\n    arguments:\n      predicate.GPUSharingEnable: true\n"
    found = _lint(old, "BPL417")
    assert [(f.line, f.column) for f in found] == [(6, 7)]
    assert found[0].message.endswith("it is now deviceshare.GPUSharingEnable on the deviceshare plugin")
    new = "  - name: deviceshare\n    arguments:\n      deviceshare.GPUSharingEnable: true\n"
    assert _at(old + new, "BPL417") == []
    proportional = ("  - name: predicates\n    arguments:\n      predicate.ProportionalEnable: true\n"
                    "      predicate.resources: nvidia.com/gpu\n      predicate.resources.nvidia.com/gpu.cpu: 4\n")
    assert _at(proportional, "BPL417") == [(6, 7), (7, 7), (8, 7)]


def test_the_renamed_vgpu_switch_names_the_deviceshare_key_and_passes_when_it_is_on() -> None:
    old = "  - name: predicates\n    arguments:\n      predicate.VGPU4pdEnable: true\n"
    found = _lint(old, "BPL417")
    assert found[0].message.endswith("it is now deviceshare.VGPUEnable on the deviceshare plugin")
    new = "  - name: deviceshare\n    arguments:\n      deviceshare.VGPUEnable: true\n"
    assert _at(old + new, "BPL417") == []


@pytest.mark.parametrize(("key", "suggestion"), [
    ("predicate.NodeAfinityEnable", "predicate.NodeAffinityEnable"),
    ("predicate.TaintTolerationEnabled", "predicate.TaintTolerationEnable"),
    ("volumebinding.wieght", "volumebinding.weight"),
    # these share only predicate.*Enable with predicate.CacheEnable: no suggestion (real docs write them)
    ("predicate.4PDVGPUEnable", None),
    ("predicate.VgpuSchedulePolicy", None),
])
def test_did_you_mean_compares_names_without_the_shared_prefix_and_suffix(key: str, suggestion: str | None) -> None:
    found = _lint(f"  - name: predicates\n    arguments:\n      {key}: true\n", "BPL417")
    assert len(found) == 1
    hint = f" (did you mean {suggestion!r}?)" if suggestion else ""
    assert found[0].message.endswith(f"Volcano ignores it{hint}")


def test_an_ignored_switch_value_quotes_volcanos_log() -> None:
    found = _lint("  - name: predicates\n    arguments:\n      predicate.CacheEnable: 1\n", "BPL417")
    assert [(f.line, f.column) for f in found] == [(6, 30)]
    assert found[0].message == ('predicate.CacheEnable is an integer: Volcano takes only a boolean, logs "Could not '
                                'parse argument: 1 for key predicate.CacheEnable to bool" and keeps false')


@pytest.mark.parametrize(("plugins", "found", "held"), [
    ("  - name: tdm\n    arguments:\n      tdm.evict.period: 1\n      tdm.revocable-zone.rz1: 1:00-4:00\n",
     [(6, 25)], "int"),
    ("  - name: tdm\n    arguments:\n      my.tdm.revocable-zone.a: ~\n", [(6, 32)], "nil"),  # strings.Contains
    ("  - name: tdm\n    arguments:\n      tdm.evict.period: 1m\n      tdm.revocable-zone: 2\n", [], ""),
    ("  - name: rescheduling\n    arguments:\n      interval: 5\n      metricsPeriod: 5m\n"
     "  - name: rescheduling\n    arguments:\n      metricsPeriod: true\n", [(6, 17)], "int"),  # one per tier
    ("  - name: rescheduling\n    arguments:\n      metricsPeriod: [5m]\n", [(6, 22)], "[]interface {}"),
])
def test_arguments_asserted_to_be_strings_panic(plugins: str, found: list[tuple[int, int]], held: str) -> None:
    got = _lint(plugins, "BPL415")
    assert [(f.line, f.column) for f in got] == found
    assert all(f.detail == f"panic: interface conversion: interface {{}} is {held}, not string" for f in got)


def _lnu(params: str, actions: str = "enqueue, allocate, shuffle", entry: str = "", extra: str = "") -> str:
    """A conf whose first tier holds a rescheduling entry with one lowNodeUtilization strategy."""
    return (f'actions: "{actions}"\ntiers:\n- plugins:\n  - name: rescheduling\n{entry}    arguments:\n'
            f"      strategies:\n      - name: lowNodeUtilization\n        params:\n{params}{extra}")


def _threshold_findings(text: str) -> list[tuple[int, int, str]]:
    found = [f for f in lint_text(text, "volcano-scheduler.conf") if f.rule == "BPL415"]
    return [(f.line, f.column, f.detail or "") for f in found]


@pytest.mark.parametrize(("params", "found"), [
    ("          thresholds: {cpu: 20, memory: 20.5}\n", [(9, 41, "float64")]),
    ("          thresholds: {cpu: 20}\n          targetThresholds:\n            cpu: \"50\"\n",
     [(11, 18, "string")]),
    ("          thresholds:\n            pods: ~\n", [(10, 19, "nil")]),
    ("          thresholds: [20]\n          targetThresholds: {cpu: 5.5}\n", []),  # parse stops at the list
    ("          thresholds: {cpu: 20, memory: 30}\n          targetThresholds: {cpu: 50}\n", []),
])
def test_low_node_utilization_thresholds_are_asserted_to_be_ints(params: str,
                                                                 found: list[tuple[int, int, str]]) -> None:
    got = _threshold_findings(_lnu(params))
    assert [(line, column) for line, column, _ in got] == [(line, column) for line, column, _ in found]
    assert [detail for _, _, detail in got] == [f"panic: interface conversion: interface {{}} is {held}, not int"
                                                for _, _, held in found]


def test_threshold_values_are_only_asserted_when_the_shuffle_action_calls_the_strategy() -> None:
    params = "          thresholds: {cpu: 20.5}\n"
    assert len(_threshold_findings(_lnu(params))) == 1
    assert _threshold_findings(_lnu(params, actions="enqueue, allocate")) == []  # no shuffle: never called
    assert _threshold_findings(_lnu(params, entry="    enabledVictim: false\n")) == []
    # an item mapstructure cannot decode is skipped; one that decodes still replaces the strategies
    undecodable = _lnu(params).replace("name: lowNodeUtilization", "name: [lowNodeUtilization]")
    assert _threshold_findings(undecodable) == []
    assert len(_threshold_findings(_lnu(params, extra="      - name: 3\n"))) == 1
    unnamed = _lnu(params).replace("name: lowNodeUtilization", "name: lowPriorityFirst")
    assert _threshold_findings(unnamed) == []
    # only the first rescheduling entry of a tier is parsed; a later tier's entry replaces the strategies
    second_in_tier = _lnu("          thresholds: {cpu: 20}\n") + (
        "  - name: rescheduling\n    arguments:\n      strategies:\n      - name: lowNodeUtilization\n"
        "        params: {thresholds: {cpu: 1.5}}\n")
    assert _threshold_findings(second_in_tier) == []
    next_tier = second_in_tier.replace("  - name: rescheduling\n    arguments:\n      strategies:\n      - name: "
                                       "lowNodeUtilization\n        params: {thresholds",
                                       "- plugins:\n  - name: rescheduling\n    arguments:\n      strategies:\n"
                                       "      - name: lowNodeUtilization\n        params: {thresholds")
    assert [(line, column) for line, column, _ in _threshold_findings(next_tier)] == [(15, 36)]


def _ignored(text: str) -> list[tuple[int, int, str]]:
    return [(f.line, f.column, f.message) for f in lint_text(text, "volcano-scheduler.conf") if f.rule == "BPL418"]


@pytest.mark.parametrize(("params", "found"), [
    # getNodeUtilization gives a node cpu and memory only: no threshold of another name is compared
    ("          thresholds: {cpu: 20, memory: 20, pods: 20}\n", [(9, 45, "Volcano ignores thresholds 'pods'")]),
    ("          thresholds: {cpu: 20}\n          targetThresholds: {pod: 80}\n",
     [(10, 30, "Volcano ignores targetThresholds 'pod'")]),
    ("          targetThresholds: {cpu: 80, nvidia.com/gpu: 50}\n",
     [(9, 39, "Volcano ignores targetThresholds 'nvidia.com/gpu'")]),
    ("          thresholds: {cpu: 20}\n          numberOfNodes: 3\n", [(10, 11, "Volcano ignores 'numberOfNodes'")]),
    ("          thresholds: {cpu: 20, memory: 30}\n          targetThresholds: {cpu: 50, memory: 60}\n", []),
    ("          thresholds: [20]\n          targetThresholds: {pods: 5}\n", []),  # parse stops at the list
    ("          thresholds: {cpu: 20.5, pods: 5}\n", []),  # v.(int) panics first: BPL415's
])
def test_low_node_utilization_reads_two_params_and_two_threshold_names(params: str,
                                                                       found: list[tuple[int, int, str]]) -> None:
    got = _ignored(_lnu(params))
    assert [(line, column) for line, column, _ in got] == [(line, column) for line, column, _ in found]
    assert all(text in message for (_, _, message), (_, _, text) in zip(got, found, strict=True))


def test_a_strategy_written_as_a_string_is_skipped_and_reported() -> None:
    text = ('actions: "enqueue, allocate, shuffle"\ntiers:\n- plugins:\n  - name: rescheduling\n    arguments:\n'
            "      strategies:\n      - lowNodeUtilization\n")
    assert [(line, column) for line, column, _ in _ignored(text)] == [(7, 9)]
    assert _ignored(text.replace("shuffle", "backfill")) == []  # nothing runs the victim function
