"""``linter.fixes``: BPL008's fix (drop unused selectors, or the whole unused directive), byte for byte.

Each case is a minimal file, the exact fixed text, and the fix must be idempotent (the fixed text has
nothing left to fix). Cases where an edit could change what a program reads must be left alone.
"""

from __future__ import annotations

import pytest

from linter.engine import lint_text, load_scheduler_model
from linter.fixes import plan
from linter.settings import LintSettings

SETTINGS = LintSettings()
HEAD = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
FIT = (HEAD + "profiles:\n- schedulerName: binpack\n  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n"
       "      scoringStrategy:\n        type: MostAllocated\n        resources:\n")


def fixed(text: str, path: str = "a.yaml") -> str | None:
    result = plan(text, path, lint_text(text, path, SETTINGS), SETTINGS)
    return None if result is None else result.text


FIXES = {
    "unused codes dropped, used one and reason kept": (
        FIT + "        # binpack-lint: disable=BPL203, BPL202 , BPL150 -- why\n        - {name: memory, weight: 0}\n",
        FIT + "        # binpack-lint: disable=BPL202 -- why\n        - {name: memory, weight: 0}\n"),
    "separators before each kept code stay as written": (
        FIT + "        - {name: cpu, weight: 0}  # binpack-lint: disable=BPL150,BPL202 , resource-weight-zero\n",
        FIT + "        - {name: cpu, weight: 0}  # binpack-lint: disable=BPL202 , resource-weight-zero\n"),
    "whole trailing comment and the blanks before it go, the rest of the line stays": (
        FIT + "        - {name: cpu, weight: 1}  # binpack-lint: disable=BPL202 -- was 0\n",
        FIT + "        - {name: cpu, weight: 1}\n"),
    "a comment-only line goes with its line": (
        HEAD + "# binpack-lint: disable-file=invalid-fit-args\nprofiles: []\n",
        HEAD + "profiles: []\n"),
    "the second of two directives on a line": (
        FIT + "        - {name: cpu, weight: 0}  # binpack-lint: disable=BPL202 -- a  # binpack-lint: disable=BPL150\n"
        "# keep this\n",
        FIT + "        - {name: cpu, weight: 0}  # binpack-lint: disable=BPL202 -- a\n# keep this\n"),
    "CRLF line endings and a missing last newline are kept": (
        "apiVersion: kubescheduler.config.k8s.io/v1\r\n# binpack-lint: disable-file=BPL150\r\n"
        "kind: KubeSchedulerConfiguration",
        "apiVersion: kubescheduler.config.k8s.io/v1\r\nkind: KubeSchedulerConfiguration"),
    "a ConfigMap's block scalar is fixed in place, the outer manifest too": (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sched  # binpack-lint: disable=BPL203\ndata:\n"
        "  config.yaml: |\n    # binpack-lint: disable=BPL202\n    apiVersion: kubescheduler.config.k8s.io/v1\n"
        "    kind: KubeSchedulerConfiguration\n    profiles:\n"
        "    - schedulerName: binpack  # binpack-lint: disable=BPL150,BPL204 -- stale\n",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sched\ndata:\n"
        "  config.yaml: |\n    apiVersion: kubescheduler.config.k8s.io/v1\n"
        "    kind: KubeSchedulerConfiguration\n    profiles:\n    - schedulerName: binpack\n"),
    "Volcano conf": (
        "actions: \"enqueue, allocate\"  # binpack-lint: disable=BPL400\ntiers:\n- plugins:\n  - name: binpack\n",
        "actions: \"enqueue, allocate\"\ntiers:\n- plugins:\n  - name: binpack\n"),
}


@pytest.mark.parametrize("name", sorted(FIXES))
def test_fix_is_exact_and_idempotent(name: str) -> None:
    before, after = FIXES[name]
    assert fixed(before) == after
    assert fixed(after) is None
    assert not [f for f in lint_text(after, "a.yaml", SETTINGS) if f.rule == "BPL008"]
    model_before, _ = load_scheduler_model(before, "a.yaml")
    model_after, _ = load_scheduler_model(after, "a.yaml")
    assert model_before == model_after


def test_a_line_is_kept_empty_when_removing_it_would_move_another_comments_reach() -> None:
    # without line 12, line 11's directive would cover the memory line and silence its BPL202
    text = (FIT + "        - {name: cpu, weight: 0}  # binpack-lint: disable=BPL202\n"
            "        # binpack-lint: disable=BPL203\n        - {name: memory, weight: 0}\n")
    after = (FIT + "        - {name: cpu, weight: 0}  # binpack-lint: disable=BPL202\n"
             "\n        - {name: memory, weight: 0}\n")
    assert fixed(text) == after
    assert [(f.line, f.rule) for f in lint_text(after, "a.yaml", SETTINGS)] == [(13, "BPL202")]


LEFT_ALONE = {
    # the "comment" is part of a string: removing it would change the scheduler name
    "quoted string": HEAD + "profiles:\n- schedulerName: \"a # binpack-lint: disable=BPL150\"\n",
    # a ConfigMap value in a double-quoted scalar: the directive is text of the value's last line
    "ConfigMap value in quotes": (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sched\ndata:\n  config.yaml: \"apiVersion: "
        "kubescheduler.config.k8s.io/v1\\nkind: KubeSchedulerConfiguration\\nprofiles: [] "
        "# binpack-lint: disable=BPL150\"\n"),
    # kube-scheduler reads a config that starts with '{' as JSON, which the comment makes invalid:
    # removing it would turn a refused config into an accepted one
    "JSON config": ('{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}'
                    " # binpack-lint: disable=BPL150\n"),
    # a ConfigMap value under a key that is no config file is data a pod reads: a text that reads as YAML
    # with the line's tail as a comment must still not lose that tail
    "ConfigMap value that is no config": (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes\ndata:\n  config.yaml: |\n    " + HEAD.replace(
            "\n", "\n    ") + "profiles: []\n  notes.txt: |\n    write # binpack-lint: disable=BPL150 on the line\n"),
}


@pytest.mark.parametrize("name", sorted(LEFT_ALONE))
def test_fix_that_would_change_what_a_program_reads_is_not_made(name: str) -> None:
    text = LEFT_ALONE[name]
    assert [f.rule for f in lint_text(text, "a.yaml", SETTINGS) if f.rule == "BPL008"] == ["BPL008"]
    assert fixed(text) is None


def test_only_the_findings_given_are_fixed() -> None:
    text = HEAD + "# binpack-lint: disable-file=BPL150\nprofiles: []  # binpack-lint: disable=BPL102\n"
    findings = [f for f in lint_text(text, "a.yaml", SETTINGS) if f.line == 4]
    result = plan(text, "a.yaml", findings, SETTINGS)
    assert result is not None
    assert result.text == HEAD + "# binpack-lint: disable-file=BPL150\nprofiles: []\n"
    assert {(f.line, f.rule) for f in result.fixed} == {(4, "BPL008")}
