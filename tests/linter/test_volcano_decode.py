"""Volcano's yaml.v2 decoding, re-done on parsed data: the rejection text, the effective model, and the
Go value rendering used in Volcano's log lines (gopkg.in/yaml.v2 ``decoder.terror``, ``fmt`` ``%v``)."""

from __future__ import annotations

import pytest

from linter.engine import lint_text
from linter.formats.volcano.binpack import could_not_parse_log
from linter.formats.volcano.decode import leading_lines_trimmed
from linter.formats.volcano.govalue import go_v
from linter.formats.volcano.handler import HANDLER, VolcanoContext
from linter.model import VolcanoModel
from linter.source import parse_documents


def analyze(text: str) -> VolcanoContext:
    return HANDLER.analyze(parse_documents(text, "volcano-scheduler.conf")[0])


def test_scalar_values_are_quoted_in_backticks_and_cut_after_ten_bytes() -> None:
    ctx = analyze('actions: "allocate"\ntiers:\n- plugins:\n  - name: a\n    enableNodeOrder: "disabled-by-me"\n'
                  "    enableJobOrder: 010\n")
    assert ctx.rejection == ("yaml: unmarshal errors:\n  line 5: cannot unmarshal !!str `disable...` into bool\n"
                             "  line 6: cannot unmarshal !!int `010` into bool")
    assert ctx.model is None


def test_lines_count_from_the_whitespace_trimmed_file() -> None:
    text = "\n\n   \n# comment\nactions: [a]\n"
    assert leading_lines_trimmed(text) == 3
    assert analyze(text).rejection == "yaml: unmarshal errors:\n  line 2: cannot unmarshal !!seq into string"


def test_scalars_fill_string_fields_with_their_source_text() -> None:
    ctx = analyze("actions: 010\ntiers: []\n")
    assert ctx.rejection == "failed to find Action 010"


def test_an_anchor_or_tag_in_front_of_a_scalar_is_not_part_of_its_text() -> None:
    ctx = analyze("actions: &a 010\ntiers: []\n")
    assert ctx.rejection == "failed to find Action 010"
    ctx = analyze('actions: allocate\ntiers:\n- plugins:\n  - name: !!int "7"\n  - name: &n !!float 3\n'
                  "  - name: binpack\n    enableNodeOrder: &b 1\n    enableJobOrder: !!int 0x10\n")
    assert [p.name for p in ctx.plugins] == ["7", "3", "binpack"]
    assert ctx.rejection == ("yaml: unmarshal errors:\n  line 7: cannot unmarshal !!int `1` into bool\n"
                             "  line 8: cannot unmarshal !!int `0x10` into bool")


def test_every_store_of_a_repeated_key_is_decoded_so_each_can_be_a_type_error() -> None:
    text = ("actions: [a]\nactions: allocate\ntiers:\n- plugins:\n  - name: gang\n    enablePreemptable: 010\n"
            '    enableJobOrder: "x"\n    enablePreemptable: FALSE\n    arguments: [1]\n    arguments: {a: 1}\n'
            "    name: {a: 1}\n    name: binpack\n")
    assert analyze(text).rejection == (
        "yaml: unmarshal errors:\n  line 1: cannot unmarshal !!seq into string\n"
        "  line 6: cannot unmarshal !!int `010` into bool\n  line 7: cannot unmarshal !!str `x` into bool\n"
        "  line 9: cannot unmarshal !!seq into map[string]interface {}\n  line 11: cannot unmarshal !!map into string")
    where = [(f.line, f.column) for f in lint_text(text, "volcano-scheduler.conf") if f.rule == "BPL060"]
    assert sorted(where) == [(1, 10), (6, 24), (7, 21), (9, 16), (11, 11)]


def test_a_tag_yaml_v2_does_not_resolve_leaves_the_scalar_its_text_and_names_type_errors() -> None:
    ctx = analyze("actions: allocate\ntiers: !t\n- plugins:\n  - name: binpack\n    arguments: !args\n"
                  "      binpack.weight: !foo 5\n")
    assert isinstance(ctx.model, VolcanoModel) and [b.weight for b in ctx.model.binpack] == [1]
    logs = [f.message for f in lint_text(ctx.document.text, "volcano-scheduler.conf") if f.rule == "BPL403"]
    assert len(logs) == 1 and 'it logs "Could not parse argument: 5 for key binpack.weight to int"' in logs[0]
    ctx = analyze("actions: allocate\ntiers:\n- plugins:\n  - name: binpack\n    enableNodeOrder: !foo true\n"
                  "    enableJobOrder: !!str true\n    enablePreemptable: !x [1]\n")
    assert ctx.rejection == ("yaml: unmarshal errors:\n  line 5: cannot unmarshal !foo `true` into bool\n"
                             "  line 6: cannot unmarshal !!str `true` into bool\n"
                             "  line 7: cannot unmarshal !x `` into bool")


