"""The PriorityClass documents of one run applied in order, as ``kubectl apply -f`` sends them to
kube-apiserver 1.36 (BPL500, BPL501 and BPL503 read the outcome).

The cluster starts with the two built-in classes (the API server creates them at start-up). A
document whose name exists is an *update*: kubectl sends a three-way patch, so a field the document
omits keeps the stored value unless the previous apply from these files set it (then it is removed
and defaulted). An update runs the update validation (422) and then the Priority admission plugin's
one-default check (403); a create runs the create validation and then the same check. Only a
document kubectl sends, the API server decodes and both checks let through is stored.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from linter.formats.priorityclass.handler import PriorityClassContext, field_pointer
from linter.formats.priorityclass.validate import BUILTIN_CLASSES, apply_defaults, is_global_default, validate_update
from linter.gofmt import FieldError
from linter.source import Pointer

_PATCHED_FIELDS = ("value", "globalDefault", "preemptionPolicy", "description")


@dataclass(frozen=True)
class Applied:
    """One document's outcome. ``updates`` is the document of these files that first made the class
    exist (None: a create, or an update of a built-in class not applied from these files before)."""

    ctx: PriorityClassContext
    is_update: bool
    updates: PriorityClassContext | None
    invalid: tuple[tuple[FieldError, Pointer], ...]  # the 422 field errors (create or update validation), located
    blocked_by: PriorityClassContext | None  # the stored default whose globalDefault refuses it (403)

    @property
    def sent(self) -> bool:
        """kubectl sends it (it has an apiVersion) and the API server decodes it (no type or unknown field)."""
        return "apiVersion" in self.ctx.data and not self.ctx.schema_errors

    @property
    def decodable(self) -> bool:
        """Whether its validation is judged: unknown fields aside (their own finding), as for a create."""
        return _decodable(self.ctx)

    @property
    def stored(self) -> bool:
        return self.sent and not self.invalid and self.blocked_by is None


def applied_in_order(contexts: Iterable[PriorityClassContext]) -> Iterator[Applied]:
    live: dict[str, Mapping[str, Any]] = {
        b.name: {"metadata": {"name": b.name}, "value": b.value, "preemptionPolicy": b.preemption_policy}
        for b in BUILTIN_CLASSES}
    last_applied: dict[str, Mapping[str, Any]] = {}  # what kubectl records of the previous accepted apply
    first: dict[str, PriorityClassContext] = {}
    default: PriorityClassContext | None = None  # the document whose globalDefault made the current default
    for ctx in contexts:
        name = ctx.name  # generateName alone: a new class every time
        old = live.get(name) if name else None
        invalid: tuple[tuple[FieldError, Pointer], ...]
        if old is None:
            new: Mapping[str, Any] = apply_defaults(ctx.data)
            invalid = tuple(ctx.field_errors)
        else:
            new = _patched(old, last_applied.get(name), ctx.data)
            invalid = tuple((e, field_pointer(e.field)) for e in validate_update(old, new)) if _decodable(ctx) else ()
        blocked = None
        if not invalid and default is not None and is_global_default(new):
            # create: any default refuses it; update: one that is not this class
            blocked = default if old is None or default.name != name else None
        outcome = Applied(ctx, old is not None, first.get(name) if name else None, invalid, blocked)
        yield outcome
        if not outcome.stored:
            continue
        if name:
            live[name], last_applied[name] = new, ctx.data
            first.setdefault(name, ctx)
        updated_default = outcome.is_update and default is not None and default.name == name
        if is_global_default(new):
            default = default if updated_default else ctx  # an update keeps the line that made it default
        elif updated_default:
            default = None  # an update to globalDefault false gives the default up


def _decodable(ctx: PriorityClassContext) -> bool:
    return not any(not e.key for e in ctx.schema_errors)


def _patched(live: Mapping[str, Any], last_applied: Mapping[str, Any] | None,
             manifest: Mapping[str, Any]) -> dict[str, Any]:
    """The object kubectl apply's three-way patch makes of ``live``: a field the manifest sets wins; one it
    sets to null, or omits while the previous apply set it, is removed; any other is kept; then v1 defaulting."""
    out = dict(live)
    out["metadata"] = manifest.get("metadata")
    for key in _PATCHED_FIELDS:
        if manifest.get(key) is not None:
            out[key] = manifest[key]
        elif key in manifest or (last_applied is not None and key in last_applied):
            out.pop(key, None)  # an explicit null is a deletion too
    return apply_defaults(out)
