"""Positions survive from parse to report: source.py's spots, the ConfigMap mapper, and findings."""

from __future__ import annotations

import pytest

from linter.engine import lint_text
from linter.source import SourceError, parse_documents
from linter.unwrap import embedded_documents

TEXT = """\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
leaderElection:
  leaderElect: OFF
profiles:
- schedulerName: "a"
  pluginConfig:
  - {name: NodeResourcesFit, args: {scoringStrategy: {type: MostAllocated}}}
"""


def test_keys_values_and_items_have_their_own_positions() -> None:
    doc = parse_documents(TEXT, "c.yaml")[0]
    assert doc.locate(("leaderElection", "leaderElect"), key=True) == (4, 3)
    assert doc.locate(("leaderElection", "leaderElect")) == (4, 16)
    assert doc.locate(("profiles", 0)) == (6, 3)
    assert doc.locate(("profiles", 0, "pluginConfig", 0, "args", "scoringStrategy", "type")) == (8, 61)
    assert doc.locate(("profiles", 0, "nothing", "here")) == (6, 3)  # nearest existing ancestor
    assert doc.data["leaderElection"]["leaderElect"] is False  # yaml.v2 reads OFF as a boolean
    assert ("profiles", 0, "schedulerName") in doc.quoted


def test_duplicate_keys_are_recorded_with_both_lines() -> None:
    doc = parse_documents("a: 1\nb: 2\na: 3\n", "d.yaml")[0]
    (dup,) = doc.duplicate_keys
    assert (dup.key, dup.line, dup.column, dup.first_line) == ("a", 3, 1, 1)
    assert doc.data == {"a": 3, "b": 2}


def test_configmap_block_scalar_positions_map_to_the_outer_file() -> None:
    outer = "kind: ConfigMap\napiVersion: v1\ndata:\n  config.yaml: |\n" + "".join(
        "    " + line + "\n" for line in TEXT.splitlines())
    inner, problems = embedded_documents(parse_documents(outer, "cm.yaml")[0])
    assert problems == []
    assert inner[0].locate(("leaderElection", "leaderElect")) == (8, 20)


def test_findings_use_file_positions_for_a_configmap() -> None:
    outer = ("kind: ConfigMap\napiVersion: v1\nmetadata: {name: x}\ndata:\n  config.yaml: |\n"
             "    apiVersion: kubescheduler.config.k8s.io/v1\n    kind: KubeSchedulerConfiguration\n"
             "    parallelism: 0\n")
    findings = lint_text(outer, "cm.yaml")
    assert [(f.rule, f.line, f.column) for f in findings] == [("BPL100", 8, 18)]


def test_a_block_scalar_with_an_indentation_indicator_maps_exactly() -> None:
    # `|2` (kubectl writes it for a value whose first line starts with a space): the content is indented two
    # columns past the mapping that holds the key, so the value's own leading spaces are part of its columns
    outer = ("kind: ConfigMap\napiVersion: v1\nmetadata: {name: x}\ndata:\n  config.yaml: |2\n"
             "      apiVersion: kubescheduler.config.k8s.io/v1\n      kind: KubeSchedulerConfiguration\n"
             "      parallelism: 0\n")
    findings = lint_text(outer, "cm.yaml")
    assert [(f.rule, f.line, f.column) for f in findings] == [("BPL100", 8, 20)]


def test_a_configmap_inside_a_configmap_value_maps_exactly() -> None:
    outer = ("kind: ConfigMap\napiVersion: v1\nmetadata: {name: x}\ndata:\n  outer.yaml: |\n"
             "    kind: ConfigMap\n    apiVersion: v1\n    metadata: {name: y}\n    data:\n      config.yaml: |\n"
             "        apiVersion: kubescheduler.config.k8s.io/v1\n        kind: KubeSchedulerConfiguration\n"
             "        parallelism: 0\n")
    findings = lint_text(outer, "cm.yaml")
    assert [(f.rule, f.line, f.column) for f in findings] == [("BPL100", 13, 22)]


@pytest.mark.parametrize(("text", "line", "column"), [
    ("kind: KubeSchedulerConfiguration\nx: a\x0bb\n", 2, 5),
    ("kind: KubeSchedulerConfiguration\r\nx: é€\x0bb\n", 2, 6),  # libyaml counts bytes, columns count characters
    ("kind: KubeSchedulerConfiguration\nx: a\u2028y: \x1b\n", 3, 4),  # U+2028 breaks a line for YAML
])
def test_a_character_the_yaml_reader_refuses_is_one_line_at_its_position(text: str, line: int, column: int) -> None:
    with pytest.raises(SourceError) as caught:
        parse_documents(text, "a.yaml")
    code = "#x000b" if "\x0b" in text else "#x001b"
    assert caught.value.message == f"invalid YAML: unacceptable character {code}: control characters are not allowed"
    assert (caught.value.line, caught.value.column) == (line, column)


def test_duplicate_key_finding_points_at_the_second_key() -> None:
    text = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nparallelism: 1\n" \
           "parallelism: 2\n"
    (finding,) = lint_text(text, "c.yaml")
    assert (finding.rule, finding.line, finding.column) == ("BPL014", 4, 1)
    assert finding.detail == ('strict decoding error: yaml: unmarshal errors:\n  line 4: key "parallelism" '
                               'already set in map')


def test_a_merge_key_stores_in_place_and_later_stores_win_as_in_yaml_v2() -> None:
    # yaml.v2's decoder.merge decodes the merged mapping into the same map at the "<<" entry
    text = ("x: &x {a: 2}\ny: &y {a: 3}\nafter: {a: 1, <<: *x}\nbefore: {<<: *x, a: 1}\n"
            "both: {<<: [*x, *y]}\n")
    data = parse_documents(text, "m.yaml")[0].data
    assert (data["after"], data["before"], data["both"]) == ({"a": 2}, {"a": 1}, {"a": 2})


def test_a_key_a_merge_stores_again_is_a_duplicate_named_by_its_value_line() -> None:
    text = "base: &b\n  name: a\nafter:\n  name: b\n  <<: *b\nbefore:\n  <<: *b\n  name: c\n"
    merged_over, written_over = parse_documents(text, "m.yaml")[0].duplicate_keys
    # the key merged in: yaml.v2 names the line of the stored value (in the anchor); we point at the "<<"
    assert (merged_over.pointer, merged_over.go_line, merged_over.line, merged_over.column) == (("after",), 2, 5, 3)
    assert (merged_over.first_line, merged_over.merge_line) == (4, 5)
    # the key written after a merge
    assert (written_over.pointer, written_over.go_line, written_over.line, written_over.first_line) == (
        ("before",), 8, 8, 2)


def test_a_merge_of_anything_but_mappings_is_refused_like_yaml_v2() -> None:
    for text in ("a:\n  <<: 1\n", "x: &x [{a: 1}]\na:\n  <<: *x\n", "a:\n  <<: [{b: 1}, 2]\n"):
        with pytest.raises(SourceError) as caught:
            parse_documents(text, "m.yaml")
        assert caught.value.message == "yaml: map merge requires map or sequence of maps as the value"
    assert parse_documents('a: {"<<": 1}\n', "m.yaml")[0].data == {"a": {"<<": 1}}  # quoted: an ordinary key
