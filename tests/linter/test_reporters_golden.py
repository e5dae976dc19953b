"""Every output format against its golden file, plus checks that do not trust the golden files:
SARIF against the vendored OASIS 2.1.0 schema, GitHub annotations decoded back to the
findings, JUnit and JSON parsed back.

``tests/data/sarif-schema-2.1.0.json`` is the OASIS SARIF 2.1.0 (errata 01) schema, copied
unchanged from github.com/oasis-tcs/sarif-spec ``sarif-2.1/schema/sarif-schema-2.1.0.json``.

Regenerate the golden files after an intended change with
``BINPACK_UPDATE_GOLDEN=1 pytest tests/linter/test_reporters_golden.py`` and review the diff.
"""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path
from urllib.parse import unquote
from xml.etree import ElementTree as ET

import jsonschema
import pytest

from linter.cli.lint import exit_code
from linter.findings import Finding, Severity
from linter.reporters import REPORTERS, RunInfo, RunSummary, create, resolve_format

DATA = Path(__file__).resolve().parents[1] / "data"
GOLDEN = DATA / "golden"
ROOT = "/nonexistent/project"  # never touched: reporters only compute paths relative to it

FINDINGS = sorted([
    Finding("configs/sched.yaml", 3, 5, "BPL001", Severity.ERROR, "invalid YAML: mapping values are not allowed here"),
    Finding("configs/sched.yaml", 7, 1, "BPL004", Severity.WARNING,
            "100% of cpu, a comma, a colon: and\nsecond line\r\nthird"),
    Finding("odd dir/a,b:c%.yaml", 1, 1, "BPL003", Severity.WARNING, "file is empty: nothing to check"),
    Finding("<stdin>", 2, 9, "BPL005", Severity.ERROR, "document nests deeper than 200 levels"),
    Finding("unicode/größe.yaml", 1, 1, "BPL002", Severity.ERROR, "not valid UTF-8 <&\"'> \x07"),
    Finding("/elsewhere/abs.yaml", 12, 3, "BPL001", Severity.ERROR, "invalid YAML: found character '\\t'"),
    Finding("configs/old.yaml", 1, 13, "BPL011", Severity.ERROR,
            "kubescheduler.config.k8s.io/v1beta2 was removed in Kubernetes 1.28",
            'no kind "KubeSchedulerConfiguration" is registered\nfor version "v1beta2" \x1b[31m'),
])
PATHS = ["configs/sched.yaml", "configs/clean.yaml", "odd dir/a,b:c%.yaml", "<stdin>", "/elsewhere/abs.yaml"]
GOLDEN_NAMES = {"text": "text.txt", "json": "json.json", "sarif": "sarif.json", "github": "github.txt",
                "junit": "junit.xml"}


def render(name: str, findings: list[Finding] = FINDINGS) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    reporter = create(name, out, err)
    reporter.start(RunInfo(tool_version="9.9.9-test", root=ROOT))
    for finding in findings:
        reporter.finding(finding)
    errors = sum(f.severity is Severity.ERROR for f in findings)
    reporter.finish(RunSummary(PATHS, len(PATHS), errors, len(findings) - errors,
                               exit_code(findings, strict=False)))
    return out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", sorted(REPORTERS))
