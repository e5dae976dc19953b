"""The real ``binpack-lint`` command in a subprocess: output, formats, exit codes, subcommands.

Expected findings come from the library API (``linter.engine.lint_paths``) on the same files,
so these tests check that the command line renders and grades exactly what the engine found.
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest
from lint_cli_helpers import CliResult, assert_no_traceback, run_cli

import schemas
from linter import rules
from linter.cli import main
from linter.engine import lint_paths
from linter.findings import Severity

INVALID_YAML = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: [unclosed\n"
NOT_A_CONFIG = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"
# a valid scheduler config followed by a document kube-scheduler never reads: one BPL006 warning
TWO_DOCUMENTS = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n---\nkind: Other\n"


@pytest.fixture()
def files(tmp_path: Path) -> Path:
    (tmp_path / "broken.yaml").write_text(INVALID_YAML)
    (tmp_path / "deploy.yaml").write_text(NOT_A_CONFIG)
    (tmp_path / "two-docs.yaml").write_text(TWO_DOCUMENTS)
    return tmp_path


def lint(args: list[str], cwd: Path, **kw: object) -> CliResult:
    result = run_cli(args, cwd=cwd, **kw)  # type: ignore[arg-type]
    assert_no_traceback(result)
    return result


def test_text_output_is_exactly_the_engine_findings(files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(files)
    run = lint_paths(["broken.yaml", "deploy.yaml"])
    assert {f.rule for f in run.findings} >= {"BPL001", "BPL004"}
    result = lint(["-f", "text", "broken.yaml", "deploy.yaml"], files)
    assert result.stdout.splitlines() == [f.as_text() for f in run.findings]
    errors = sum(f.severity is Severity.ERROR for f in run.findings)
    assert result.stderr.startswith(f"binpack-lint: {errors} error")
    assert result.code == 1


def test_json_output_lists_findings_and_file_count(files: Path) -> None:
    result = lint(["-f", "json", "broken.yaml", "deploy.yaml", "missing.yaml"], files)
    document = json.loads(result.stdout)
    assert document["files"] == 2  # missing.yaml could not be read
    codes = [(f["path"], f["rule"]) for f in document["findings"]]
    assert ("missing.yaml", "BPL002") in codes and ("broken.yaml", "BPL001") in codes
    for f in document["findings"]:
        assert set(f) == {"path", "line", "column", "rule", "severity", "message"}
        assert f["line"] >= 1 and f["column"] >= 1


@pytest.mark.parametrize(("args", "code"), [
    (["deploy.yaml"], 0),                       # warnings alone pass
    (["two-docs.yaml"], 0),
    (["--strict", "two-docs.yaml"], 1),         # ... unless --strict
    (["--strict", "deploy.yaml"], 0),           # a file that is not a scheduler config never fails
    (["broken.yaml"], 1),                       # an error finding
    (["--disable", "BPL001", "broken.yaml"], 0),
    (["--disable", "bpl0", "broken.yaml", "deploy.yaml"], 0),  # prefix, any case
    (["--disable", "BPL0", "--enable", "BPL001", "broken.yaml"], 1),  # enable wins
    (["missing.yaml"], 2),                      # unreadable path
    (["broken.yaml", "missing.yaml"], 2),       # 2 beats 1
    ([], 2),                                    # no path
    (["--format", "yaml", "deploy.yaml"], 2),   # usage error
    (["--kind", "nonsense", "deploy.yaml"], 2),
    (["--disable", "BPL999", "deploy.yaml"], 2),  # unknown code: a typo must not pass silently
    (["--disable", "E501", "deploy.yaml"], 2),
])
def test_exit_codes(files: Path, args: list[str], code: int) -> None:
    assert lint(args, files).code == code


def test_usage_errors_are_one_line_on_stderr(files: Path) -> None:
    result = lint(["--disable", "BPL999", "deploy.yaml"], files)
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == ["binpack-lint: error: --disable: unknown rule code BPL999"]


def test_auto_format_is_github_under_actions(files: Path) -> None:
    under_actions = lint(["broken.yaml"], files, env={"GITHUB_ACTIONS": "true"})
    assert under_actions.stdout.startswith("::error file=broken.yaml,line=")
    elsewhere = lint(["broken.yaml"], files)
    assert elsewhere.stdout.startswith("broken.yaml:")


def test_stdin_is_linted_as_stdin(files: Path) -> None:
    result = lint(["-f", "json", "-"], files, stdin=INVALID_YAML.encode())
    document = json.loads(result.stdout)
    assert document["files"] == 1
    assert {(f["path"], f["rule"]) for f in document["findings"]} == {("<stdin>", "BPL001")}
    assert result.code == 1


def test_stdin_that_is_not_utf8_is_unreadable(files: Path) -> None:
    result = lint(["-"], files, stdin=b"kind: \xff\xfe\n")
    assert result.code == 2
    assert result.stdout.startswith("<stdin>:1:7: error [BPL002]")


def test_directories_recurse_into_config_suffixes_only(tmp_path: Path) -> None:
    for name in ("a.yaml", "b.yml", "c.json", "d.conf", "sub/e.yaml", "notes.txt", "README.md", ".hidden/f.yaml"):
        path = tmp_path / "tree" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(NOT_A_CONFIG if not name.endswith(".json") else "{}")
    result = lint(["-f", "json", "tree"], tmp_path)
    assert json.loads(result.stdout)["files"] == 5
    assert result.code == 0


def test_rules_lists_every_registered_rule(tmp_path: Path) -> None:
    text = lint(["rules"], tmp_path)
    listed = [line.split()[0] for line in text.stdout.splitlines()]
    assert listed == sorted(rules.by_code())
    as_json = json.loads(lint(["rules", "-f", "json"], tmp_path).stdout)
    assert [r["code"] for r in as_json["rules"]] == listed
    for entry in as_json["rules"]:
        rule = rules.by_code()[entry["code"]]
        assert (entry["name"], entry["severity"], entry["summary"]) == (rule.NAME, rule.SEVERITY.value, rule.SUMMARY)


def test_rule_prints_the_documentation_from_the_docstring(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for code, rule in rules.by_code().items():  # in-process: one subprocess per rule would be slow
        assert main(["rule", code.lower()]) == 0
        printed = capsys.readouterr().out
        assert printed.startswith(f"{code} {rule.NAME} ")
        for heading in ("What it does:", "Why it matters:", "Example (fails):", "Use instead (passes):"):
            assert heading in printed, (code, heading)
    assert main(["rule", code]) == 0
    in_process = capsys.readouterr().out
    assert lint(["rule", code], tmp_path).stdout == in_process  # and the installed command agrees


@pytest.mark.parametrize("code", ["BPL999", "nonsense"])
def test_rule_with_unknown_code_exits_2(tmp_path: Path, code: str) -> None:
    result = lint(["rule", code], tmp_path)
    assert result.code == 2 and result.stdout == ""
    assert "unknown rule code" in result.stderr


def test_a_file_named_rules_is_reached_as_dot_slash(tmp_path: Path) -> None:
    (tmp_path / "rules").write_text(INVALID_YAML)
    as_subcommand = lint(["rules"], tmp_path)
    assert as_subcommand.code == 0 and "BPL001" in as_subcommand.stdout
    as_file = lint(["./rules"], tmp_path)
    assert as_file.code == 1 and as_file.stdout.startswith("./rules:")
    later = lint(["-f", "json", "--", "rules"], tmp_path)  # not first: a path
    assert json.loads(later.stdout)["files"] == 1


def test_version_matches_the_distribution(tmp_path: Path) -> None:
    result = lint(["--version"], tmp_path)
    assert result.stdout.strip() == f"binpack-lint {version('binpack-guard')}"


def test_python_dash_m_is_the_same_command(files: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "linter", "-f", "json", "broken.yaml"], cwd=files,
                          capture_output=True, text=True, timeout=120, check=False)
    script = lint(["-f", "json", "broken.yaml"], files)
    assert (proc.returncode, proc.stdout) == (script.code, script.stdout)


_CRASHING_RUN = """
import sys
from linter import formats
real = formats.handler_for
def handler_for(data, *args, **kwargs):
    # fault injection: the engine must survive a handler that blows up on one document
    if isinstance(data, dict) and data.get("crash"):
        raise ZeroDivisionError("injected")
    return real(data, *args, **kwargs)
