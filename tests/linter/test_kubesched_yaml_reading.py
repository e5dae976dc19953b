"""How kube-scheduler's YAML-to-JSON step reads a config: yaml.v2 merge keys under strict decoding
(sigs.k8s.io/yaml ``YAMLToJSONStrict``) and non-finite floats, which ``json.Marshal`` refuses."""

from __future__ import annotations

from linter.engine import lint_text

H = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
DUP = "strict decoding error: yaml: unmarshal errors:\n  "


def test_a_key_written_after_a_merge_that_brought_it_is_a_strict_duplicate() -> None:
    text = H + "profiles:\n- &b\n  schedulerName: a\n- <<: *b\n  schedulerName: b\n"
    (finding,) = lint_text(text, "c.yaml")
    assert (finding.rule, finding.line, finding.column) == ("BPL014", 7, 3)
    assert finding.detail == DUP + 'line 7: key "schedulerName" already set in map'


def test_a_merge_that_brings_a_key_already_written_is_a_strict_duplicate_at_the_merge() -> None:
    # yaml.v2 names the line of the merged value (3), in the anchor; the finding sits on the "<<"
    text = H + "profiles:\n- &b\n  schedulerName: a\n- schedulerName: b\n  <<: *b\n"
    (finding,) = lint_text(text, "c.yaml")
    assert (finding.rule, finding.line, finding.column) == ("BPL014", 7, 3)
    assert finding.detail == DUP + 'line 5: key "schedulerName" already set in map'


def test_the_same_key_in_two_merged_mappings_is_a_strict_duplicate() -> None:
    text = H + ("profiles:\n- &a {schedulerName: a}\n- &b {schedulerName: b, percentageOfNodesToScore: 5}\n"
                "- <<: [*a, *b]\n")
    (finding,) = lint_text(text, "c.yaml")  # the list is merged from its end: b first, then a again
    assert (finding.rule, finding.line, finding.column) == ("BPL014", 6, 3)
    assert finding.detail == DUP + 'line 4: key "schedulerName" already set in map'


def test_a_duplicate_inside_an_anchor_is_reported_again_for_each_alias_as_yaml_v2_does() -> None:
    text = H + "a: &p {x: 1, x: 2}\nb: *p\n"
    dups = [f for f in lint_text(text, "c.yaml") if f.rule == "BPL014"]
    assert [(f.line, f.column) for f in dups] == [(3, 14)]
    assert dups[0].detail.startswith(DUP + 'line 3: key "x" already set in map\n  line 3: key "x" already set in map')


def test_a_non_finite_float_refuses_the_file_with_the_json_marshal_error_at_the_value() -> None:
    text = H + "clientConnection:\n  qps: .nan\n"
    (finding,) = lint_text(text, "c.yaml")
    assert (finding.rule, finding.line, finding.column) == ("BPL016", 4, 8)
    assert finding.detail == "json: unsupported value: NaN"


def test_non_finite_floats_count_in_opaque_args_and_before_apiversion_checks() -> None:
    text = ("apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n"
            "podMaxBackoffSeconds: -.INF\nprofiles:\n- pluginConfig:\n  - name: MyPlugin\n"
            "    args: {threshold: .Inf}\n")
    findings = [f for f in lint_text(text, "c.yaml") if f.rule != "BPL020"]
    # json.Marshal writes keys sorted: podMaxBackoffSeconds before profiles
    assert [(f.rule, f.line, f.column, f.detail) for f in findings] == [
        ("BPL016", 3, 23, "json: unsupported value: -Inf"),
        ("BPL016", 7, 23, "json: unsupported value: +Inf"),
    ]


def test_a_kind_key_spelt_in_another_case_is_read_as_the_kind_then_refused_as_an_unknown_field() -> None:
    # the apiVersion/kind probe is encoding/json (keys matched case-insensitively); the typed decode is not
    for text, key, line in [("apiVersion: kubescheduler.config.k8s.io/v1\nKind: KubeSchedulerConfiguration\n",
                             "Kind", 2),
                            ("APIVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n",
                             "APIVersion", 1)]:
        (finding,) = lint_text(text, "c.yaml")
        assert (finding.rule, finding.line, finding.message) == (
            "BPL015", line, f'strict decoding error: unknown field "{key}"'), text


def test_an_api_version_with_two_slashes_is_refused_before_the_kind_is_looked_at() -> None:
    (finding,) = lint_text("apiVersion: kubescheduler.config.k8s.io/v1/extra\nkind: Nope\n", "c.yaml")
    assert (finding.rule, finding.line, finding.column) == ("BPL010", 1, 13)
    assert finding.message == "unexpected GroupVersion string: kubescheduler.config.k8s.io/v1/extra"


def test_a_tag_its_scalar_does_not_resolve_to_stops_the_scheduler_with_yaml_v2s_text() -> None:
    # YAMLToJSON returns yaml.v2's failf error as it is (the serializer does not wrap it)
    (finding,) = lint_text(H + "parallelism: !!int sixteen\n", "c.yaml")
    assert (finding.rule, finding.line, finding.column, finding.message) == (
        "BPL001", 3, 14, "yaml: cannot decode !!str `sixteen` as a !!int")


def test_a_merge_of_a_list_holding_a_scalar_stops_the_scheduler_with_yaml_v2s_text() -> None:
    (finding,) = lint_text(H + "profiles:\n- <<: [{schedulerName: a}, 2]\n", "c.yaml")
    assert (finding.rule, finding.message) == (
        "BPL001", "yaml: map merge requires map or sequence of maps as the value")
