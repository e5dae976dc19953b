"""docs/cli.md's install paths, run against reality: the documented revision exists in this
repository's history and has the hook, ``pip install "git+REPO@REV"`` installs a
working ``binpack-lint`` into a fresh virtualenv, and a ``.pre-commit-config.yaml`` written from
the snippet (REPO = this repository as a ``file://`` URL) runs the hook.

The package is not on PyPI, so the docs name a commit, not a version; pip needs the package index
for the build backend and the dependencies, as on a user's machine.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs/cli.md").read_text(encoding="utf-8")
PIP_LINE = re.search(r'^python3 -m pip install "git\+REPO@([0-9a-f]{40})"$', DOC, re.M)
CONFIG_BLOCK = re.search(r"```yaml\n(# \.pre-commit-config\.yaml\n.*?)```", DOC, re.S)


def _git(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False)


def _documented_rev() -> str:
    assert PIP_LINE is not None, "docs/cli.md lost its pip install line"
    assert CONFIG_BLOCK is not None, "docs/cli.md lost its .pre-commit-config.yaml snippet"
    config = yaml.safe_load(CONFIG_BLOCK.group(1))
    (repo,) = config["repos"]
    assert repo["rev"] == PIP_LINE.group(1), "pip and pre-commit snippets name different revisions"
    assert [h["id"] for h in repo["hooks"]] == ["binpack-lint"]
    return str(repo["rev"])


@pytest.fixture(scope="module")
def rev() -> str:
    revision = _documented_rev()
    if shutil.which("git") is None or _git("rev-parse", "--git-dir").returncode != 0:
        pytest.skip("not a git checkout")
    if _git("cat-file", "-e", f"{revision}^{{commit}}").returncode != 0:
        if _git("rev-parse", "--is-shallow-repository").stdout.strip() == "true":
            pytest.skip("shallow clone: the documented revision is outside the fetched history")
        pytest.fail(f"docs/cli.md names revision {revision}, which is not in this repository")
    return revision


def test_documented_revision_exists_and_has_the_hook(rev: str) -> None:
    assert _git("cat-file", "-e", f"{rev}:.pre-commit-hooks.yaml").returncode == 0
    hooks = yaml.safe_load(_git("show", f"{rev}:.pre-commit-hooks.yaml").stdout)
    assert [h["id"] for h in hooks] == ["binpack-lint"]
    # the documented commit is an ancestor of what is checked out, so it stays reachable on main
    assert _git("merge-base", "--is-ancestor", rev, "HEAD").returncode == 0


@pytest.mark.slow
def test_pip_install_from_git_at_the_documented_revision(rev: str, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    url = f"git+{ROOT.as_uri()}@{rev}"  # the snippet with REPO = this repository
    proc = subprocess.run([*pip, url], capture_output=True, text=True, timeout=1500, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    version = subprocess.run([str(venv / "bin" / "binpack-lint"), "--version"], capture_output=True, text=True,
                             timeout=120, check=False)
    assert version.returncode == 0 and version.stdout.startswith("binpack-lint "), version


@pytest.mark.slow
def test_pre_commit_config_snippet_runs_the_hook(rev: str, tmp_path: Path) -> None:
    if shutil.which("pre-commit") is None:
        pytest.skip("pre-commit is needed")
    assert CONFIG_BLOCK is not None
    config = yaml.safe_load(CONFIG_BLOCK.group(1))
    config["repos"][0]["repo"] = ROOT.as_uri()
    project = tmp_path / "project"
    (project / "deploy/scheduler").mkdir(parents=True)
    (project / "deploy/scheduler/config.yaml").write_text(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nparallelism: 0\n")
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    for args in (["init", "-q"], ["add", "-A"]):
        assert _git(*args, cwd=project).returncode == 0
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k != "GITHUB_ACTIONS"}
    env.update(PRE_COMMIT_HOME=str(tmp_path / "home"), PRE_COMMIT_COLOR="never")
    proc = subprocess.run(["pre-commit", "run", "--all-files"], cwd=project, env=env, capture_output=True,
                          text=True, timeout=1500, check=False)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1 and re.search(r"binpack-lint\.+Failed", output), output
    assert "deploy/scheduler/config.yaml:3:" in output and "[BPL100]" in output, output
