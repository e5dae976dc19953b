"""What Volcano's loader sees before yaml.v2 decodes anything: the whitespace-trimmed first document.

Volcano passes ``strings.TrimSpace(file)`` to yaml.v2's ``Unmarshal``, which decodes only the first
YAML document. Two real-world consequences the ordinary parse of the file cannot show:

* a conf indented as a whole (pasted from a markdown list, or a ConfigMap value with extra
  indentation) loses the indentation of its first line only, so its second top-level key is now
  deeper than the first: invalid YAML for Volcano although the file itself parses;
* anything after the first document (``...`` or ``---``) never counts.

``trimmed_syntax_error`` gives yaml.v2's exact error text for the first case, with yaml.v2's own
line arithmetic (``fail()`` in gopkg.in/yaml.v2 decode.go: a parser error reports the 0-based line
of its problem mark, a scanner error that line + 1, a problem on the first line the context's line).
"""

from __future__ import annotations

from dataclasses import dataclass

import yaml

from linter.scoring.volcano import go_trim_space

try:  # libyaml: the same C parser yaml.v2 was ported from, so the same problem texts and marks
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]


@dataclass(frozen=True)
class TrimError:
    """yaml.v2's error for the trimmed text and where its problem is in the untrimmed text (1-based)."""

    message: str
    line: int
    column: int


def trimmed_syntax_error(text: str) -> TrimError | None:
    """yaml.v2's syntax error for Volcano's view of ``text``, or None when its first document parses."""
    start = next((i for i, ch in enumerate(text) if go_trim_space(ch)), len(text))
    if start == text.rfind("\n", 0, start) + 1:
        return None  # the first line is not indented: trimming cannot change how the text parses
    trimmed = go_trim_space(text)
    try:
        for event in yaml.parse(trimmed, Loader=_Loader):
            if isinstance(event, yaml.DocumentEndEvent):
                return None
    except yaml.MarkedYAMLError as exc:
        return _error(text, trimmed, exc)
    return None


def _error(text: str, trimmed: str, exc: yaml.MarkedYAMLError) -> TrimError:
    mark, context = exc.problem_mark, exc.context_mark
    line = 0
    if mark is not None and mark.line != 0:
        line = mark.line + (1 if isinstance(exc, yaml.scanner.ScannerError) else 0)
    elif context is not None and context.line != 0:
        line = context.line
    where = f"line {line}: " if line else ""
    message = f"yaml: {where}{exc.problem or 'unknown problem parsing YAML content'}"
    # map the mark back: lines removed at the top, and the first kept line's removed indentation
    start = next((i for i, ch in enumerate(text) if go_trim_space(ch)), len(text))
    head = text[:start]
    removed_lines = head.count("\n")
    removed_columns = len(head) - (head.rfind("\n") + 1)
    row = (mark.line if mark else 0)
    col = (mark.column if mark else 0) + (removed_columns if row == 0 else 0)
    return TrimError(message, row + 1 + removed_lines, col + 1)

