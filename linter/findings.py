"""Findings: the frozen records every check produces and every reporter consumes.

A check reports a :class:`Violation` (what, and where as a JSON pointer into its document);
the engine turns it into a :class:`Finding` (file, 1-based line and column as editors and
SARIF count them, rule code, severity). ``Finding.as_text`` is the one-line rendering every
text output uses.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from linter.source import Pointer

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class Severity(enum.Enum):
    """How bad a finding is. Only ``ERROR`` makes the exit code 1 (``WARNING`` too under --strict)."""

    ERROR = "error"
    WARNING = "warning"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Violation:
    """A check's report: the message and where, as a JSON pointer into the document.

    ``position`` (document-local 1-based line, column) overrides the pointer when a check knows
    a more exact place (e.g. a duplicate key). ``severity`` overrides the rule's default for
    rules whose severity depends on the case.
    """

    message: str
    pointer: Pointer = ()
    on_key: bool = False
    position: tuple[int, int] | None = None
    severity: Severity | None = None
    detail: str = ""  # the program's verbatim text when the message is a readable summary of it


@dataclass(frozen=True, order=True)
class Finding:
    """One problem at one place. Field order is the sort order: path, then position."""

    path: str
    line: int
    column: int
    rule: str
    severity: Severity
    message: str
    detail: str = ""  # verbatim program text (may span lines); shown after the message, never instead
    fixable: bool = False  # `binpack-lint --fix` can repair it (set by the lint command, linter.fixes)

    def as_dict(self) -> dict[str, object]:
        fields: dict[str, object] = {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "rule": self.rule,
            "severity": self.severity.value,
            "message": self.message,
        }
        if self.detail:
            fields["detail"] = self.detail
        if self.fixable:  # only then, so a consumer of the older format sees the same keys
            fields["fixable"] = True
        return fields

    def as_text(self) -> str:
        """``path:line:col: severity [BPLnnn] message``: the one line every text output prints. The path
        is escaped like the message: a file name may hold a line break or a terminal escape too. A finding
        ``--fix`` can repair has ``[*]`` before its message, as in ruff."""
        where = f"{one_line(self.path)}:{self.line}:{self.column}"
        mark = "[*] " if self.fixable else ""
        return f"{where}: {self.severity.value} [{self.rule}] {mark}{one_line(self.message)}"

    def as_text_block(self) -> str:
        """``as_text`` followed by the detail, if any, as indented continuation lines."""
        return "\n".join([self.as_text(), *(DETAIL_INDENT + line for line in detail_lines(self.detail))])


DETAIL_INDENT = "    "


def detail_lines(detail: str) -> list[str]:
    """The detail as printable continuation lines (each control character escaped as in ``one_line``)."""
    return [one_line(line) for line in detail.replace("\r\n", "\n").replace("\r", "\n").split("\n")] if detail else []


def one_line(text: str) -> str:
    """A message as one printable line: a line break becomes the two characters ``\\n`` and other
    control characters ``\\xNN``, so file content quoted in a message cannot split a line or
    send escape sequences to the terminal."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
