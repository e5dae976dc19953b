"""Format handlers, in detection order, and the lookup the engine uses."""

from __future__ import annotations

from typing import Any

from linter.formats.base import FormatHandler
from linter.formats.kubesched import HANDLER as KUBE_SCHEDULER
from linter.formats.policy import HANDLER as LEGACY_POLICY
from linter.formats.priorityclass import HANDLER as PRIORITY_CLASS
from linter.formats.volcano import HANDLER as VOLCANO

HANDLERS: tuple[FormatHandler, ...] = (KUBE_SCHEDULER, LEGACY_POLICY, PRIORITY_CLASS, VOLCANO)


def handler_for(data: Any, forced_kind: str | None = None) -> FormatHandler | None:
    """The handler for a document: the forced one, else the first whose ``matches`` says yes."""
    if forced_kind:
        return next((h for h in HANDLERS if h.kind == forced_kind), None)
    return next((h for h in HANDLERS if h.matches(data)), None)
