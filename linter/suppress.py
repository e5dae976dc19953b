"""Inline suppression: ``# binpack-lint: disable=BPL123[,BPL124]`` on the finding's line or the line above,
and ``# binpack-lint: disable-file=BPL123`` anywhere in the file (``all`` matches every rule)."""

from __future__ import annotations

import re
from functools import lru_cache

from linter.findings import Finding

_DIRECTIVE = re.compile(r"#\s*binpack-lint:\s*(disable|disable-file|disable-line)\s*=\s*([A-Za-z0-9_, ]+)")


@lru_cache(maxsize=64)
def _directives(text: str) -> tuple[dict[int, frozenset[str]], frozenset[str]]:
    per_line: dict[int, frozenset[str]] = {}
    whole: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        if "binpack-lint" not in line:
            continue
        for kind, codes in _DIRECTIVE.findall(line):
            parsed = frozenset(c.strip().upper() for c in codes.split(",") if c.strip())
            if kind == "disable-file":
                whole |= parsed
            else:
                per_line[number] = per_line.get(number, frozenset()) | parsed
    return per_line, frozenset(whole)


def is_suppressed(finding: Finding, text: str | None) -> bool:
    if not text or "binpack-lint" not in text:
        return False
    per_line, whole = _directives(text)
    wanted = {finding.rule, "ALL"}
    if wanted & whole:
        return True
    here = per_line.get(finding.line, frozenset())
    above = per_line.get(finding.line - 1, frozenset())
    return bool(wanted & (here | above))
