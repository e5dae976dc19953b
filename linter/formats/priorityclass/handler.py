"""The PriorityClass format: recognise ``kind: PriorityClass`` and check it once for its rules.

The validation itself (API server texts) lives in :mod:`linter.formats.priorityclass.validate`; this module
runs it and the JSON Schema (``schemas/priorityclass-v1.json``) over one document and keeps
the results, with the JSON pointer each error belongs to, on the context.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from linter import schema
from linter.formats.priorityclass import validate as priorityclass
from linter.model import SchedulerModel
from linter.source import Document, Pointer

KIND = "priorityclass"
SCHEMA_NAME = "priorityclass-v1"


@dataclass
class PriorityClassContext:
    """One PriorityClass manifest, checked. ``model`` is always None (it is not a scheduler config)."""

    document: Document
    model: SchedulerModel | None = None
    kind: str = KIND
    schema_errors: list[schema.SchemaError] = field(default_factory=list)
    field_errors: list[priorityclass.Located] = field(default_factory=list)  # with the manifest path

    @property
    def data(self) -> dict[str, Any]:
        return self.document.data if isinstance(self.document.data, dict) else {}

    @property
    def name(self) -> str:
        """``metadata.name`` as written; ``""`` for a class named only by ``generateName``."""
        return priorityclass.name_of(self.data)

    @property
    def effective_name(self) -> str:
        """The name the API server would store (a generated one shown as ``<generateName>xxxxx``)."""
        return priorityclass.effective_name(self.data)

    @property
    def is_global_default(self) -> bool:
        return priorityclass.is_global_default(self.data)

    @property
    def would_be_created(self) -> bool:
        """kubectl sends it and the API server validates it: no apiVersion/type/field error of its own."""
        return "apiVersion" in self.data and not self.schema_errors and not self.field_errors


def field_pointer(path: str) -> Pointer:
    """``metadata.name`` -> ``("metadata", "name")`` (PriorityClass field paths have no indexes)."""
    return tuple(path.split("."))


class PriorityClassHandler:
    kind = KIND

    def matches(self, data: Any) -> bool:
        return isinstance(data, dict) and data.get("kind") == "PriorityClass"

    def analyze(self, document: Document) -> PriorityClassContext:
        ctx = PriorityClassContext(document)
        ctx.schema_errors = schema.validate(document, SCHEMA_NAME)
        # the API server validates only what it could decode: a type error stops it first
        if isinstance(document.data, dict) and not any(not e.key for e in ctx.schema_errors):
            ctx.field_errors = priorityclass.validate_create_located(document.data)
        return ctx


HANDLER = PriorityClassHandler()
