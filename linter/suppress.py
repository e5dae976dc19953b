"""Inline suppression comments, and the findings about the comments themselves.

``# binpack-lint: disable=BPL123[,BPL124]`` silences those rules for findings on the comment's
own line or on the line below it; ``# binpack-lint: disable-file=BPL123`` silences them for the
whole file. A selector is a code, a prefix (``BPL2`` = every BPL2xx rule), ``all`` or a rule's
name (``invalid-fit-args``); selectors are case-insensitive, separated by single commas (spaces
around a comma allowed), and anything after the last selector that does not start with a comma
(``-- reason``) is ignored. JSON has no comments, so JSON files can only be configured through the
config file.

A suppression cannot fail silently (as ruff's RUF100 does for ``noqa``): a selector that names no
rule is BPL007, and so is a ``# binpack-lint:`` (or ``# binpack-lint disable...``) comment that is
no directive (``enable=``, ``disable BPL202``, ``disable-line=``), and so is a directive whose list
has an empty selector (``disable=BPL202,,BPL203``, ``disable=BPL202,``), which then silences nothing
at all; a selector that silenced nothing in this run is BPL008.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from linter.filecodes import UNKNOWN_SUPPRESSION, UNUSED_SUPPRESSION
from linter.findings import Finding, Severity

DIRECTIVE = re.compile(
    r"#\s*binpack-lint:\s*(disable-file|disable)\s*=\s*"
    r"([A-Za-z0-9_-]+(?:[ \t]*,[ \t]*[A-Za-z0-9_-]+)*)"
)
# A comma right after the selector list: an empty selector (``BPL202,,BPL203``, ``BPL202,``).
STRAY_COMMA = re.compile(r"[ \t]*,")
# What a suppression attempt starts with: "binpack-lint:", or "binpack-lint disable..." without the colon.
# One of these that is not a DIRECTIVE is reported (BPL007) instead of being ignored silently.
ATTEMPT = re.compile(r"#\s*binpack-lint(?:\s*:|\s+(?=disable))\s*")
_SELECTOR = re.compile(r"^(ALL|BPL\d{0,3})$")
_COMMENT_CODES = frozenset({UNKNOWN_SUPPRESSION, UNUSED_SUPPRESSION})


class Selector:
    """One selector written in one comment: what it selects and whether it silenced anything.

    ``code`` is the normalised selector (``BPL2``, ``ALL``, ``BPL202``), None when it selects no
    rule. A plain class, not a dataclass: the CLI imports this module on every run.
    """

    __slots__ = ("code", "column", "line", "malformed", "text", "used", "whole_file")

    def __init__(self, text: str, code: str | None, line: int, column: int, whole_file: bool,
                 malformed: str | None = None) -> None:
        self.text, self.code, self.line, self.column, self.whole_file = text, code, line, column, whole_file
        # NO_DIRECTIVE or EMPTY_SELECTOR: ``text`` is a whole comment that silences nothing, not a selector
        self.malformed = malformed
        self.used = False

    def selects(self, rule: str) -> bool:
        return self.code is not None and (self.code == "ALL" or rule.startswith(self.code))


def _resolve(text: str, names: dict[str, str], codes: frozenset[str]) -> str | None:
    value = text.strip().upper()
    if _SELECTOR.match(value):
        return value if len(value) < 6 or value in codes else None
    return names.get(text.strip().lower())


def _known_rules() -> tuple[dict[str, str], frozenset[str]]:
    from linter import rules

    table = rules.by_code()
    return rules.names_to_codes(), frozenset(table) | frozenset(rules.REDIRECTS)


# What _parse found: a selector of a directive (its scope), or a comment that silences nothing.
LINE, FILE, NO_DIRECTIVE, EMPTY_SELECTOR = "line", "file", "no-directive", "empty-selector"


@lru_cache(maxsize=64)
def _parse(text: str) -> tuple[tuple[int, int, str, str], ...]:
    """(line, column, selector text, LINE or FILE) for every selector in every directive, and
    (line, column, comment text, NO_DIRECTIVE or EMPTY_SELECTOR) for every comment that silences nothing."""
    found: list[tuple[int, int, str, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if "binpack-lint" not in line:
            continue
        for attempt in ATTEMPT.finditer(line):
            written = line[attempt.end():].strip()[:60]
            match = DIRECTIVE.match(line, attempt.start())
            if match is None:
                found.append((number, attempt.end() + 1, written, NO_DIRECTIVE))
                continue
            stray = STRAY_COMMA.match(line, match.end())
            if stray is not None:  # the whole directive is void: a half-read list would hide the typo
                found.append((number, stray.end(), written, EMPTY_SELECTOR))
                continue
            offset = match.start(2)
            scope = FILE if match.group(1) == "disable-file" else LINE
            for piece in re.finditer(r"[A-Za-z0-9_-]+", match.group(2)):
                found.append((number, offset + piece.start() + 1, piece.group(), scope))
    return tuple(found)


def selectors(text: str | None) -> list[Selector]:
    """Fresh selectors of every suppression comment in ``text`` (so each run tracks its own use)."""
    if not text or "binpack-lint" not in text:
        return []
    names, codes = _known_rules()
    return [Selector(raw, None, line, col, False, malformed=kind) if kind in (NO_DIRECTIVE, EMPTY_SELECTOR)
            else Selector(raw, _resolve(raw, names, codes), line, col, kind == FILE)
            for line, col, raw, kind in _parse(text)]


def _suppresses(selector: Selector, finding: Finding) -> bool:
    if not selector.selects(finding.rule):
        return False
    return selector.whole_file or finding.line in (selector.line, selector.line + 1)


class _Index:
    """A file's selectors by the lines they cover, so each finding looks only at its own (linear in findings)."""

    def __init__(self, found: list[Selector]) -> None:
        self.whole = [s for s in found if s.whole_file]
        self.by_line: dict[int, list[Selector]] = {}
        for s in found:
            if not s.whole_file:
                self.by_line.setdefault(s.line, []).append(s)
                self.by_line.setdefault(s.line + 1, []).append(s)

    def near(self, line: int) -> list[Selector]:
        return self.whole + self.by_line.get(line, [])


