"""A key written twice in one mapping, reported the same way by every format that keeps the last value.

Go's yaml.v2 and the JSON decoders the formats use keep the last value of a duplicate key
silently; the formats differ only in what they say happens next. A key a merge key (``<<``)
stores into a mapping that already holds it counts too: yaml.v2 merges in place, in document
order, so whichever of the two comes later wins (:mod:`linter.mergekeys`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from linter.findings import Violation
from linter.source import Document, Pointer

LAST_VALUE_WINS = "the last value wins"


def duplicate_keys(document: Document, consequence: str = LAST_VALUE_WINS, *,
                   merged_maps: Callable[[Pointer, str], bool] | None = None,
                   merged_consequence: str = "") -> Iterator[Violation]:
    """One Violation per repeated key, at the repeat (or the ``<<`` that repeats it), naming the line of
    the first one. An alias repeats its anchor's duplicates; each is reported once. ``merged_maps``
    says which keys are map fields whose repeats ``merged_consequence`` describes instead."""
    seen: set[tuple[int, int, str, int]] = set()
    for dup in document.duplicate_keys:
        if (spot := (dup.line, dup.column, dup.key, dup.go_line)) in seen:
            continue
        seen.add(spot)
        first_line = document.map(dup.first_line, 1)[0]
        if merged_maps is not None and merged_maps(dup.pointer, dup.key):
            consequence_here = merged_consequence
        else:
            consequence_here = consequence
        if dup.merge_line:
            text = f"the merge key '<<' sets {dup.key!r} again (first on line {first_line}); {consequence_here}"
        else:
            text = f"duplicate key {dup.key!r} (first on line {first_line}); {consequence_here}"
        yield Violation(text, position=(dup.line, dup.column))
