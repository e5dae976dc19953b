"""Re-run every ``$ binpack-lint explain ...`` block of docs/scoring.md and paste the fresh output.

Run from the repository root: ``python examples/explain/update_walkthroughs.py``. A block whose
last line is ``  ...`` keeps only as many leading lines as it shows now (an excerpt).
tests/scoring/test_docs_walkthroughs.py fails when the document and the command disagree.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "scoring.md"
BLOCK = re.compile(r"(```\n\$ binpack-lint explain (?P<args>[^\n]*)\n)(?P<out>.*?)(```)", re.DOTALL)


def _fresh(match: re.Match[str]) -> str:
    proc = subprocess.run([sys.executable, "-m", "linter", "explain", *shlex.split(match["args"])], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    if proc.returncode != 0:
        sys.exit(f"binpack-lint explain {match['args']}: exit {proc.returncode}\n{proc.stderr}")
    old = match["out"].rstrip("\n").splitlines()
    new = proc.stdout.rstrip("\n").splitlines()
    if old and old[-1] == "  ...":
        new = [*new[: len(old) - 1], "  ..."]
    return match.group(1) + "\n".join(new) + "\n" + match.group(4)


def main() -> int:
    text = DOC.read_text()
    DOC.write_text(BLOCK.sub(_fresh, text))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
