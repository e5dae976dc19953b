"""A key appears twice in the same mapping of a PriorityClass manifest.

What it does:
    Reports the second (and later) occurrence of a key in one mapping.

Why it matters:
    Only the last value is kept, so the first one is silently ignored, e.g. a ``value``
    the author reads at the top of the file is not the one the cluster gets.

Example (fails):
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: batch-high
    value: 1000
    value: 10

Use instead (passes):
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: batch-high
    value: 1000
"""

from collections.abc import Iterator

from linter.findings import Severity, Violation
from linter.formats.priorityclass import codes
from linter.formats.priorityclass.handler import PriorityClassContext

CODE = codes.DUPLICATE_KEY
NAME = "priorityclass-duplicate-key"
SUMMARY = "duplicate key in a PriorityClass (the last value wins)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"priorityclass"})


def check(ctx: PriorityClassContext) -> Iterator[Violation]:
    for dup in ctx.document.duplicate_keys:
        first_line = ctx.document.map(dup.first_line, 1)[0]
        yield Violation(f"duplicate key {dup.key!r} (first on line {first_line}); the last value wins",
                        position=(dup.line, dup.column))
