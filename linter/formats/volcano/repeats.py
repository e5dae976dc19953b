"""The values a key of a conf mapping held before its last one, for yaml.v2's type errors.

yaml.v2 (non-strict) decodes every store of a repeated key into the struct field, one after the
other, so each store that does not fit the field's Go type is a type error of its own
(``enableNodeOrder: 1`` followed by ``enableNodeOrder: true`` is still refused), although the
parsed document keeps only the last value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from linter.source import Document, Pointer

_TOKEN = re.compile(r"[^\s,\]\}#]+")


@dataclass(frozen=True)
class EarlierStore:
    line: int  # 1-based, in the document's own text
    value: Any
    raw: str  # yaml.v2's node.value for a scalar
    column: int = 1  # 1-based: where the value starts, when it can be told from the line


def earlier_stores(doc: Document, container: Any, pointer: Pointer) -> dict[str, list[EarlierStore]]:
    """Key -> every store before the last one, in document order (empty when no key repeats)."""
    stored = doc.repeated.get(id(container)) if isinstance(container, dict) else None
    if not stored:
        return {}
    out: dict[str, list[EarlierStore]] = {}
    for key, values in stored.items():
        repeats = [d for d in doc.duplicate_keys if d.pointer == pointer and d.key == key]
        if len(repeats) != len(values) - 1 or any(d.merge_line for d in repeats):
            continue  # a merge key stored it, or an alias re-reported it: lines are not the written ones
        lines = [repeats[0].first_value_line or repeats[0].first_line, *(d.go_line for d in repeats[:-1])]
        out[key] = [EarlierStore(line, value, *_raw(doc, line, key, value))
                    for line, value in zip(lines, values[:-1], strict=True)]
    return out


def _raw(doc: Document, line: int, key: str, value: Any) -> tuple[str, int]:
    """The scalar's text on ``line`` (what follows ``key:``, after an anchor or a tag) and its column."""
    lines = doc.text.splitlines()
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    at = text.find(f"{key}:")
    at = at + len(key) + 1 if at >= 0 else 0
    for token in _TOKEN.finditer(text, at):
        if token.group(0)[0] not in "&!":
            return (value if isinstance(value, str) else token.group(0)), token.start() + 1
    return (value if isinstance(value, str) else "" if value is None else str(value)), 1
