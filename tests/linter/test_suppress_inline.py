"""Inline ``# binpack-lint: disable=...`` comments, through the engine and the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from lint_cli_helpers import assert_no_traceback, run_cli

from linter.engine import lint_text
from linter.findings import Finding, Severity
from linter.suppress import is_suppressed

NOT_A_CONFIG = "apiVersion: apps/v1\nkind: Deployment\n"  # BPL004 at 1:1
BROKEN = "kind: PriorityClass\nb: 2\nc: [unclosed\nd: 4\n"


def rules_found(text: str) -> list[str]:
    return [f.rule for f in lint_text(text, "x.yaml")]


def test_baseline_findings_exist() -> None:
    assert rules_found(NOT_A_CONFIG) == ["BPL004"]
    assert "BPL001" in rules_found(BROKEN)


@pytest.mark.parametrize(("comment", "left"), [
    ("# binpack-lint: disable=BPL004", []),
    ("# binpack-lint: disable=bpl004", []),
    ("# binpack-lint: disable=unrecognized-document", []),  # a rule's name works wherever a code does
    ("#binpack-lint:disable=BPL001,BPL004", ["BPL008"]),  # BPL001 silenced nothing
    ("# binpack-lint: disable=BPL003, BPL004 -- not a scheduler file, on purpose", ["BPL008"]),
    ("# binpack-lint: disable=BPL0", []),
    ("# binpack-lint: disable=all", []),
    ("# binpack-lint: disable-file=BPL004", []),
])
def test_a_comment_on_the_finding_line_suppresses(comment: str, left: list[str]) -> None:
    assert rules_found(f"{comment}\n{NOT_A_CONFIG}") == left


@pytest.mark.parametrize(("comment", "found"), [
    ("# binpack-lint: disable=BPL001", ["BPL004", "BPL008"]),  # the comment itself is reported as unused
    ("# binpack-lint: disable=BPL01", ["BPL004", "BPL008"]),   # a prefix of other codes only
    ("# binpack-lint: disable=B", ["BPL004", "BPL007"]),       # not a selector at all: reported
    ("# binpack-lint: disable=BPL999", ["BPL004", "BPL007"]),  # no such rule
    ("# binpack-lint: disable=invalid-fit-argz", ["BPL004", "BPL007"]),
    ("# binpack-lint: enable=BPL004", ["BPL004", "BPL007"]),  # a suppression attempt that is no directive
    ("# binpack-lint disable=BPL004", ["BPL004", "BPL007"]),   # (the colon is missing)
    ("# binpack-lint checks this file", ["BPL004"]),            # prose, not an attempt
])
def test_other_codes_and_malformed_comments_do_not_suppress(comment: str, found: list[str]) -> None:
    assert sorted(rules_found(f"{comment}\n{NOT_A_CONFIG}")) == found


def test_comment_findings_point_at_the_selector() -> None:
    text = f"a: 1  # binpack-lint: disable=BPL2, nonsense -- why\n{NOT_A_CONFIG}"
    by_rule = {f.rule: f for f in lint_text(text, "x.yaml")}
    assert (by_rule["BPL008"].line, by_rule["BPL008"].column) == (1, 31)
    assert (by_rule["BPL007"].line, by_rule["BPL007"].column) == (1, 37)
    assert by_rule["BPL007"].severity is Severity.ERROR and "'nonsense'" in by_rule["BPL007"].message
    # disabling the rule a comment names, or BPL008 itself, keeps the run quiet about it
    from linter.settings import LintSettings
    quiet = lint_text(text, "x.yaml", LintSettings(disabled=frozenset({"BPL2", "BPL007"})))
    assert [f.rule for f in quiet] == ["BPL004"]


def _error_line(text: str) -> int:
    (finding,) = [f for f in lint_text(text, "x.yaml") if f.rule == "BPL001"]
    return finding.line


def test_the_line_above_suppresses_but_two_lines_above_does_not() -> None:
    line = _error_line(BROKEN)
    assert line >= 3
    lines = BROKEN.splitlines()
    above = lines.copy()
    above[line - 2] += "  # binpack-lint: disable=BPL001"
    assert "BPL001" not in rules_found("\n".join(above) + "\n")
    two_above = lines.copy()
    two_above[line - 3] += "  # binpack-lint: disable=BPL001"
    assert "BPL001" in rules_found("\n".join(two_above) + "\n")


def test_disable_file_anywhere_in_the_file() -> None:
    assert "BPL001" not in rules_found(BROKEN + "# binpack-lint: disable-file=BPL001\n")


def test_is_suppressed_directly() -> None:
    finding = Finding("x.yaml", 2, 1, "BPL201", Severity.WARNING, "m")
    assert is_suppressed(finding, "a: 1  # binpack-lint: disable=BPL2\nb: 2\n")
    assert is_suppressed(finding, "a: 1\nb: 2  # binpack-lint: disable=BPL201\n")
    assert not is_suppressed(finding, "a: 1\nb: 2\nc: 3  # binpack-lint: disable=BPL201\n")
    assert not is_suppressed(finding, None)
    assert not is_suppressed(finding, "")


def test_the_command_line_honours_inline_suppression(tmp_path: Path) -> None:
    (tmp_path / "deploy.yaml").write_text("# binpack-lint: disable=BPL004\n" + NOT_A_CONFIG)
    result = run_cli(["--strict", "deploy.yaml"], cwd=tmp_path)
    assert_no_traceback(result)
    assert (result.code, result.stdout) == (0, "")


@pytest.mark.parametrize(("comment", "column", "quoted"), [
    ("# binpack-lint: disable BPL004", 17, "disable BPL004"),
    ("# binpack-lint: disable-next-line=BPL004", 17, "disable-next-line=BPL004"),
    ("# binpack-lint:disable=", 16, "disable="),
    ("#binpack-lint disable BPL004 -- why", 15, "disable BPL004 -- why"),
    # no third directive: `disable` already covers the comment's own line (and the next)
    ("# binpack-lint: disable-line=BPL004", 17, "disable-line=BPL004"),
])
def test_a_suppression_comment_that_is_no_directive_is_reported_not_ignored(comment: str, column: int,
                                                                            quoted: str) -> None:
    found = [f for f in lint_text(f"{comment}\n{NOT_A_CONFIG}", "x.yaml") if f.rule == "BPL007"]
    assert [(f.line, f.column, f.severity, f.message) for f in found] == [
        (1, column, Severity.ERROR, f"suppression comment '{quoted}' is not 'disable=CODES' or 'disable-file=CODES' "
         "(as in '# binpack-lint: disable=BPL202'), so it silences nothing")]


@pytest.mark.parametrize(("comment", "column", "quoted"), [
    ("# binpack-lint: disable=BPL004,,BPL003", 31, "disable=BPL004,,BPL003"),
    ("# binpack-lint: disable=BPL004, ,BPL003 -- why", 31, "disable=BPL004, ,BPL003 -- why"),
    ("# binpack-lint: disable=BPL004,", 31, "disable=BPL004,"),
    ("# binpack-lint: disable-file=BPL004 ,", 37, "disable-file=BPL004 ,"),
])
def test_an_empty_selector_in_the_list_voids_the_comment_and_is_reported(comment: str, column: int,
                                                                          quoted: str) -> None:
    found = lint_text(f"{comment}\n{NOT_A_CONFIG}", "x.yaml")
    assert sorted((f.rule, f.line, f.column, f.message) for f in found) == [
        ("BPL004", 1, 1, "no scheduler configuration or PriorityClass recognised in this file"),
        ("BPL007", 1, column, f"suppression comment '{quoted}' has an empty selector in its list, so it silences "
         "nothing; separate the selectors with single commas (as in 'disable=BPL202,BPL203')")]


def test_spaces_around_single_commas_are_still_one_list() -> None:
    assert rules_found(f"# binpack-lint: disable=BPL003 , BPL004 -- why\n{NOT_A_CONFIG}") == ["BPL008"]


def test_the_cli_docs_example_silences_everything_it_names() -> None:
    """docs/cli.md's suppression example leaves no finding: no BPL202 through, and no BPL008 for a
    selector that silenced nothing."""
    cli_md = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    section = cli_md[cli_md.index("## Suppressing findings"):]
    example = section[section.index("```yaml\n") + len("```yaml\n"):section.index("```\n", section.index("```yaml"))]
    text = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n" + example
    assert "disable=" in example
    assert lint_text(text, "scheduler.yaml") == []
