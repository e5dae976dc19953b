"""Every real-world file of ``../shared/wild/files`` against the outcome the real programs give it.

``tests/data/wild-expectations.json`` holds, per file and per scheduler build ("column"), the real
program's verdict (``accepted``), the findings binpack-lint must report as (code, line, severity),
and a one-line reason derived from the programs' rules (kube-scheduler 1.36.2, Volcano, the
apiserver and kubectl; issue 8 section 2). Messages are not compared here: their exact texts are
the vectors' business. Each file is linted on its own, as a user running ``binpack-lint FILE`` does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from lint_cli_helpers import run_cli
from paths import ROOT, SHARED

from linter.engine import lint_paths, lint_text
from linter.findings import Severity
from linter.settings import LintSettings

WILD = SHARED / "wild"
FILES = WILD / "files"
EXPECTATIONS: dict[str, Any] = json.loads((ROOT / "tests/data/wild-expectations.json").read_text())["files"]
INDEX = {entry["file"]: entry for entry in json.loads((WILD / "index.json").read_text())}
# column name -> the settings a user of that scheduler build runs binpack-lint with
COLUMNS: dict[str, LintSettings] = {"vanilla": LintSettings()}
MAX_MESSAGE = 200


def _cases() -> list[tuple[str, str]]:
    return [(name, column) for name in sorted(EXPECTATIONS) for column in EXPECTATIONS[name] if column in COLUMNS]


def test_every_wild_file_has_an_expectation() -> None:
    on_disk = {p.name for p in FILES.iterdir() if p.is_file()}
    assert on_disk == set(EXPECTATIONS) == set(INDEX)
    for name, entry in EXPECTATIONS.items():
        vanilla = entry["vanilla"]
        assert vanilla["reason"].strip(), name
        # the verdict and the findings must agree: rejected <=> at least one error
        assert vanilla["accepted"] is not any(sev == "error" for _, _, sev in vanilla["findings"]), name


@pytest.mark.parametrize(("name", "column"), _cases())
def test_wild_file_outcome(name: str, column: str) -> None:
    expected = EXPECTATIONS[name][column]
    text = (FILES / name).read_text(encoding="utf-8")
    findings = lint_text(text, name, COLUMNS[column])
    got = sorted([f.rule, f.line, f.severity.value] for f in findings)
    assert got == sorted(expected["findings"]), f"{name} [{column}]: {expected['reason']}\n" + "\n".join(
        f.as_text() if hasattr(f, "as_text") else str(f) for f in findings)
    assert (not any(f.severity is Severity.ERROR for f in findings)) is expected["accepted"]


@pytest.mark.parametrize("name", sorted(EXPECTATIONS))
def test_wild_messages_are_readable_lines(name: str) -> None:
    """Issue 8 §5: a message is one readable line; the verbatim program text goes to ``detail``."""
    text = (FILES / name).read_text(encoding="utf-8")
    for finding in lint_text(text, name):
        assert "\n" not in finding.message, finding
        assert len(finding.message) <= MAX_MESSAGE, (len(finding.message), finding.message)


def test_the_whole_corpus_in_one_run_never_crashes() -> None:
    run = lint_paths([str(FILES)])
    assert run.files == len(EXPECTATIONS)
    assert not [f for f in run.findings if f.rule == "BPL009"]


# Two spaces in a row that are the programs' own text, not ours: Volcano quotes each actions piece as split,
# untrimmed ("allocate, bakfill" -> "failed to find Action  bakfill"; an empty piece leaves its trailing
# space before our note); the apimachinery RegexError joins examples as "'a', " + " or "; kube-scheduler
# 1.22's legacy Policy check writes "%s  priority %q has a different weight".
_PROGRAM_DOUBLE_SPACES = re.compile(r"failed to find Action +|',  or '|(LabelPreference|ServiceAntiAffinity)  priority")
_INDENT = re.compile(r"\n +")


@pytest.mark.parametrize("settings", [LintSettings(), LintSettings(scheduler="scheduler-plugins")],
                         ids=["kube-scheduler", "scheduler-plugins"])
def test_a_double_space_in_a_message_is_the_programs_own(settings: LintSettings) -> None:
    """What ``-f json`` shows for the whole corpus, for either build: no two spaces of our own making."""
    run = lint_paths([str(FILES)], settings)
    seen = 0
    for finding in run.findings:
        for text in (finding.message, finding.detail):
            seen += "  " in text
            rest = _INDENT.sub("\n", _PROGRAM_DOUBLE_SPACES.sub("", text))
            assert "  " not in rest, (finding.path, finding.rule, text)
    assert seen  # the corpus has Volcano's (vc-doc-gang-aware-eviction.yaml and others)


def test_unrecognised_files_never_fail_even_when_strict(tmp_path: Path) -> None:
    """Issue 8 §4: the hook passes files that are not scheduler configs, with or without --strict."""
    unrelated = [name for name, e in EXPECTATIONS.items()
                 if [code for code, _, _ in e["vanilla"]["findings"]] == ["BPL004"]]
    assert len(unrelated) >= 3
    paths = [str(FILES / name) for name in unrelated]
    for options in ([], ["--strict"]):
        result = run_cli(["--no-config", "-q", *options, *paths], cwd=tmp_path)
        assert result.code == 0, (options, result.stdout, result.stderr)
        assert result.stdout.count("[BPL004]") == len(unrelated)
