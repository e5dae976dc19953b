"""A key appears twice in one mapping of a legacy Policy.

What it does:
    Reports the second (and later) occurrence of a key in the same JSON object or YAML mapping.

Why it matters:
    The decoder kept the last value silently; the first one a reader sees is not the one used.

Example (fails):
    {"kind": "Policy", "apiVersion": "v1",
     "priorities": [{"name": "MostRequestedPriority", "weight": 1, "weight": 5}]}

Use instead (passes):
    {"kind": "Policy", "apiVersion": "v1",
     "priorities": [{"name": "MostRequestedPriority", "weight": 5}]}
"""

from collections.abc import Iterator

from linter.findings import Severity, Violation
from linter.formats.policy import codes
from linter.formats.policy.handler import PolicyContext

CODE = codes.DUPLICATE_KEY
NAME = "legacy-policy-duplicate-key"
SUMMARY = "duplicate key in a legacy Policy (the last value wins)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"legacy-policy"})


def check(ctx: PolicyContext) -> Iterator[Violation]:
    for dup in ctx.document.duplicate_keys:
        first_line = ctx.document.map(dup.first_line, 1)[0]
        yield Violation(f"duplicate key {dup.key!r} (first on line {first_line}); the last value wins",
                        position=(dup.line, dup.column))
