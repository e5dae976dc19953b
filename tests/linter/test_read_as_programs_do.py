"""Issue 8 §2 and §5 on small inputs: each format read the way its program reads it, and the new
warnings. The wild corpus (test_wild_corpus.py) checks the same rules on real files."""

from __future__ import annotations

import pytest

from linter.engine import lint_text, load_scheduler_model
from linter.findings import Finding
from linter.gojson import position, syntax_error
from linter.model import VolcanoModel
from linter.settings import LintSettings

V1 = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"


def found(text: str, path: str = "c.yaml", kind: str | None = None) -> list[tuple[str, int]]:
    return [(f.rule, f.line) for f in lint_text(text, path, LintSettings(kind=kind))]


def only(text: str, rule: str, path: str = "c.yaml", kind: str | None = None) -> Finding:
    (finding,) = [f for f in lint_text(text, path, LintSettings(kind=kind)) if f.rule == rule]
    return finding


def test_later_documents_of_a_scheduler_config_are_never_read_even_when_broken() -> None:
    assert found(V1 + "---\nprofiles: [unclosed\n") == [("BPL006", 3)]
    assert found(V1 + "---\n" + V1 + "profiles: {x: 1}\n") == [("BPL006", 3)]


def test_a_kubectl_manifest_keeps_every_document() -> None:
    pcs = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: a}\nvalue: 1\n"
    second = pcs.replace("name: a", "name: b").replace("value: 1", "value: x")
    assert found(pcs + "---\n" + second) == [("BPL070", 9)]


@pytest.mark.parametrize("text", ["---\n# a comment\n---\n" + V1, "---\n---\n" + V1])
def test_an_empty_first_document_is_what_the_scheduler_reads(text: str) -> None:
    f = only(text, "BPL010")
    assert f.line == 1 and f.message == "Object 'Kind' is missing in this document"
    assert f.detail == f"Object 'Kind' is missing in '{text}'"  # the scheduler echoes the whole file
    assert ("BPL006", text.splitlines().index("---", 1) + 1) in found(text)  # at the second "---"


@pytest.mark.parametrize("text", ["", "\n", "# only a comment\n"])
def test_empty_or_comment_only_file_given_as_a_scheduler_config(text: str) -> None:
    f = only(text, "BPL010", kind="kube-scheduler")
    assert f.detail == f"Object 'Kind' is missing in '{text}'"
    assert found(text) in ([("BPL003", 1)], [("BPL004", 1)])  # without --kind: nothing to check


@pytest.mark.parametrize("text", ["", "\n  \n", "# only a comment\n", "---\n# a comment\n"])
def test_empty_or_comment_only_file_given_as_a_volcano_conf(text: str) -> None:
    # Volcano unmarshals nothing from it: actions "" is one empty piece, which names no action
    (finding,) = lint_text(text, "volcano-scheduler.conf", LintSettings(kind="volcano"))
    assert (finding.rule, finding.severity.value, finding.line) == ("BPL400", "error", 1)
    assert "failed to find Action  (an empty action name)" in finding.message
    # without --kind nothing in it says what it is: a warning that never fails a run
    assert found(text, "volcano-scheduler.conf") in ([("BPL003", 1)], [("BPL004", 1)])


def test_json_config_is_decoded_with_json_rules() -> None:
    text = '{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",}\n'
    f = only(text, "BPL001")
    assert f.detail == ("couldn't get version/kind; json parse error: "
                        "invalid character '}' looking for beginning of object key string")
    assert (f.line, f.column) == (1, text.index("}") + 1)
    assert found(text.replace(",}", "}")) == []
    assert found("  \n" + text.replace(",}", "}") + "---\n") == [("BPL001", 3)]  # JSON has no documents


@pytest.mark.parametrize(("text", "message", "offset"), [
    ('{"a": 1,}', "invalid character '}' looking for beginning of object key string", 8),
    ('{"a": 1', "unexpected end of JSON input", 7),
    ('{"a": tru}', "invalid character '}' in literal true (expecting 'e')", 9),
    ('{"a": 01}', "invalid character '1' after object key:value pair", 7),
    ("{'a': 1}", "invalid character '\\'' looking for beginning of object key string", 1),
    ('{"a": [1,]}', "invalid character ']' looking for beginning of value", 9),
    ('{"a": 1} // c', "invalid character '/' after top-level value", 9),
    ('{"a": "x\ty"}', "invalid character '\\t' in string literal", 8),
    ('{"a": 1.}', "invalid character '}' after decimal point in numeric literal", 8),
])
def test_go_json_syntax_errors(text: str, message: str, offset: int) -> None:
    error = syntax_error(text)
    assert error is not None and (error.message, error.offset) == (message, offset)


