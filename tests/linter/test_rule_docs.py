"""The rule docs say what the registry says: docs/kube-scheduler-rules.md's table is the registry's rows
for the kube-scheduler format (name, severity and summary as `binpack-lint rules` prints them), and
docs/policy-volcano-priorityclass-rules.md names every code of the formats it covers. Every binpack-lint
flag is named in docs/."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
KUBE_DOC = (ROOT / "docs" / "kube-scheduler-rules.md").read_text(encoding="utf-8")
OTHER_DOC = (ROOT / "docs" / "policy-volcano-priorityclass-rules.md").read_text(encoding="utf-8")


def _registry() -> list[dict[str, Any]]:
    out = subprocess.run([sys.executable, "-m", "linter", "rules", "-f", "json"], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=120).stdout
    rules: list[dict[str, Any]] = json.loads(out)["rules"]
    return rules


def test_kube_scheduler_rule_table_is_the_registry() -> None:
    documented = [tuple(cell.strip() for cell in line.strip("|").split("|"))
                  for line in KUBE_DOC.splitlines() if re.match(r"\| BPL\d{3} \|", line)]
    expected = [(str(r["code"]), str(r["name"]), str(r["severity"]), str(r["summary"]))
                for r in _registry() if r["formats"] == ["kube-scheduler"]]
    assert documented == expected


def _codes_named(text: str) -> set[str]:
    """BPLnnn, and the short forms of a group such as BPL050/051/052 or BPL201-206."""
    codes: set[str] = set()
    for first, rest in re.findall(r"BPL(\d{3})((?:/\d{3})*)", text):
        codes.update(f"BPL{n}" for n in [first, *rest.split("/")[1:]])
    for low, high in re.findall(r"BPL(\d{3})-(\d{3})\b", text):
        codes.update(f"BPL{n:03d}" for n in range(int(low), int(high) + 1))
    return codes


def test_other_formats_doc_names_every_code() -> None:
    formats = {"legacy-policy", "volcano", "priorityclass", "kube-scheduler-pod"}
    expected = {str(r["code"]) for r in _registry() if set(r["formats"]) & formats}
    missing = sorted(expected - _codes_named(OTHER_DOC))
    assert not missing, f"docs/policy-volcano-priorityclass-rules.md never names {missing}"


def test_every_binpack_lint_flag_is_documented() -> None:
    from linter.cli import build_parser

    docs = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md"))
    main, subs = build_parser()
    options = {o for parser in (main, *subs.values()) for action in parser._actions for o in action.option_strings
               if o.startswith("--") and o != "--help"}
    assert "--project-config" in options and "--write" in options
    missing = sorted(o for o in options if not re.search(rf"`[^`\n]*{re.escape(o)}\b", docs))
    assert not missing, f"binpack-lint flags no doc names: {missing}"
