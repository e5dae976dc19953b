"""The interface every document format (kube-scheduler, legacy Policy, Volcano, PriorityClass) implements."""

from __future__ import annotations

from typing import Any, Protocol

from linter.model import SchedulerModel
from linter.source import Document


class FormatContext(Protocol):
    """What a format's ``analyze`` returns and its rules' ``check`` receive.

    ``model`` is the effective scheduler model when the document is a scheduler config whose
    checks found no error (None otherwise, and always None for PriorityClasses).
    """

    document: Document
    model: SchedulerModel | None


class FormatHandler(Protocol):
    kind: str

    def matches(self, data: Any) -> bool:
        """True when a parsed document is of this format (used when ``--kind`` is not given)."""
        ...

    def analyze(self, document: Document) -> FormatContext:
        """Decode the document once; rules then read the result from the context."""
        ...
