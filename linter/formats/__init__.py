"""The format wings (one sub-package per document format) and the lookup the engine uses.

Every wing has the same shape: ``handler`` (detects the format, builds the context its rules
read), ``codes`` (its rule codes, each string written there only), and its decoding and
validation modules. Wings never import each other nor ``linter.rules`` (import-linter holds
that); what they share lives below them (``linter.source``, ``linter.findings``, ``linter.gofmt``,
``linter.goint`` ...). The rule modules in ``linter.rules.<format>`` import their wing.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from linter.formats.base import FormatHandler
from linter.formats.kubesched.builds import resolve
from linter.formats.kubesched.handler import HANDLER as KUBE_SCHEDULER
from linter.formats.kubesched.handler import KubeSchedulerHandler
from linter.formats.policy import handler as policy
from linter.formats.policy import schedpod
from linter.formats.priorityclass.handler import HANDLER as PRIORITY_CLASS
from linter.formats.volcano import handler as volcano

HANDLERS: tuple[FormatHandler, ...] = (KUBE_SCHEDULER, policy.HANDLER, PRIORITY_CLASS, volcano.HANDLER,
                                       schedpod.HANDLER)


# ConfigMap data keys that name their format whatever the content looks like (the key the
# consumer reads: Volcano's helm chart, kube-scheduler 1.22's --policy-configmap).
KIND_BY_EMBEDDED_KEY = {volcano.CONFIGMAP_KEY: volcano.KIND, policy.CONFIGMAP_KEY: policy.KIND}


def handler_for(data: Any, forced_kind: str | None = None, embedded_key: str | None = None, *,
                scheduler: str = "kube-scheduler",
                custom_plugins: tuple[tuple[str, tuple[str, ...]], ...] = ()) -> FormatHandler | None:
    """The handler for a document: the forced one, else the first whose ``matches`` says yes,
    else the one its ConfigMap data key names. A kube-scheduler config is judged for the build
    ``scheduler`` plus ``custom_plugins``."""
    found = _handler_for(data, forced_kind, embedded_key)
    if found is KUBE_SCHEDULER and (scheduler != "kube-scheduler" or custom_plugins):
        return _kube_scheduler_handler(scheduler, custom_plugins)
    return found


@lru_cache(maxsize=16)
def _kube_scheduler_handler(scheduler: str, custom_plugins: tuple[tuple[str, tuple[str, ...]], ...]) -> FormatHandler:
    return KubeSchedulerHandler(resolve(scheduler, custom_plugins))


def _handler_for(data: Any, forced_kind: str | None, embedded_key: str | None) -> FormatHandler | None:
    if forced_kind:
        return next((h for h in HANDLERS if h.kind == forced_kind), None)
    found = next((h for h in HANDLERS if h.matches(data)), None)
    if found is None and embedded_key in KIND_BY_EMBEDDED_KEY:
        return next((h for h in HANDLERS if h.kind == KIND_BY_EMBEDDED_KEY[embedded_key]), None)
    return found
