"""PLACEHOLDER for the priorityclass format handler (being written; replace this whole file)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from linter.model import SchedulerModel
from linter.source import Document


@dataclass
class Context:
    document: Document
    model: SchedulerModel | None = None
    kind: str = "priorityclass"


class _Handler:
    kind = "priorityclass"

    def matches(self, data: Any) -> bool:
        return False

    def analyze(self, document: Document) -> Context:
        return Context(document)


HANDLER = _Handler()
