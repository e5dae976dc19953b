"""A kube-scheduler config written as JSON is decoded as JSON: apimachinery's recognizer hands text
that starts with ``{`` to the JSON serializer (no YAML step), which decodes it with sigs.k8s.io/json's
UnmarshalStrict. Expected texts are built from encoding/json's UnmarshalTypeError and kjson's
strictError (``unknown field`` / ``duplicate field`` + strconv.Quote(path)), wrapped as
PluginConfig.decodeNestedObjects and the versioning codec wrap them."""

from __future__ import annotations

import pytest

from linter.engine import lint_text
from linter.findings import Finding
from linter.jsondocument import JSONFloat, is_json_buffer, read_json_document

HEAD = '{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",\n'
STRICT = "strict decoding error: "
ARGS = 'decoding .profiles[0].pluginConfig[0]: '


def errors(text: str, path: str = "c.json") -> list[Finding]:
    return [f for f in lint_text(text, path) if f.severity.name == "ERROR"]


def fit_args(args: str) -> str:
    return HEAD + ' "profiles": [{"schedulerName": "a", "pluginConfig": [{"name": "NodeResourcesFit", "args": ' \
        + args + "}]}]}\n"


@pytest.mark.parametrize(("body", "literal", "where"), [
    ('"parallelism": 4.0', "4.0", "KubeSchedulerConfiguration.parallelism of type int32"),
    ('"parallelism": 4e0', "4e0", "KubeSchedulerConfiguration.parallelism of type int32"),
    ('"podMaxBackoffSeconds": 1E1', "1E1", "KubeSchedulerConfiguration.podMaxBackoffSeconds of type int64"),
    ('"profiles": [{"plugins": {"score": {"enabled": [{"name": "ImageLocality", "weight": 1e1}]}}}]', "1e1",
     "Plugin.profiles.plugins.score.enabled.weight of type int32"),
])
def test_a_float_literal_in_an_integer_field_is_refused_with_its_literal_text(body: str, literal: str,
                                                                              where: str) -> None:
    (f,) = errors(HEAD + " " + body + "}\n")
    assert (f.rule, f.message) == ("BPL016", f"json: cannot unmarshal number {literal} into Go struct field {where}")


def test_the_same_float_in_yaml_is_an_integer_after_the_yaml_to_json_step() -> None:
    assert errors("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
                  "parallelism: 4.0\n", "c.yaml") == []


def test_a_float_literal_in_plugin_args_is_wrapped_like_every_args_decode_error() -> None:
    text = fit_args('{"scoringStrategy": {"type": "MostAllocated", "resources": [{"name": "cpu", "weight": 2.0}]}}')
    (f,) = errors(text)
    assert f.message == (ARGS + "decoding args for plugin NodeResourcesFit: json: cannot unmarshal number 2.0 "
                         "into Go struct field ResourceSpec.scoringStrategy.resources.weight of type int64")
    assert (f.line, f.column) == (2, text.splitlines()[1].index("2.0") + 1)


def test_a_float_field_takes_a_float_literal() -> None:
    assert errors(HEAD + ' "clientConnection": {"qps": 5.0}}\n') == []


def test_a_duplicate_key_is_the_json_decoders_duplicate_field() -> None:
    text = HEAD + ' "parallelism": 4, "parallelism": 8}\n'
    (f,) = errors(text)
    assert (f.rule, f.message) == ("BPL014", STRICT + 'duplicate field "parallelism"')
    assert (f.line, f.column) == (2, text.splitlines()[1].rindex('"parallelism"') + 1)


def test_a_duplicate_key_inside_args_is_nested_in_three_strict_decoding_errors() -> None:
    (f,) = errors(fit_args('{"scoringStrategy": {"type": "MostAllocated", "type": "LeastAllocated"}}'))
    assert f.message == (STRICT + ARGS + STRICT + "decoding args for plugin NodeResourcesFit: " + STRICT
                         + 'duplicate field "scoringStrategy.type"')


def test_duplicate_and_unknown_fields_are_reported_in_document_order_then_args() -> None:
    text = (HEAD + ' "zeta": 1, "parallelism": 4, "parallelism": 8, "alpha": 2,'
            ' "profiles": [{"schedulerName": "a", "schedulerName": "b", "pluginConfig": [{"name": "NodeResourcesFit",'
            ' "args": {"x": 1, "x": 2}}]}]}\n')
    found = errors(text)
    inner = ARGS + STRICT + "decoding args for plugin NodeResourcesFit: " + STRICT + 'unknown field "x"'
    assert found[0].detail == STRICT + ", ".join([
        'unknown field "zeta"', 'duplicate field "parallelism"', 'unknown field "alpha"',
        'duplicate field "profiles[0].schedulerName"', inner])  # an unknown key repeated is reported once
    assert [f.rule for f in found] == ["BPL015", "BPL014", "BPL015", "BPL014", "BPL015"]


