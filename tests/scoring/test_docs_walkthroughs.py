"""The walkthroughs in docs/scoring.md and README.md are real output: re-run each ``$ binpack-lint explain`` block."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "scoring.md"
PREEMPTION_DOC = ROOT / "docs" / "preemption.md"
README = ROOT / "README.md"
BLOCK = re.compile(r"```\n\$ binpack-lint explain (?P<args>[^\n]*)\n(?P<out>.*?)```", re.DOTALL)
BLOCKS = [(m["args"], m["out"]) for doc in (DOC, PREEMPTION_DOC, README) for m in BLOCK.finditer(doc.read_text())]


def test_the_docs_have_the_walkthroughs() -> None:
    assert len(BLOCKS) >= 8  # five in docs/scoring.md, one in docs/preemption.md, two in the README


IDS = [f"{i}-" + args.split("--cluster")[1].split()[0] for i, (args, _) in enumerate(BLOCKS)]


@pytest.mark.slow
@pytest.mark.parametrize(("args", "shown"), BLOCKS, ids=IDS)
def test_walkthrough_output_is_current(args: str, shown: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "linter", "explain", *shlex.split(args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    # a transcript shows stdout alone: the example pods are ones the API server would store, so no
    # `warning: POD` line stands between the command and what the reader sees
    assert "warning: POD" not in proc.stderr, proc.stderr
    lines = shown.rstrip("\n").splitlines()
    if lines[-1] == "  ...":  # an excerpt: the first lines only
        assert proc.stdout.splitlines()[: len(lines) - 1] == lines[:-1]
    else:
        assert proc.stdout.rstrip("\n").splitlines() == lines
