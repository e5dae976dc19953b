"""The README's promises: its rule table is the registry's, and its commands are the ones CI runs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_rule_table_matches_the_registry() -> None:
    table = re.search(r"<!-- rules:start -->\n(.*)<!-- rules:end -->", README, re.S)
    assert table is not None
    generated = subprocess.run(
        [sys.executable, "-m", "linter", "rules", "-f", "markdown"], capture_output=True, text=True, check=True
    ).stdout
    assert table.group(1).strip() == generated.strip()


def test_ci_runs_the_readme_test_command() -> None:
    command = "python3 -m pip install -e '.[test]' && python3 -m pytest"
    assert command in README
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 -m pip install -e '.[test]'" in ci and "python3 -m pytest" in ci