def test_a_plain_date_is_a_timestamp_in_type_errors_and_repeated_metrics_are_each_decoded() -> None:
    ctx = analyze("tiers:\n- plugins:\n  - name: drf\n    enableHierarchy: 2024-01-01\n"
                  "    enableJobOrder: 2024-02-30\n    enablePreemptable: 2024-1-2T3:04:05.5Z\n"
                  '    enableReclaimable: "2024-01-01"\nmetrics:\n  address: [a]\n  address: [b]\n')
    assert ctx.rejection == (
        "yaml: unmarshal errors:\n  line 4: cannot unmarshal !!timestamp `2024-01-01` into bool\n"
        "  line 5: cannot unmarshal !!str `2024-02-30` into bool\n"  # no such day: not a timestamp
        "  line 6: cannot unmarshal !!timestamp `2024-1-...` into bool\n"
        "  line 7: cannot unmarshal !!str `2024-01-01` into bool\n"
        "  line 9: cannot unmarshal !!seq into string\n  line 10: cannot unmarshal !!seq into string")


def test_type_errors_come_before_the_drf_conflict_and_the_actions() -> None:
    ctx = analyze('actions: "nope"\ntiers:\n- plugins:\n  - name: drf\n    enableHierarchy: true\n'
                  "  - name: proportion\n    arguments: 5\n")
    assert ctx.rejection == ("yaml: unmarshal errors:\n"
                             "  line 7: cannot unmarshal !!int `5` into map[string]interface {}")


def test_drf_conflict_comes_before_the_actions() -> None:
    ctx = analyze('actions: "nope"\ntiers:\n- plugins:\n  - name: drf\n    enableHierarchy: true\n'
                  "  - name: proportion\n")
    assert ctx.rejection == "proportion and drf with hierarchy enabled conflicts" and ctx.drf_conflict_tiers == [0]


def test_missing_actions_and_trailing_comma_name_an_empty_action() -> None:
    assert analyze("tiers: []\n").rejection == "failed to find Action "
    assert analyze('actions: "allocate,"\n').rejection == "failed to find Action "


def test_accepted_file_model_keeps_every_binpack_occurrence_in_order() -> None:
    ctx = analyze('actions: " allocate ,backfill"\ntiers:\n- plugins:\n  - name: binpack\n'
                  "    arguments: {binpack.weight: 3}\n- plugins:\n  - name: binpack\n    enableNodeOrder: false\n")
    assert isinstance(ctx.model, VolcanoModel)
    assert ctx.model.actions == ("allocate", "backfill")
    assert [(b.weight, b.enable_node_order) for b in ctx.model.binpack] == [(3, True), (1, False)]


@pytest.mark.parametrize(("value", "shown"), [
    (2.0, "2"), (2.5, "2.5"), (1e6, "1e+06"), (123456.0, "123456"), (1e-5, "1e-05"), (0.0001, "0.0001"),
    (-0.5, "-0.5"), ("10", "10"), (True, "true"), (None, "<nil>"), ([1, "a"], "[1 a]"),
    ({"b": 1, "a": 2}, "map[a:2 b:1]"),
])
def test_go_v_formats_like_fmt(value: object, shown: str) -> None:
    assert go_v(value) == shown


def test_getint_log_line() -> None:
    assert could_not_parse_log(2.0, "binpack.cpu") == "Could not parse argument: 2 for key binpack.cpu to int"


def test_a_merge_after_a_written_switch_overrides_it_as_yaml_v2_does() -> None:
    # yaml.v2 merges in place: enableHierarchy written first, then merged in as true, is true,
    # so drf with hierarchy meets proportion and Volcano rejects the file
    text = ('actions: "allocate"\nhierarchical: &h {enableHierarchy: true}\ntiers:\n- plugins:\n'
            "  - name: drf\n    enableHierarchy: false\n    <<: *h\n  - name: proportion\n")
    assert analyze(text).rejection == "proportion and drf with hierarchy enabled conflicts"


def test_arguments_given_twice_are_combined_into_one_map_as_yaml_v2_fills_a_struct_field() -> None:
    text = ('actions: "allocate"\nbinpack: &binpack\n  name: binpack\n  arguments: {binpack.weight: 10}\n'
            "tiers:\n- plugins:\n  - <<: *binpack\n    arguments: {binpack.cpu: 5}\n")
    model = analyze(text).model
    assert isinstance(model, VolcanoModel)
    (binpack,) = model.binpack
    assert (binpack.weight, binpack.resources) == (10, {"cpu": 5, "memory": 1})


