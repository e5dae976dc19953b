"""How deep a decoded value nests, measured without recursion.

Readers that build values with a C parser (libyaml, ``json``) may hand on a value nested thousands of
levels deep; anything that later recurses into it (``repr``, ``json.dumps``, ``copy.deepcopy``) then
overflows Python's stack. Those readers refuse such a value at the limit the event-based readers
enforce (:data:`linter.source.MAX_DEPTH`), so every reader of a file gives the same answer.
"""

from __future__ import annotations

from typing import Any


def nested_deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` has mappings/sequences nested more than ``limit`` levels (the value itself is level 1)."""
    deepest_seen: dict[int, int] = {}  # id -> deepest level walked; a shared (aliased) value is rewalked only deeper
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if level > limit:
            return True
        if deepest_seen.get(id(item), 0) >= level:
            continue
        deepest_seen[id(item)] = level
        stack.extend((child, level + 1) for child in children)
    return False
