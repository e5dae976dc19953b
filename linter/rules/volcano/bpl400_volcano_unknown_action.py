"""An ``actions`` entry names no Volcano action: Volcano rejects the whole file.

What it does:
    Splits ``actions`` on commas as Volcano does and checks each trimmed piece against
    ``enqueue, allocate, backfill, preempt, reclaim, shuffle, gangpreempt, gangreclaim``.
    The message carries Volcano's own error, ``failed to find Action <piece>``, where the
    piece is *untrimmed* (``"enqueue, allocate, bakfill"`` gives two spaces before
    ``bakfill``). An empty piece (trailing comma, or no ``actions`` at all) is an error too.

Why it matters:
    Volcano logs the error and keeps its previous configuration (at start-up the built-in
    default ``enqueue, allocate, backfill`` with no binpack), so the file silently has no effect.

Example (fails):
    actions: "enqueue, allocate, bakfill"
    tiers:
    - plugins:
      - name: binpack

Use instead (passes):
    actions: "enqueue, allocate, backfill"
    tiers:
    - plugins:
      - name: binpack
"""

from collections.abc import Iterator

from linter.findings import Severity, Violation
from linter.formats.volcano import codes
from linter.formats.volcano.handler import VolcanoContext

CODE = codes.UNKNOWN_ACTION
NAME = "volcano-unknown-action"
SUMMARY = "unknown action: Volcano rejects the file"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"volcano"})


def check(ctx: VolcanoContext) -> Iterator[Violation]:
    if ctx.unmarshal:  # the file never gets this far; BPL060 says why
        return
    data = ctx.document.data if isinstance(ctx.document.data, dict) else {}
    pointer = ("actions",) if "actions" in data else ()
    for piece in ctx.actions:
        if piece.known:
            continue
        why = "an empty action name" if not piece.name else f"{piece.name!r} is not an action"
        yield Violation(f"Volcano rejects this file and keeps its previous configuration: failed to find Action "
                        f"{piece.raw} ({why})", pointer)