def test_go_json_accepts_json_and_counts_positions_in_code_points() -> None:
    assert syntax_error('{"a": [1, -2.5e3, true, false, null, "\\u00e9\\n"], "b": {}}') is None
    assert position('{"é": 1,\n }', len('{"é": 1,\n '.encode())) == (2, 2)


def test_volcano_trims_whitespace_then_reads_one_document() -> None:
    indented = '  actions: "enqueue, allocate"\n  tiers:\n  - plugins:\n    - name: binpack\n'
    f = only(indented, "BPL060", "volcano-scheduler.conf")
    assert (f.line, f.column) == (2, 3) and f.detail == "yaml: line 1: did not find expected key"
    conf = 'actions: "enqueue, allocate"\ntiers:\n- plugins:\n  - name: binpack\n'
    assert found(conf + "...\n- garbage: [\n", "volcano-scheduler.conf") == [("BPL006", 5)]


@pytest.mark.parametrize("lead", ["  ", "\t", "\n \t", "\t\n", "\u00a0\n"])
def test_volcano_reads_the_trimmed_conf_when_its_leading_whitespace_breaks_the_yaml(lead: str) -> None:
    # the file is not YAML past its first line (or not at all with a tab); TrimSpace makes it one valid conf
    conf = lead + 'actions: "enqueue, allocate"\ntiers:\n- plugins:\n  - name: binpack\n    arguments:\n' \
        '      binpack.cpu: "2"\n  - name: magic\n'
    model, findings = load_scheduler_model(conf, "volcano-scheduler.conf")
    assert isinstance(model, VolcanoModel) and model.actions == ("enqueue", "allocate")
    assert [(b.weight, dict(b.resources)) for b in model.binpack] == [(1, {"cpu": 1, "memory": 1})]
    messages = {f.rule: f.message for f in findings}
    assert 'Could not parse argument: 2 for key binpack.cpu to int' in messages["BPL403"]
    assert 'Failed to get plugin magic.' in messages["BPL402"]
    rows = lead.count("\n")
    bad = only(conf.replace("allocate", "alocate"), "BPL400", "volcano-scheduler.conf")
    assert "failed to find Action  alocate" in bad.message
    assert (bad.line, bad.column) == (1 + rows, len(lead) - lead.rfind("\n") + len('actions: "enqueue, '))


def test_priorityclass_manifests_as_kubectl_and_the_apiserver_answer() -> None:
    base = "kind: PriorityClass\nmetadata:\n  name: x\nvalue: 1\n"
    missing = only(base, "BPL070")
    assert "apiVersion not set" in missing.message and missing.line == 1
    removed = only("apiVersion: scheduling.k8s.io/v1beta1\n" + base, "BPL070")
    assert removed.message.startswith('no matches for kind "PriorityClass" in version "scheduling.k8s.io/v1beta1"')
    assert "scheduling.k8s.io/v1" in removed.message
    typo = only("apiVersion: scheduling.k8s.io/v1\n" + base + "preemptPolicy: Never\n", "BPL071")
    assert typo.severity.value == "error" and typo.message.startswith(
        'strict decoding error: unknown field "preemptPolicy"')
    assert typo.detail == ('PriorityClass in version "v1" cannot be handled as a PriorityClass: strict decoding '
                           'error: unknown field "preemptPolicy"')


SPREADS = V1 + """profiles:
- pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: RequestedToCapacityRatio
        requestedToCapacityRatio:
          shape:
          - {utilization: 0, score: 10}
          - {utilization: 100, score: 0}
"""


def test_a_falling_shape_spreads_and_is_warned_about() -> None:
    assert found(SPREADS) == [("BPL206", 11)]
    assert found(SPREADS.replace("score: 10}", "score: 1}").replace("score: 0}", "score: 9}")) == []
    legacy = SPREADS.replace("kubescheduler.config.k8s.io/v1", "kubescheduler.config.k8s.io/v1beta1")
    legacy = legacy.replace("  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
                            "        type: RequestedToCapacityRatio\n        requestedToCapacityRatio:\n",
                            "  - name: RequestedToCapacityRatio\n    args:\n")
    assert ("BPL206", 8) in found(legacy)


def test_every_message_stays_a_readable_line() -> None:
    text = "apiVersion: kubescheduler.config.k8s.io/v1beta2\nkind: KubeSchedulerConfiguration\n" + "x" * 400 + ": 1\n"
    for f in lint_text(text, "c.yaml"):
        assert len(f.message) <= 200 and "\n" not in f.message
