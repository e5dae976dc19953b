"""An ``actions`` entry names no Volcano action: Volcano rejects the whole file.

What it does:
    Splits ``actions`` on commas as Volcano does and checks each trimmed piece against
    ``enqueue, allocate, backfill, preempt, reclaim, shuffle, gangpreempt, gangreclaim``.
    The message carries Volcano's own error, ``failed to find Action <piece>``, where the
    piece is *untrimmed* (``"enqueue, allocate, bakfill"`` gives two spaces before
    ``bakfill``). An empty piece (trailing comma, or no ``actions`` at all) is an error too.
    Each piece is reported at its own column when ``actions`` is a plain or quoted scalar on
    one line (an empty piece: where its name would start); otherwise (a block or multi-line
    scalar, a tag or an anchor before it, an empty value) at the start of the scalar.

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

from linter.findings import Severity
from linter.formats.volcano import checks, codes

CODE = codes.UNKNOWN_ACTION
NAME = "volcano-unknown-action"
SUMMARY = "unknown action: Volcano rejects the file"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"volcano"})

check = checks.unknown_action
