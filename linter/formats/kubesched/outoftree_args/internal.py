"""The internal (``apis/config``) args structs as ``json.Marshal`` writes them, for ``field.Invalid`` values.

The internal types have no json tags, so their keys are the Go field names in declaration order, every
field is written (zero values included) and the empty ``TypeMeta`` (cleared by the conversion) adds
nothing. Only the kinds a queue sort plugin of the build takes are listed: Coscheduling and
TopologicalSort, the ones ``validateCommonQueueSort`` prints when two profiles' args differ.
"""

from __future__ import annotations

from typing import Any

from linter.gofmt import go_json

# kind -> (Go field name, v1 json key) in declaration order
_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "Coscheduling": (("PermitWaitingTimeSeconds", "permitWaitingTimeSeconds"),
                     ("PodGroupBackoffSeconds", "podGroupBackoffSeconds"),
                     ("PodGroupRejectPercentage", "podGroupRejectPercentage")),
    "TopologicalSort": (("Namespaces", "namespaces"),),
}


def internal_json(name: str, args: dict[str, Any]) -> str | None:
    """``json.Marshal`` of the defaulted internal args of plugin ``name``; None for a kind not listed."""
    fields = _FIELDS.get(name)
    if fields is None:
        return None
    return go_json({go: args.get(key) for go, key in fields}, sort=False)
