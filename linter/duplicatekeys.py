"""A key written twice in one mapping, reported the same way by every format that keeps the last value.

Go's yaml.v2 and the JSON decoders the formats use keep the last value of a duplicate key
silently; the formats differ only in what they say happens next.
"""

from __future__ import annotations

from collections.abc import Iterator

from linter.findings import Violation
from linter.source import Document

LAST_VALUE_WINS = "the last value wins"


def duplicate_keys(document: Document, consequence: str = LAST_VALUE_WINS) -> Iterator[Violation]:
    """One Violation per repeated key, at the repeat, naming the line of the first one."""
    for dup in document.duplicate_keys:
        first_line = document.map(dup.first_line, 1)[0]
        yield Violation(f"duplicate key {dup.key!r} (first on line {first_line}); {consequence}",
                        position=(dup.line, dup.column))
