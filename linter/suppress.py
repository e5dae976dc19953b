"""Inline suppression comments.

``# binpack-lint: disable=BPL123[,BPL124]`` silences those rules for findings on the comment's
own line or on the line below it; ``# binpack-lint: disable-file=BPL123`` silences them for the
whole file. A code may be a prefix (``BPL2`` = every BPL2xx rule) or ``all``; codes are
case-insensitive, separated by commas, and anything after them (``-- reason``) is ignored.
JSON has no comments, so JSON files can only be configured through the config file.
"""

from __future__ import annotations

import re
from functools import lru_cache

from linter.findings import Finding

_DIRECTIVE = re.compile(
    r"#\s*binpack-lint:\s*(disable-file|disable-line|disable)\s*=\s*([A-Za-z0-9_]+(?:\s*,\s*[A-Za-z0-9_]+)*)"
)


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


_SELECTOR = re.compile(r"^(ALL|BPL\d{0,3})$")


def _matches(selectors: frozenset[str], code: str) -> bool:
    """``ALL``, the code itself, or a ``BPL``-prefix of it; anything else selects nothing."""
    return any(_SELECTOR.match(s) and (s == "ALL" or code.startswith(s)) for s in selectors)


def is_suppressed(finding: Finding, text: str | None) -> bool:
    """True when a comment in ``text`` (the finding's file) silences this finding."""
    if not text or "binpack-lint" not in text:
        return False
    per_line, whole = _directives(text)
    if _matches(whole, finding.rule):
        return True
    here = per_line.get(finding.line, frozenset())
    above = per_line.get(finding.line - 1, frozenset())
    return _matches(here | above, finding.rule)
