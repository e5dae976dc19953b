"""Format handlers, in detection order, and the lookup the engine uses."""

from __future__ import annotations

from typing import Any

from linter.formats.base import FormatHandler
from linter.formats.kubesched.handler import HANDLER as KUBE_SCHEDULER
from linter.formats.policy.handler import HANDLER as LEGACY_POLICY
from linter.formats.priorityclass.handler import HANDLER as PRIORITY_CLASS
from linter.formats.volcano.handler import HANDLER as VOLCANO

HANDLERS: tuple[FormatHandler, ...] = (KUBE_SCHEDULER, LEGACY_POLICY, PRIORITY_CLASS, VOLCANO)


# ConfigMap data keys that name their format whatever the content looks like (the key the
# consumer reads: Volcano's helm chart, kube-scheduler 1.22's --policy-configmap).
KIND_BY_EMBEDDED_KEY = {"volcano-scheduler.conf": "volcano", "policy.cfg": "legacy-policy"}


def handler_for(data: Any, forced_kind: str | None = None, embedded_key: str | None = None) -> FormatHandler | None:
    """The handler for a document: the forced one, else the first whose ``matches`` says yes,
    else the one its ConfigMap data key names."""
    if forced_kind:
        return next((h for h in HANDLERS if h.kind == forced_kind), None)
    found = next((h for h in HANDLERS if h.matches(data)), None)
    if found is None and embedded_key in KIND_BY_EMBEDDED_KEY:
        return next((h for h in HANDLERS if h.kind == KIND_BY_EMBEDDED_KEY[embedded_key]), None)
    return found