def test_a_repeated_struct_is_decoded_into_the_first_one() -> None:
    # encoding/json decodes the second scoringStrategy into the first: its resources survive and are checked
    text = fit_args('{"scoringStrategy": {"type": "MostAllocated", "resources": [{"name": "cpu", "weight": 200}]},'
                    ' "scoringStrategy": {"type": "LeastAllocated"}}')
    found = {f.rule: f.message for f in errors(text)}
    assert found["BPL014"] == (STRICT + ARGS + STRICT + "decoding args for plugin NodeResourcesFit: " + STRICT
                               + 'duplicate field "scoringStrategy"')
    assert found["BPL150"].endswith("scoringStrategy.resources[0].weight: Invalid value: 200: resource weight of cpu "
                                    "not in valid range (0, 100]")


def test_valid_json_the_yaml_parser_refuses_is_still_read() -> None:
    key = "k" * 1100  # a YAML implicit key is at most 1024 characters
    (f,) = errors(HEAD + f' "{key}": 1}}\n')
    assert (f.rule, f.detail or f.message) == ("BPL015", STRICT + f'unknown field "{key}"')


def test_json_reader_keeps_literals_members_and_positions() -> None:
    doc = read_json_document('\n {"a": [1, 2.50, -0], "b": "x\\ud800\\u00e9", "a": {}}', "x.json")
    assert doc.data == {"a": {}, "b": "x\ufffd\u00e9"}
    assert [k for k, _ in doc.data.members] == ["a", "b", "a"]
    first = doc.data.members[0][1]
    assert isinstance(first[1], JSONFloat) and first[1].literal == "2.50" and first[0] == 1
    assert (doc.start_line, doc.start_column) == (2, 2)
    assert doc.spots[("b",)].key_column == 23 and doc.spots[("a",)].key_column == 45  # the last "a"


@pytest.mark.parametrize(("text", "is_json"), [("\u00a0\v {", True), ("\x1c{", False), ("# {\n{", False)])
def test_json_is_recognised_after_gos_unicode_spaces_only(text: str, is_json: bool) -> None:
    assert is_json_buffer(text) is is_json


# Opaque args (no args kind) stay runtime.RawExtension bytes in a JSON file: validateCommonQueueSort
# compares those runtime.Unknown values with apiequality.Semantic.DeepEqual (byte by byte) and
# field.Invalid prints them with json.Marshal, which compacts the bytes but keeps member order and
# number spelling. In YAML the YAML-to-JSON step has already re-encoded them (sorted keys).
def queue_sort_profiles(args_a: str, args_b: str) -> str:
    def profile(name: str, args: str) -> str:
        return (f'{{"schedulerName": "{name}", "plugins": {{"queueSort": {{"enabled": [{{"name": "PrioritySort"}}]}}}},'
                f' "pluginConfig": [{{"name": "PrioritySort", "args": {args}}}]}}')
    return HEAD + ' "profiles": [' + profile("a", args_a) + ",\n  " + profile("b", args_b) + "]}\n"


QUEUE_SORT_ARGS = "profiles[1].pluginConfig.args: Invalid value: {}: queueSort must be the same for all profiles"


def test_queue_sort_args_spelt_differently_in_json_are_different_args() -> None:
    (f,) = errors(queue_sort_profiles('{"x": 1, "a": 2}', '{"x":1,"a":2}'))
    assert (f.rule, f.message) == ("BPL103", QUEUE_SORT_ARGS.format('{"x":1,"a":2}'))
    (f,) = errors(queue_sort_profiles('{"x": 1}', '{"x": 1.0}'))
    assert f.message == QUEUE_SORT_ARGS.format('{"x":1.0}')


def test_queue_sort_args_written_identically_in_json_are_the_same() -> None:
    assert errors(queue_sort_profiles('{"x": 1, "a": [true]}', '{"x": 1, "a": [true]}')) == []
    assert errors(queue_sort_profiles("null", "null")) == []


def test_opaque_json_args_are_shown_compacted_in_member_order_with_html_escaped() -> None:
    text = HEAD + ' "profiles": [{"pluginConfig": [{"name": "NodeResourcesFitArgs", "args": {"b": [1.0, "<&>"], ' \
        '"a": { } }}]}]}\n'
    (f,) = errors(text)
    assert (f.rule, f.message) == ("BPL106", 'profiles[0].pluginConfig[0].args: Invalid value: '
                                   '{"b":[1.0,"\\u003c\\u0026\\u003e"],"a":{}}: has to match plugin args')
