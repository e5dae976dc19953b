"""Volcano rules as tables: each file under tests/data/configs/volcano is linted through the real engine
and its findings, as (code, line, column), must equal the list in that folder's expected.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linter.engine import lint_paths, lint_text, load_scheduler_model
from linter.model import VolcanoModel
from linter.rules.volcano import RULES

DATA = Path(__file__).resolve().parents[1] / "data" / "configs" / "volcano"
EXPECTED: dict[str, list[list[object]]] = json.loads((DATA / "expected.json").read_text())
OWN = {r.CODE for r in RULES}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_volcano_table(name: str) -> None:
    findings = lint_paths([str(DATA / name)]).findings
    got = [[f.rule, f.line, f.column] for f in findings if f.rule in OWN or f.rule.startswith("BPL00")]
    assert got == EXPECTED[name]


def test_every_volcano_rule_has_a_failing_table_case() -> None:
    seen = {code for rows in EXPECTED.values() for code, _, _ in rows}
    assert seen >= OWN, sorted(OWN - seen)


def test_every_table_file_has_an_expectation() -> None:
    files = {p.name for p in DATA.iterdir() if p.name != "expected.json"}
    assert files == set(EXPECTED)


def _rules_at(text: str, code: str) -> list[tuple[int, int]]:
    return [(f.line, f.column) for f in lint_text(text, "volcano-scheduler.conf") if f.rule == code]


def test_binpack_weight_zero_is_only_reported_for_the_integer_zero() -> None:
    base = 'actions: "allocate"\ntiers:\n- plugins:\n  - name: binpack\n    arguments:\n      binpack.weight: {}\n'
    assert _rules_at(base.format("0"), "BPL404") == [(6, 23)]
    assert _rules_at(base.format("00"), "BPL404") == [(6, 23)]  # yaml.v2: octal 0
    assert _rules_at(base.format('"0"'), "BPL404") == []
    assert _rules_at(base.format('"0"'), "BPL403") == [(6, 23)]
    assert _rules_at(base.format("0.0"), "BPL403") == [(6, 23)]


@pytest.mark.parametrize(("written", "scores"), [
    ("NULL", False), ("Null", False),  # yaml.v2 allocates the *bool, then sets it to the zero value
    ("null", True), ("~", True), ("", True), ("!!null Null", True),  # the pointer stays nil: default true
])
def test_enable_node_order_written_as_an_other_null_spelling_is_false(written: str, scores: bool) -> None:
    text = f'actions: "allocate"\ntiers:\n- plugins:\n  - name: binpack\n    enableNodeOrder: {written}\n'
    model, findings = load_scheduler_model(text, "volcano-scheduler.conf")
    assert isinstance(model, VolcanoModel) and [b.enable_node_order for b in model.binpack] == [scores]
    disabled = [f.message for f in findings if f.rule == "BPL411"]
    assert disabled == ([] if scores else [
        f"enableNodeOrder: {written} is false for Volcano (yaml.v2 leaves the switch unset, so true, only for "
        "null, ~ or no value): Volcano never calls binpack's node-order function, so binpack has no effect"])


def test_negative_weights_are_errors_even_when_volcano_starts() -> None:
    text = ('actions: "allocate"\ntiers:\n- plugins:\n  - name: binpack\n    arguments:\n'
            "      binpack.weight: -1\n      binpack.memory: -1\n")
    findings = lint_text(text, "v.yaml")
    assert {(f.rule, str(f.severity)) for f in findings} == {("BPL405", "error"), ("BPL406", "error")}


def test_resource_weight_of_unlisted_name_and_listed_name() -> None:
    text = ('actions: "allocate"\ntiers:\n- plugins:\n  - name: binpack\n    arguments:\n'
            '      binpack.resources: "a.com/x, b.com/y"\n      binpack.resources.b.com/y: 2\n'
            "      binpack.resources.c.com/z: 2\n")
    assert _rules_at(text, "BPL409") == [(8, 7)]


def test_a_conf_embedded_under_its_configmap_key_is_volcano_even_without_actions_or_tiers() -> None:
    text = ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n"
            "  volcano-scheduler.conf: |\n    actoins: enqueue\n")
    codes = {f.rule for f in lint_text(text, "cm.yaml")}
    assert {"BPL061", "BPL400"} <= codes
    other_key = text.replace("volcano-scheduler.conf", "something.conf")
    assert not {"BPL061", "BPL400"} & {f.rule for f in lint_text(other_key, "cm.yaml")}


def test_keys_a_merge_stores_again_are_reported_with_what_volcano_does_with_them() -> None:
    text = ('actions: "allocate"\nbase: &base\n  name: binpack\n  arguments: {binpack.weight: 10}\n'
            "tiers:\n- plugins:\n  - name: gang\n    <<: *base\n    arguments: {binpack.cpu: 5}\n")
    dups = [(f.line, f.column, f.message) for f in lint_text(text, "volcano-scheduler.conf") if f.rule == "BPL062"]
    assert dups == [
        (8, 5, "the merge key '<<' sets 'name' again (first on line 7); Volcano keeps the last value"),
        (9, 5, "duplicate key 'arguments' (first on line 4); Volcano adds the later keys to the map it already "
               "holds"),
    ]


def test_binpack_weight_zero_says_whether_another_occurrence_still_scores_for_it() -> None:
    head = 'actions: "allocate"\ntiers:\n- plugins:\n  - name: binpack\n    arguments: {binpack.weight: 5}\n'
    zero = "- plugins:\n  - name: binpack\n{switch}    arguments: {{binpack.weight: 0}}\n"

    def message(text: str) -> str:
        (finding,) = [f for f in lint_text(text, "volcano-scheduler.conf") if f.rule == "BPL404"]
        return finding.detail or finding.message

    called = message(head + zero.format(switch=""))
    assert called.endswith("but the one tiers[0].plugins[0] registered is still called for it, so that "
                           "occurrence's arguments score once more"), called
    off = message(head + zero.format(switch="    enableNodeOrder: false\n"))
    assert off.endswith(", so binpack scores nothing"), off
    duplicate = [f for f in lint_text(head + zero.format(switch=""), "volcano-scheduler.conf") if f.rule == "BPL412"]
    assert "the last occurrence with a non-zero binpack.weight" in (duplicate[0].detail or duplicate[0].message)


def test_an_empty_volcano_conf_in_a_configmap_is_refused_for_its_missing_actions() -> None:
    # Volcano unmarshals nothing from an empty, null or comment-only value: actions "" -> "failed to find Action "
    head = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: volcano-scheduler-configmap\ndata:\n"
    for value in ('  volcano-scheduler.conf: ""\n', '  volcano-scheduler.conf: "~"\n',
                  "  volcano-scheduler.conf: |\n    # only a comment\n"):
        (finding,) = lint_text(head + value, "cm.yaml")
        assert (finding.rule, finding.line) == ("BPL400", 6 if "comment" not in value else 7), value
        assert "failed to find Action " in (finding.detail or finding.message), value


def test_unknown_key_hints_only_at_keys_of_its_own_level() -> None:
    # a plugin list dedented to tier level: 'name' is a plugin key, no hint for a tier
    text = 'actions: "allocate"\ntiers:\n- plugins:\n- name: gang\n  enableJobOrdr: true\n- plugns: []\n' \
           'configurations:\n- name: enqueue\n  argumets: {}\nactons: x\n'
    messages = [f.message for f in lint_text(text, "v.yaml") if f.rule == "BPL061"]
    assert messages == [
        'unknown field "tiers[1].name": Volcano ignores it',
        'unknown field "tiers[1].enableJobOrdr": Volcano ignores it',
        'unknown field "tiers[2].plugns": Volcano ignores it (did you mean \'plugins\'?)',
        'unknown field "configurations[0].argumets": Volcano ignores it (did you mean \'arguments\'?)',
        'unknown field "actons": Volcano ignores it (did you mean \'actions\'?)',
    ]


@pytest.mark.parametrize(("actions", "columns"), [
    ('"enqueue, allocate, bogus"', [30]),
    ("enqueue, allocate, bogus   # why", [29]),
    ("'enqueue, it''s, bogus'", [20, 27]),  # a doubled quote is one character of the value
    (r'"enqueue,\tallocate, \x62ogus"', [31]),  # escapes are read back: \x62 is the b of bogus
    ('"enqueue,,allocate"', [19]),  # an empty piece: where its name would start
    ('""', [10]),  # nothing at all: the scalar
    ("|\n  enqueue, bogus", [10]),  # a block scalar: the scalar
    ("enqueue,\n  bogus", [10]),  # a plain scalar over two lines: the scalar
    ('!!str "enqueue, bogus"', [10]),  # a tag before the scalar: the scalar
])
def test_an_unknown_action_is_reported_at_its_own_column(actions: str, columns: list[int]) -> None:
    text = f"actions: {actions}\ntiers:\n- plugins:\n  - name: binpack\n"
    found = [(f.line, f.column) for f in lint_text(text, "volcano-scheduler.conf") if f.rule == "BPL400"]
    assert found == [(1, column) for column in columns]


def test_an_unknown_action_in_a_configmap_is_reported_at_its_column_in_the_outer_file() -> None:
    text = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: volcano-scheduler-configmap\ndata:\n"
            '  volcano-scheduler.conf: |\n    actions: "enqueue, bogus"\n    tiers:\n    - plugins:\n'
            "      - name: binpack\n")
    assert [(f.rule, f.line, f.column) for f in lint_text(text, "cm.yaml")] == [("BPL400", 7, 24)]
