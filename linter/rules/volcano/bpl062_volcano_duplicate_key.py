"""A key appears twice in one mapping of a Volcano conf.

What it does:
    Reports the second (and later) occurrence of a key in the same mapping.

Why it matters:
    yaml.v2 (non-strict, as Volcano uses it) keeps the last value without a word, so the
    first ``binpack.weight`` a reader sees may not be the one Volcano uses.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.weight: 10
          binpack.weight: 1

Use instead (passes):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.weight: 10
"""

from collections.abc import Iterator

from linter.findings import Severity, Violation
from linter.formats.volcano import codes
from linter.formats.volcano.handler import VolcanoContext

CODE = codes.DUPLICATE_KEY
NAME = "volcano-duplicate-key"
SUMMARY = "duplicate key in a Volcano conf (the last value wins)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})


def check(ctx: VolcanoContext) -> Iterator[Violation]:
    for dup in ctx.document.duplicate_keys:
        first_line = ctx.document.map(dup.first_line, 1)[0]
        yield Violation(f"duplicate key {dup.key!r} (first on line {first_line}); Volcano keeps the last value",
                        position=(dup.line, dup.column))