def test_in_a_list_of_merged_mappings_the_earlier_one_wins() -> None:
    text = ('actions: "allocate"\nlow: &low {binpack.weight: 3}\nhigh: &high {binpack.weight: 7}\n'
            "tiers:\n- plugins:\n  - name: binpack\n    arguments:\n      binpack.weight: 5\n"
            "      <<: [*low, *high]\n")
    model = analyze(text).model
    assert isinstance(model, VolcanoModel)
    assert model.binpack[0].weight == 3


def test_non_finite_binpack_arguments_are_floats_volcano_ignores() -> None:
    # no JSON on Volcano's path: yaml.v2 gives float64 +Inf/NaN and GetInt refuses them
    model = analyze('actions: "allocate"\ntiers:\n- plugins:\n  - name: binpack\n    arguments:\n'
                    "      binpack.weight: .inf\n      binpack.cpu: .NaN\n").model
    assert isinstance(model, VolcanoModel)
    assert (model.binpack[0].weight, model.binpack[0].resources) == (1, {"cpu": 1, "memory": 1})


@pytest.mark.parametrize(("scalar", "text"), [
    ("!!int abc", "yaml: cannot decode !!str `abc` as a !!int"),
    ("!!bool 5", "yaml: cannot decode !!int `5` as a !!bool"),
    ("!!float yes", "yaml: cannot decode !!bool `yes` as a !!float"),
    ("!!null 0.5", "yaml: cannot decode !!float `0.5` as a !!null"),
    ('!!int "~"', "yaml: cannot decode !!null `~` as a !!int"),
])
def test_a_tag_its_scalar_does_not_resolve_to_is_refused_with_yaml_v2s_text(scalar: str, text: str) -> None:
    # resolve's failf: a panic, so this text is the whole error, with no "unmarshal errors" list
    conf = f"actions: allocate\ntiers:\n- plugins:\n  - name: binpack\n    enableNodeOrder: {scalar}\n"
    (finding,) = lint_text(conf, "volcano-scheduler.conf")
    assert (finding.rule, finding.line, finding.column, finding.message) == ("BPL001", 5, 22, text)


def test_a_merge_of_a_scalar_is_refused_with_yaml_v2s_text() -> None:
    conf = "actions: allocate\ntiers:\n- plugins:\n  - name: binpack\n    <<: 5\n"
    (finding,) = lint_text(conf, "volcano-scheduler.conf")
    assert (finding.rule, finding.line, finding.column, finding.message) == (
        "BPL001", 5, 5, "yaml: map merge requires map or sequence of maps as the value")


def test_each_store_a_merge_brings_is_decoded_at_the_merge_and_named_by_its_line_in_the_anchor() -> None:
    # decoder.merge decodes the merged mapping into the struct at the "<<" entry: its bad value is an error
    # although the key written before it fits, and yaml.v2 names the anchor's line
    text = ("actions: allocate\nx: &d\n  enableNodeOrder: 1\ntiers:\n- plugins:\n  - name: binpack\n"
            "    enableNodeOrder: true\n    <<: *d\n")
    assert analyze(text).rejection == "yaml: unmarshal errors:\n  line 3: cannot unmarshal !!int `1` into bool"
    (finding,) = [f for f in lint_text(text, "volcano-scheduler.conf") if f.rule == "BPL060"]
    assert (finding.line, finding.column) == (3, 20)  # where the value is written


def test_a_list_of_merged_mappings_is_decoded_from_its_end_before_the_keys_written_after_it() -> None:
    text = ("actions: allocate\nx: &d\n  name: [a]\n  enableNodeOrder: 1\ntiers:\n- plugins:\n"
            "  - <<: [*d, {enableNodeOrder: 2, name: binpack}]\n    enableNodeOrder: yes\n    enableJobOrder: 3\n")
    assert analyze(text).rejection == (
        "yaml: unmarshal errors:\n  line 7: cannot unmarshal !!int `2` into bool\n"
        "  line 3: cannot unmarshal !!seq into string\n  line 4: cannot unmarshal !!int `1` into bool\n"
        "  line 9: cannot unmarshal !!int `3` into bool")


def test_what_an_earlier_store_of_a_key_holds_is_decoded_too() -> None:
    # the first "tiers" is decoded whole before the second replaces it
    text = "actions: allocate\ntiers:\n- plugins:\n  - name: binpack\n    enableNodeOrder: 1\ntiers: []\n"
    assert analyze(text).rejection == "yaml: unmarshal errors:\n  line 5: cannot unmarshal !!int `1` into bool"


def test_an_aliased_node_is_named_by_its_line_in_the_anchor() -> None:
    text = "actions: allocate\np: &p [{name: binpack, enableNodeOrder: 3}]\ntiers:\n- plugins: *p\n"
    assert analyze(text).rejection == "yaml: unmarshal errors:\n  line 2: cannot unmarshal !!int `3` into bool"
