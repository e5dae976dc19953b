"""Findings: the frozen records every check produces and every reporter consumes.

A check reports a :class:`Violation` (what, and where as a JSON pointer into its document);
the engine turns it into a :class:`Finding` (file, 1-based line and column as editors and
SARIF count them, rule code, severity). ``Finding.as_text`` is the one-line rendering every
text output uses.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from linter.source import Pointer


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


@dataclass(frozen=True, order=True)
class Finding:
    """One problem at one place. Field order is the sort order: path, then position."""

    path: str
    line: int
    column: int
    rule: str
    severity: Severity
    message: str

    def as_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "rule": self.rule,
            "severity": self.severity.value,
            "message": self.message,
        }