def test_output_matches_golden_file(name: str) -> None:
    stdout, stderr = render(name)
    produced = stdout if not stderr else f"{stdout}--- stderr ---\n{stderr}"
    golden = GOLDEN / GOLDEN_NAMES[name]
    if os.environ.get("BINPACK_UPDATE_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(produced, encoding="utf-8", newline="")
    assert produced == golden.read_text(encoding="utf-8")


def test_every_format_has_a_golden_file() -> None:
    assert set(GOLDEN_NAMES) == set(REPORTERS)


def test_text_lines_are_path_line_col_severity_code_message() -> None:
    stdout, stderr = render("text")
    # a message's line breaks never split a finding; a detail follows as indented continuation lines
    lines = [line for line in stdout.splitlines() if not line.startswith("    ")]
    assert len(lines) == len(FINDINGS)
    for line, f in zip(lines, FINDINGS, strict=True):
        assert line.startswith(f"{f.path}:{f.line}:{f.column}: {f.severity.value} [{f.rule}] ")
    continuation = [line for line in stdout.splitlines() if line.startswith("    ")]
    assert continuation == ['    no kind "KubeSchedulerConfiguration" is registered',
                            '    for version "v1beta2" \\x1b[31m']
    errors = sum(f.severity is Severity.ERROR for f in FINDINGS)
    assert stderr.strip() == (f"binpack-lint: {errors} errors, {len(FINDINGS) - errors} warnings in {len(PATHS)} files")


def test_json_round_trips_the_findings() -> None:
    document = json.loads(render("json")[0])
    assert document == {"findings": [f.as_dict() for f in FINDINGS], "files": len(PATHS)}


def test_sarif_is_valid_against_the_oasis_schema() -> None:
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    log = json.loads(render("sarif")[0])
    jsonschema.Draft4Validator(schema).validate(log)


def test_sarif_has_what_code_scanning_needs() -> None:
    run = json.loads(render("sarif")[0])["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == sorted({f.rule for f in FINDINGS})
    for rule in rules:
        assert rule["name"] and rule["shortDescription"]["text"] and rule["help"]["text"]
    assert len(run["results"]) == len(FINDINGS)
    for result, f in zip(run["results"], FINDINGS, strict=True):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == f.rule
        assert result["level"] == f.severity.value
        assert result["message"]["text"] == f.message
        (location,) = result["locations"]
        artifact = location["physicalLocation"]["artifactLocation"]
        region = location["physicalLocation"]["region"]
        assert (region["startLine"], region["startColumn"]) == (f.line, f.column)
        if f.path.startswith("/elsewhere"):
            assert artifact["uri"] == "file://" + f.path and "uriBaseId" not in artifact
        else:  # relative to the project root, percent-encoded, no scheme
            assert ":" not in artifact["uri"] and " " not in artifact["uri"]
            assert unquote(artifact["uri"]) == f.path and artifact["uriBaseId"] == "%SRCROOT%"


_ANNOTATION = re.compile(r"^::(error|warning) file=([^,]*),line=(\d+),col=(\d+),title=([^,:]*)::(.*)$")


def _unescape(text: str) -> str:
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")


def test_github_annotations_decode_back_to_the_findings() -> None:
    lines = render("github")[0].splitlines()
    assert len(lines) == len(FINDINGS)
    for line, f in zip(lines, FINDINGS, strict=True):
        match = _ANNOTATION.match(line)
        assert match, line
        level, path, row, col, title, message = match.groups()
        assert (level, _unescape(path), int(row), int(col), title) == (f.severity.value, f.path, f.line, f.column,
                                                                       f.rule)
        assert "\n" not in message and "\r" not in message
        assert _unescape(message) == (f"{f.message}\n\n{f.detail}" if f.detail else f.message)


def test_junit_has_one_case_per_file_and_a_failure_per_error() -> None:
    root = ET.fromstring(render("junit")[0])
    (suite,) = root.findall("testsuite")
    cases = {case.get("name"): case for case in suite.findall("testcase")}
    assert set(cases) == set(PATHS) | {f.path for f in FINDINGS}
    assert suite.get("tests") == str(len(cases))
    for path, case in cases.items():
        expected = [f for f in FINDINGS if f.path == path and f.severity is Severity.ERROR]
        assert [failure.get("type") for failure in case.findall("failure")] == [f.rule for f in expected]
    failed = sum(1 for case in cases.values() if case.find("failure") is not None)
    assert suite.get("failures") == str(failed)


def test_auto_is_github_only_under_actions() -> None:
    assert resolve_format("auto", {"GITHUB_ACTIONS": "true"}) == "github"
    assert resolve_format("auto", {}) == "text"
    assert resolve_format("auto", {"GITHUB_ACTIONS": "false"}) == "text"
    assert resolve_format("json", {"GITHUB_ACTIONS": "true"}) == "json"


def test_clean_run_says_no_problems() -> None:
    for name in REPORTERS:
        stdout, stderr = render(name, [])
        if name == "json":
            assert json.loads(stdout) == {"findings": [], "files": len(PATHS)}
        if name == "text":
            assert stdout == "" and stderr.strip() == f"binpack-lint: no problems in {len(PATHS)} files"
        if name == "github":
            assert stdout == ""


def test_github_paths_under_the_checkout_are_made_relative() -> None:
    from linter.reporters.github import format_finding

    inside = Finding(f"{ROOT}/deploy/a.yaml", 1, 2, "BPL001", Severity.ERROR, "m")
    outside = Finding("/elsewhere/a.yaml", 1, 2, "BPL001", Severity.ERROR, "m")
    assert format_finding(inside, ROOT).startswith("::error file=deploy/a.yaml,line=1,col=2,")
    assert format_finding(outside, ROOT).startswith("::error file=/elsewhere/a.yaml,")
