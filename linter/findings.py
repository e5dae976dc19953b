"""Findings: the frozen records every check produces and every reporter consumes.

Positions are 1-based (line and column), as editors and SARIF count them. The
engine stamps ``rule`` and ``severity``; checks only say *what* and *where*.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Severity(enum.Enum):
    """How bad a finding is. Only ``ERROR`` makes the exit code 1 (``WARNING`` too under --strict)."""

    ERROR = "error"
    WARNING = "warning"

    def __str__(self) -> str:
        return self.value


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