formats.handler_for = handler_for
from linter.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_crash_in_one_file_is_a_bpl009_finding_and_exit_2(files: Path) -> None:
    (files / "crash.yaml").write_text("crash: true\n")
    proc = subprocess.run([sys.executable, "-c", _CRASHING_RUN, "-f", "text", "broken.yaml", "crash.yaml"],
                          cwd=files, capture_output=True, text=True, timeout=120, check=False)
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 2
    lines = proc.stdout.splitlines()
    assert any(line.startswith("crash.yaml:1:1: error [BPL009] ") and "ZeroDivisionError" in line for line in lines)
    assert any(line.startswith("broken.yaml:") and "[BPL001]" in line for line in lines)  # the other file still counts


def test_explain_is_handed_to_the_explain_command(tmp_path: Path) -> None:
    helped = lint(["explain", "--help"], tmp_path)
    assert helped.code == 0 and helped.stdout.startswith("usage: binpack-lint explain")
    missing = lint(["explain"], tmp_path)
    assert missing.code == 2 and missing.stdout == ""


def test_options_may_follow_paths_and_double_dash_ends_options(files: Path) -> None:
    after = lint(["broken.yaml", "-f", "json", "deploy.yaml"], files)
    assert json.loads(after.stdout)["files"] == 2
    (files / "-f").write_text(INVALID_YAML)
    dashed = lint(["-f", "json", "--", "-f"], files)
    assert [f["path"] for f in json.loads(dashed.stdout)["findings"]] == ["-f"]


