"""Small edits on ruamel.yaml round-trip trees that keep key order and the comments attached to keys."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeGuard

from ruamel.yaml.comments import CommentedMap, CommentedSeq


def is_map(value: Any) -> TypeGuard[Any]:  # narrows Optional values for mypy
    return isinstance(value, dict)


def is_list(value: Any) -> TypeGuard[Any]:
    return isinstance(value, list)


def rename_key(mapping: CommentedMap, old: str, new: str) -> None:
    """Rename ``old`` to ``new`` where it stands (an existing ``new`` is replaced)."""
    if new in mapping and new != old:
        del mapping[new]
    position = list(mapping.keys()).index(old)
    value = mapping.pop(old)
    comment = mapping.ca.items.pop(old, None)
    mapping.insert(position, new, value)
    if comment is not None:
        mapping.ca.items[new] = comment


def child_map(mapping: CommentedMap, key: str, *, position: int | None = None) -> CommentedMap:
    """``mapping[key]`` as a mapping, created (at ``position`` or the end) when absent or null."""
    value = mapping.get(key)
    if not is_map(value):
        value = CommentedMap()
        if key in mapping or position is None:
            mapping[key] = value
        else:
            mapping.insert(min(position, len(mapping)), key, value)
    return value  # type: ignore[no-any-return]


def child_list(mapping: CommentedMap, key: str, *, position: int | None = None) -> CommentedSeq:
    """``mapping[key]`` as a list, created (at ``position`` or the end) when absent or null."""
    value = mapping.get(key)
    if not is_list(value):
        value = CommentedSeq()
        if key in mapping or position is None:
            mapping[key] = value
        else:
            mapping.insert(min(position, len(mapping)), key, value)
    return value  # type: ignore[no-any-return]


def profile_list(profile: CommentedMap, key: str) -> CommentedSeq:
    """A profile's ``pluginConfig`` list, created after ``schedulerName`` so trailing comments stay put."""
    return child_list(profile, key, position=_after_name(profile))


def profile_map(profile: CommentedMap, key: str) -> CommentedMap:
    """A profile's ``plugins`` mapping, created after ``schedulerName`` so trailing comments stay put."""
    return child_map(profile, key, position=_after_name(profile))


def _after_name(profile: CommentedMap) -> int:
    return 1 if "schedulerName" in profile else 0


def named(items: Any) -> Iterator[tuple[int, CommentedMap]]:
    """(index, entry) of every ``{name: ...}`` mapping in a plugin list or pluginConfig list."""
    if not is_list(items):
        return
    for index, entry in enumerate(items):
        if is_map(entry) and isinstance(entry.get("name"), str):
            yield index, entry


def drop_empty(mapping: CommentedMap, *keys: str) -> None:
    """Remove ``keys`` whose value became an empty list or mapping."""
    for key in keys:
        value = mapping.get(key)
        if (is_list(value) or is_map(value)) and not value:
            del mapping[key]


def plain(value: Any) -> Any:
    """A deep copy made of plain dicts and lists (for JSON output and for comparisons)."""
    if is_map(value):
        return {str(k): plain(v) for k, v in value.items()}
    if is_list(value):
        return [plain(v) for v in value]
    return value


def commented(value: Any) -> Any:
    """A deep copy made of round-trip containers (so comments can be attached to new parts)."""
    if is_map(value):
        out = CommentedMap()
        for k, v in value.items():
            out[k] = commented(v)
        return out
    if is_list(value):
        seq = CommentedSeq()
        for v in value:  # a loop, not a generator: one stack frame per level, so lint's 200 levels fit
            seq.append(commented(v))
        return seq
    return value
