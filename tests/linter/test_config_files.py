"""Project configuration: discovery upwards from the working directory, precedence, validation.

Effects are observed through the real command (exit code and findings); the rules used are
the engine's own file-level ones (BPL001 invalid YAML, BPL004 unrecognised document), so
these tests do not depend on any format's rules.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lint_cli_helpers import CliResult, assert_no_traceback, run_cli

from linter.config import ConfigError, ProjectConfig, discover, load
from linter.findings import Severity

INVALID_YAML = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: [unclosed\n"
NOT_A_CONFIG = "apiVersion: apps/v1\nkind: Deployment\n"


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    deep = tmp_path / "sub" / "deeper"
    deep.mkdir(parents=True)
    (deep / "broken.yaml").write_text(INVALID_YAML)
    (deep / "deploy.yaml").write_text(NOT_A_CONFIG)
    return tmp_path


def codes(result: CliResult) -> set[str]:
    assert_no_traceback(result)
    return {f["rule"] for f in json.loads(result.stdout)["findings"]}


def lint_deep(project: Path, *extra: str) -> CliResult:
    return run_cli(["-f", "json", *extra, "broken.yaml", "deploy.yaml"], cwd=project / "sub" / "deeper")


def test_without_config_both_rules_fire(project: Path) -> None:
    result = lint_deep(project)
    assert codes(result) == {"BPL001", "BPL004"} and result.code == 1


def test_yaml_config_is_found_in_a_parent_directory(project: Path) -> None:
    (project / ".binpack-lint.yaml").write_text("disable: [BPL001]\n")
    result = lint_deep(project)
    assert codes(result) == {"BPL004"} and result.code == 0


def test_pyproject_table_is_found_and_applies_severity(project: Path) -> None:
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.binpack-lint]\n'
                                            'severity = {BPL004 = "error"}\ndisable = ["BPL001"]\n')
    result = lint_deep(project)
    findings = json.loads(result.stdout)["findings"]
    assert [(f["rule"], f["severity"]) for f in findings] == [("BPL004", "error")]
    assert result.code == 1


def test_pyproject_without_the_table_is_passed_over(project: Path) -> None:
    (project / "sub" / "pyproject.toml").write_text('[project]\nname = "x"\n')
    (project / ".binpack-lint.yml").write_text("disable: [BPL0]\n")
    assert codes(lint_deep(project)) == set()


def test_the_nearest_config_wins_and_yaml_beats_pyproject(project: Path) -> None:
    (project / ".binpack-lint.yaml").write_text("disable: [BPL004]\n")  # farther away: ignored
    (project / "sub" / ".binpack-lint.yaml").write_text("disable: [BPL001]\n")
    (project / "sub" / "pyproject.toml").write_text('[tool.binpack-lint]\ndisable = ["BPL004"]\n')
    assert codes(lint_deep(project)) == {"BPL004"}


def test_explicit_config_and_no_config(project: Path) -> None:
    (project / ".binpack-lint.yaml").write_text("disable: [BPL001]\n")
    other = project / "other.yaml"
    other.write_text("disable: [BPL004]\n")
    assert codes(lint_deep(project, "--config", str(other))) == {"BPL001"}
    assert codes(lint_deep(project, "--no-config")) == {"BPL001", "BPL004"}


def test_command_line_beats_the_config_file(project: Path) -> None:
    (project / ".binpack-lint.yaml").write_text("disable: [BPL0]\nenable: [BPL004]\n")
    assert codes(lint_deep(project)) == {"BPL004"}
    assert codes(lint_deep(project, "--enable", "BPL001")) == {"BPL001", "BPL004"}
    assert codes(lint_deep(project, "--disable", "BPL004")) == set()


def test_strict_in_config_makes_warnings_fail(project: Path) -> None:
    (project / ".binpack-lint.yaml").write_text("strict: true\ndisable: [BPL001]\n")
    assert lint_deep(project).code == 0  # BPL004 alone: nothing to check is never a failure
    (project / "sub" / "deeper" / "broken.yaml").write_text(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n---\nkind: Other\n")
    assert lint_deep(project).code == 1  # a real warning (BPL006) fails under strict


BAD_CONFIGS = [
    (".binpack-lint.yaml", "disabel: [BPL001]\n", "unknown key 'disabel'", 1),
    (".binpack-lint.yaml", "disable: [BPL999]\n", "unknown rule code BPL999", 1),
    (".binpack-lint.yaml", "disable:\n  - BPL001\n  - E501\n", "not a rule code, prefix or name", 3),
    (".binpack-lint.yaml", "disable: BPL001\n", "must be a list", 1),
    (".binpack-lint.yaml", "disable: [1]\n", "must be a rule code string", 1),
    (".binpack-lint.yaml", "severity: {BPL001: fatal}\n", "must be 'error' or 'warning'", 1),
    (".binpack-lint.yaml", "severity: {BPL0: error}\n", "must be a full rule code", 1),
    (".binpack-lint.yaml", "strict: maybe\n", "'strict' must be true or false", 1),
    (".binpack-lint.yaml", "- BPL001\n", "expected a mapping", 1),
    (".binpack-lint.yaml", "disable: [BPL001\n", "invalid YAML", 2),
    (".binpack-lint.yaml", "disable: [BPL001\n", "error: {path}:2: invalid YAML: did not find expected ',' or ']'", 2),
    (".binpack-lint.yaml", "disable: [BPL2]\nstrict: true\ndisable: [BPL3]\n",
     "error: {path}:3: duplicate key 'disable' (first set on line 1); set each key once", 3),
    (".binpack-lint.yaml", "severity:\n  BPL202: error\n  BPL202: warning\n",
     "error: {path}:3: duplicate key 'severity.BPL202' (first set on line 2); set each key once", 3),
    (".binpack-lint.yaml", "1\n", "error: {path}:1: expected a mapping of settings (disable, enable, severity, "
     "strict, scheduler, plugins)", 1),
    (".binpack-lint.yaml", "a: 1\n---\nb: 2\n", "expected one YAML document", 2),  # where the second begins
    (".binpack-lint.yaml", b"disable: [\xff]\n", "not valid UTF-8", None),
    # the YAML reader's error had a second line ('  in "<unicode string>", position 22')
    (".binpack-lint.yaml", "strict: false\ndisable: [a\x0b]\n",
     "error: {path}:2: invalid YAML: unacceptable character #x000b: control characters are not allowed", 2),
    ("pyproject.toml", '[tool.binpack-lint]\ndisable = ["BPL001"\n', "invalid TOML", None),
    ("pyproject.toml", '[tool.binpack-lint]\nignore = ["BPL001"]\n', "unknown key 'ignore'", None),
]


@pytest.mark.parametrize(("name", "content", "reason", "line"), BAD_CONFIGS)
def test_a_bad_config_is_one_line_naming_file_and_reason_exit_2(project: Path, name: str, content: str | bytes,
                                                                reason: str, line: int | None) -> None:
    path = project / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    result = lint_deep(project)
    assert_no_traceback(result)
    assert result.code == 2 and result.stdout == ""
    (message,) = result.stderr.strip().splitlines()
    where = f"{path}:{line}: " if line else f"{path}: "
    assert message.startswith(f"binpack-lint: error: {where}"), message
    assert reason.format(path=path) in message


def test_a_missing_explicit_config_is_exit_2(project: Path) -> None:
    result = lint_deep(project, "--config", "nope.yaml")
    assert result.code == 2 and "nope.yaml: config file not found" in result.stderr


def test_load_returns_the_validated_settings(tmp_path: Path) -> None:
    path = tmp_path / ".binpack-lint.yaml"
    path.write_text("disable: [bpl0, BPL001]\nenable: [BPL004]\nseverity:\n  BPL003: error\nstrict: false\n")
    assert load(str(path)) == ProjectConfig(str(path), frozenset({"BPL0", "BPL001"}), frozenset({"BPL004"}),
                                            {"BPL003": Severity.ERROR}, False)
    assert discover(str(tmp_path)) == str(path)
    empty = tmp_path / "empty" / ".binpack-lint.yaml"
    empty.parent.mkdir()
    empty.write_text("# nothing configured\n")
    assert load(str(empty)) == ProjectConfig(str(empty))


def test_explicit_pyproject_needs_the_table(tmp_path: Path) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text('[project]\nname = "x"\n')
    with pytest.raises(ConfigError, match=r"no \[tool\.binpack-lint\] table"):
        load(str(path))


def test_the_example_config_is_valid() -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "lint" / ".binpack-lint.yaml"
    config = load(str(example))
    assert "BPL4" in config.disable and config.severity  # it configures something