def apply(findings: Iterable[Finding], texts: dict[str, str],
          enabled: Callable[[str], bool], *, one_file: bool = False) -> list[Finding]:
    """The findings no comment silences, plus BPL007/BPL008 about the comments themselves.

    ``one_file``: the texts are the parts of one file (a ConfigMap's data values, each its own path), so a
    ``disable-file`` comment in any of them covers the findings of all of them, as in the manifest.
    """
    by_path: dict[str, list[Selector]] = {}
    indexes: dict[str, _Index] = {}
    if one_file:
        by_path = {path: selectors(text) for path, text in texts.items()}
        whole = [s for found in by_path.values() for s in found if s.whole_file]
        for path, found in by_path.items():
            indexes[path] = _Index(found)
            indexes[path].whole = whole
    kept: list[Finding] = []
    for finding in findings:
        if finding.path not in by_path:
            by_path[finding.path] = selectors(texts.get(finding.path))
            indexes[finding.path] = _Index(by_path[finding.path])
        hits = [s for s in indexes[finding.path].near(finding.line) if _suppresses(s, finding)]
        for s in hits:
            s.used = True
        if not hits:
            kept.append(finding)
    for path, text in texts.items():
        kept.extend(_about_comments(path, by_path.get(path) or selectors(text), enabled))
    return kept


def _about_comments(path: str, found: list[Selector], enabled: Callable[[str], bool]) -> list[Finding]:
    out: list[Finding] = []
    for s in found:
        if s.malformed == EMPTY_SELECTOR:
            if enabled(UNKNOWN_SUPPRESSION):
                out.append(Finding(path, s.line, s.column, UNKNOWN_SUPPRESSION, Severity.ERROR,
                                   f"suppression comment '{s.text}' has an empty selector in its list, so it "
                                   "silences nothing; separate the selectors with single commas "
                                   "(as in 'disable=BPL202,BPL203')"))
        elif s.malformed:
            if enabled(UNKNOWN_SUPPRESSION):
                out.append(Finding(path, s.line, s.column, UNKNOWN_SUPPRESSION, Severity.ERROR,
                                   f"suppression comment '{s.text}' is not 'disable=CODES' or 'disable-file=CODES' "
                                   "(as in '# binpack-lint: disable=BPL202'), so it silences nothing"))
        elif s.code is None:
            if enabled(UNKNOWN_SUPPRESSION):
                out.append(Finding(path, s.line, s.column, UNKNOWN_SUPPRESSION, Severity.ERROR,
                                   f"suppression comment names {s.text!r}, which is no rule code, prefix, rule name "
                                   "or 'all', so it silences nothing; fix it (see 'binpack-lint rules')"))
        elif not s.used and s.code != "ALL" and enabled(UNUSED_SUPPRESSION) and enabled(s.code):
            scope = "in this file" if s.whole_file else "on this line or the next"
            out.append(Finding(path, s.line, s.column, UNUSED_SUPPRESSION, Severity.WARNING,
                               f"suppression of {s.text} silenced nothing: no {s.code} finding {scope}; "
                               "remove it (or the code) so it cannot hide a future finding"))
    return out


def is_suppressed(finding: Finding, text: str | None) -> bool:
    """True when a comment in ``text`` (the finding's file) silences this finding."""
    return finding.rule not in _COMMENT_CODES and any(_suppresses(s, finding) for s in selectors(text))
