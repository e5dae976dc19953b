"""``.pre-commit-hooks.yaml``: its file filter against sample paths, and the REAL ``pre-commit
try-repo`` running the hook (installed by pre-commit into its own virtualenv) on a bad and on a
good config in a throwaway git repository.

``try-repo`` needs the hook repository to be a git repo with the hook files committed, so the
working tree (tracked and untracked files, as git lists them) is copied into a temporary repo
and committed there; the real repository's git state is never touched. The install needs the
package index (pip), as in CI; one hook run per test.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from identify.identify import tags_from_path
from paths import SHARED

from linter.engine import lint_text
from linter.findings import Severity

REPO = Path(__file__).resolve().parents[2]
HOOKS = REPO / ".pre-commit-hooks.yaml"
VECTORS = SHARED / "vectors/config.json"
SKIP_PARTS = {"__pycache__", ".git", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis"}


def hook() -> dict[str, object]:
    (entry,) = yaml.safe_load(HOOKS.read_text())
    assert isinstance(entry, dict)
    return entry


@pytest.mark.parametrize(("name", "selected"), [
    ("scheduler-config.yaml", True), ("deploy/volcano.yml", True), ("pc.json", True), ("volcano-scheduler.conf", True),
    ("legacy.cfg", True), ("charts/x/values.yaml", True),
    ("main.py", False), ("Makefile", False), ("config.yaml.bak", False), ("yaml", False), ("README.md", False),
    (".binpack-lint.yaml", False), ("sub/.binpack-lint.yml", False), (".pre-commit-config.yaml", False),
    (".pre-commit-hooks.yaml", False), ("deploy/my.binpack-lint.yaml", True),
])
def test_hook_selects_config_suffixes(tmp_path: Path, name: str, selected: bool) -> None:
    entry = hook()
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("a: 1\n")
    by_name = re.search(str(entry["files"]), name) is not None and not re.search(str(entry.get("exclude", "^$")), name)
    by_type = set(entry.get("types", [])) <= tags_from_path(str(path))  # type: ignore[arg-type]
    assert (by_name and by_type) is selected


def test_hook_entry_is_the_installed_console_script() -> None:
    entry = hook()
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert entry["id"] == "binpack-lint" and entry["language"] == "python"
    assert entry["entry"] in scripts and scripts[entry["entry"]] == "linter.cli:main"


def _git(cwd: Path, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.invalid")
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    if shutil.which("git") is None or shutil.which("pre-commit") is None:
        pytest.skip("git and pre-commit are needed for the hook test")
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                            check=True, capture_output=True, timeout=60).stdout.decode().split("\0")
    copy = tmp_path_factory.mktemp("hook-repo")
    for name in filter(None, listed):
        source = REPO / name
        if SKIP_PARTS & set(Path(name).parts) or not source.is_file() or source.is_symlink():
            continue
        target = copy / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    _git(copy, "init", "-q")
    _git(copy, "add", "-A")
    _git(copy, "commit", "-q", "-m", "hook under test")
    yield copy


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")  # shared: pre-commit builds the hook env once


def _vector_texts(accepted: bool) -> list[str]:
    cases = json.loads(VECTORS.read_text())["cases"]
    return [c["text"] for c in cases if c["kind"] == "kube-scheduler" and c["expected"]["accepted"] is accepted]


def _has_error(text: str) -> bool:
    return any(f.severity is Severity.ERROR for f in lint_text(text, "config.yaml"))


def try_repo(hook_repo: Path, home: Path, tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    target = tmp_path / "project"
    target.mkdir()
    (target / "scheduler-config.yaml").write_text(text)
    _git(target, "init", "-q")
    _git(target, "add", "scheduler-config.yaml")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k != "GITHUB_ACTIONS"}
    env["PRE_COMMIT_HOME"] = str(home)
    env["PRE_COMMIT_COLOR"] = "never"
    return subprocess.run(["pre-commit", "try-repo", str(hook_repo), "binpack-lint", "--files",
                           "scheduler-config.yaml"], cwd=target, env=env, capture_output=True, text=True,
                          timeout=900, check=False)


@pytest.mark.slow
def test_hook_fails_on_a_bad_config(hook_repo: Path, pre_commit_home: Path, tmp_path: Path) -> None:
    bad = next((t for t in _vector_texts(accepted=False) if _has_error(t)), "profiles: [unclosed\n")
    assert _has_error(bad)
    proc = try_repo(hook_repo, pre_commit_home, tmp_path, bad)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1, output
    assert re.search(r"binpack-lint\.+Failed", output), output
    assert re.search(r"scheduler-config\.yaml:\d+:\d+: error \[BPL\d{3}\]", output), output


@pytest.mark.slow
def test_hook_passes_on_a_good_config(hook_repo: Path, pre_commit_home: Path, tmp_path: Path) -> None:
    good = [t for t in _vector_texts(accepted=True) if not _has_error(t)]
    assert good, "no accepted vector config lints without errors"
    proc = try_repo(hook_repo, pre_commit_home, tmp_path, good[0])
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert re.search(r"binpack-lint\.+Passed", output), output


def _run_with_config(hook_repo: Path, home: Path, project: Path, files: dict[str, str],
                     args: list[str]) -> subprocess.CompletedProcess[str]:
    """``pre-commit run`` with a real .pre-commit-config.yaml naming the hook repo at its commit."""
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hook_repo, check=True, capture_output=True,
                         text=True, timeout=60).stdout.strip()
    project.mkdir()
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    config = {"repos": [{"repo": hook_repo.as_uri(), "rev": rev, "hooks": [{"id": "binpack-lint", "args": args}]}]}
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k != "GITHUB_ACTIONS"}
    env.update(PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never")
    return subprocess.run(["pre-commit", "run", "--all-files"], cwd=project, env=env, capture_output=True,
                          text=True, timeout=900, check=False)


UNRELATED = {
    "deploy/app.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n",
    "audit/policy.yaml": "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n",
    "package.json": '{"name": "x", "version": "1.0.0"}\n',
    "empty.yaml": "",
}


@pytest.mark.slow
def test_strict_hook_never_fails_on_files_that_are_not_scheduler_configs(
        hook_repo: Path, pre_commit_home: Path, tmp_path: Path) -> None:
    """Issue 8 §4: unrelated YAML/JSON never fails the hook, even with --strict (as docs/cli.md suggests)."""
    proc = _run_with_config(hook_repo, pre_commit_home, tmp_path / "p", UNRELATED, ["--strict"])
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert re.search(r"binpack-lint\.+Passed", output), output


@pytest.mark.slow
def test_strict_hook_still_fails_on_a_scheduler_config_warning(
        hook_repo: Path, pre_commit_home: Path, tmp_path: Path) -> None:
    two_documents = ("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n---\n"
                     "kind: Ignored\n")
    proc = _run_with_config(hook_repo, pre_commit_home, tmp_path / "p",
                            {**UNRELATED, "sched.yaml": two_documents}, ["--strict"])
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1, output
    assert "sched.yaml:3:1: warning [BPL006]" in output, output