def test_public_api_is_lazy_and_complete() -> None:
    probe = ("import sys, linter; heavy = [m for m in ('linter.engine', 'yaml', 'jsonschema') if m in sys.modules]; "
             "print(heavy); from linter import lint_text, lint_paths, Finding, Severity, LintSettings, __version__; "
             "print(__version__, lint_text is sys.modules['linter.engine'].lint_text)")
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    first, second = proc.stdout.splitlines()
    assert first == "[]"
    assert second == f"{version('binpack-guard')} True"


def test_every_shipped_schema_is_a_valid_draft_2020_12_schema() -> None:
    # linter.schema skips check_schema() at run time to keep `binpack-lint` start-up fast
    shipped = sorted(Path(schemas.__file__).parent.glob("*.json"))
    assert shipped
    for path in shipped:
        jsonschema.Draft202012Validator.check_schema(schemas.load(path.stem))


def test_real_run_sarif_is_schema_valid_and_junit_parses(files: Path) -> None:
    schema = json.loads((Path(__file__).resolve().parents[1] / "data" / "sarif-schema-2.1.0.json").read_text())
    sarif = lint(["-f", "sarif", "broken.yaml", "deploy.yaml", "missing.yaml"], files)
    log = json.loads(sarif.stdout)
    jsonschema.Draft4Validator(schema).validate(log)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert uris == {"broken.yaml", "deploy.yaml", "missing.yaml"}
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": False}] and sarif.code == 2
    junit = lint(["-f", "junit", "broken.yaml", "deploy.yaml"], files)
    suite = ElementTree.fromstring(junit.stdout).find("testsuite")
    assert suite is not None and suite.get("tests") == "2" and suite.get("failures") == "1"
