"""The project's standing static checks, run as part of the one test command.

ruff and ``mypy --strict`` must be clean on the packages, and import-linter's contracts in
pyproject.toml must hold (linter never imports the webhook, flask, gunicorn or kubernetes;
only the cache talks to the cluster; decisions stay pure).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)


@pytest.mark.slow
def test_ruff_is_clean() -> None:
    result = _run(sys.executable, "-m", "ruff", "check", "linter", "webhook", "schemas")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_strict_is_clean() -> None:
    result = _run(sys.executable, "-m", "mypy", "--strict", "linter", "webhook", "schemas")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_import_contracts_hold() -> None:
    result = _run("lint-imports")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "broken" not in result.stdout.lower().replace("0 broken", "")
