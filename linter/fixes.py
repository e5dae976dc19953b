"""``--fix``: safe, exact repairs of findings, applied to a file's text.

Only one fix exists, and only one kind of fix is allowed: one that cannot change what kube-scheduler,
Volcano or the API server read from the file. BPL008 (an unused suppression, like ruff's RUF100) is
fixed by dropping the unused selectors from their directive, or the whole directive comment when none
of its selectors is used (the rest of the line stays; a line left blank is removed). Nothing but the
fixed lines changes.

Every plan is checked before it is offered (:func:`plan`): the fixed text must parse to the same
documents as the original (a ConfigMap value under a config-file key to the same embedded documents,
any other value to the same text), and linting it must give
the same findings, moved by the removed lines, except the fixed ones. A plan that fails the check is
retried keeping emptied lines (so no line moves); if that fails too, the file is left alone and its
findings are not marked fixable. So a "comment" that is really inside a quoted string, a JSON config
that a comment made invalid, or a removed line that would move another comment's reach is never
touched.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from linter.filecodes import UNUSED_SUPPRESSION
from linter.findings import Finding
from linter.settings import LintSettings
from linter.suppress import ATTEMPT, DIRECTIVE, STRAY_COMMA
from linter.unwrap import CONFIG_KEY_SUFFIXES

FIXABLE = frozenset({UNUSED_SUPPRESSION})
_SELECTOR_PIECE = re.compile(r"[A-Za-z0-9_-]+")


@dataclass(frozen=True)
class FilePlan:
    """The fixed text of one file and the findings the fix repairs."""

    path: str
    original: str
    text: str
    fixed: frozenset[Finding]
    bom: bool = False  # the file starts with a UTF-8 BOM (not part of ``original`` or ``text``)


def plan(text: str, path: str, findings: Iterable[Finding], settings: LintSettings) -> FilePlan | None:
    """The checked fix of ``findings`` (those of ``path`` in this run) in ``text``, or None.

    Only findings that linting ``text`` on its own reports too are fixed: a suppression that a
    cross-file rule's finding used in the run is never removed, whatever one file alone says.
    """
    from linter.engine import lint_text

    wanted = {f for f in findings if f.rule in FIXABLE and f.path == path}
    if not wanted:
        return None
    before = lint_text(text, path, settings)
    chosen = wanted & set(before)
    if not chosen:
        return None
    for drop_blank_lines in (True, False):
        fixed, removed = _edit(text, chosen, drop_blank_lines=drop_blank_lines)
        if fixed != text and _same_meaning(text, fixed, path, before, chosen, removed, settings):
            return FilePlan(path, text, fixed, frozenset(chosen))
    return None


# --- editing -------------------------------------------------------------------------------

def _edit(text: str, unused: set[Finding], *, drop_blank_lines: bool) -> tuple[str, list[int]]:
    """``text`` without the unused selectors, and the (1-based) numbers of the lines removed."""
    columns: dict[int, set[int]] = {}
    for f in unused:
        columns.setdefault(f.line, set()).add(f.column)
    lines = text.splitlines(keepends=True)  # the numbering suppress.py uses
    removed: list[int] = []
    for number, cols in columns.items():
        if number > len(lines):
            continue
        line = lines[number - 1]
        body = line.rstrip("\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
        ending = line[len(body):]
        new_body = _edit_line(body, cols)
        if new_body == body:
            continue
        if not new_body.strip() and body.strip():
            if drop_blank_lines:
                lines[number - 1] = ""
                removed.append(number)
                continue
            new_body = ""
        lines[number - 1] = new_body + ending
    return "".join(lines), sorted(removed)


def _edit_line(body: str, unused_columns: set[int]) -> str:
    """One line with the selectors at ``unused_columns`` (1-based) dropped, right to left."""
    attempts = list(ATTEMPT.finditer(body))
    for index in reversed(range(len(attempts))):
        start = attempts[index].start()
        match = DIRECTIVE.match(body, start)
        if match is None or STRAY_COMMA.match(body, match.end()):
            continue  # no directive (BPL007): never reported as unused
        pieces = list(_SELECTOR_PIECE.finditer(body, match.start(2), match.end(2)))
        kept = [p for p in pieces if p.start() + 1 not in unused_columns]
        if len(kept) == len(pieces):
            continue
        if kept:
            body = body[:match.start(2)] + _joined(body, pieces, kept) + body[match.end(2):]
            continue
        # the whole directive goes: up to the next comment attempt left on the line, else with its reason
        # to the end of the line, and the blanks in front of it
        after = ATTEMPT.search(body, match.end())
        body = body[:start] + body[after.start():] if after else body[:start].rstrip(" \t")
    return body


def _joined(body: str, pieces: list[re.Match[str]], kept: list[re.Match[str]]) -> str:
    """The kept selectors, each after the separator that was written before it (the first after none)."""
    out = kept[0].group()
    for piece in kept[1:]:
        previous = pieces[pieces.index(piece) - 1]
        out += body[previous.end():piece.start()] + piece.group()
    return out


# --- checking ------------------------------------------------------------------------------

def _same_meaning(text: str, fixed: str, path: str, before: list[Finding], chosen: set[Finding],
                  removed: list[int], settings: LintSettings) -> bool:
    from linter.engine import lint_text

    if _documents(text, path) != _documents(fixed, path):
        return False

    def moved(line: int) -> int:
        return line - sum(1 for r in removed if r < line)

    expected = {(moved(f.line), f.column, f.rule, f.severity, f.message, f.detail)
                for f in before if f not in chosen}
    after = {(f.line, f.column, f.rule, f.severity, f.message, f.detail) for f in lint_text(fixed, path, settings)}
    return expected == after


def _documents(text: str, path: str) -> Any:
    """What a reader can get out of ``text``: every YAML document's data (typed, so 1, 1.0 and true
    differ; a ConfigMap's string values as their own documents), or the text itself when it does not
    parse or is JSON (a JSON reader has no comments: any change would change what it reads)."""
    from linter.jsondocument import is_json_buffer
    from linter.source import parse_stream

    if is_json_buffer(text):
        return ("text", text)
    documents, error = parse_stream(text, path, is_json=path.endswith(".json"))
    if error is not None:
        return ("text", text)
    return [_typed(doc.data) for doc in documents]


def _typed(value: Any) -> Any:
    if isinstance(value, dict):
        configmap = value.get("kind") == "ConfigMap" and isinstance(value.get("data"), dict)
        return ("map", [(_typed(k), _typed(v)) for k, v in value.items()] if not configmap else
                [(_typed(k), _configmap_data(v) if k == "data" else _typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [_typed(v) for v in value])
    return (type(value).__name__, value)


def _configmap_data(data: dict[Any, Any]) -> Any:
    """A value under a config-file key as the documents its reader gets; any other value (a script, a note:
    data a pod reads, comments and all) as it is."""
    return ("data", [(_typed(k), _documents(v, str(k)) if isinstance(v, str) and str(k).endswith(CONFIG_KEY_SUFFIXES)
                      else _typed(v)) for k, v in data.items()])
