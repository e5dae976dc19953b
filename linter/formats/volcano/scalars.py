"""A scalar node as yaml.v2 keeps it: its source text (``node.value``), its tag, and the tag's name in type errors."""

from __future__ import annotations

import re
from typing import Any

from linter.formats.volcano.govalue import go_v
from linter.source import Document, Pointer

_RAW_TOKEN = re.compile(r"[^\s,\]\}#]+")


def raw_scalar(doc: Document, pointer: Pointer, value: Any, *, keep_tag: bool = False) -> str:
    """The source text of the scalar at ``pointer``, as yaml.v2 keeps it in ``node.value`` (see ``raw_scalar_at``)."""
    spot = doc.spots.get(tuple(pointer))
    return raw_scalar_at(doc, (spot.line, spot.column) if spot else None, value, keep_tag=keep_tag)


def raw_scalar_at(doc: Document, at: tuple[int, int] | None, value: Any, *, keep_tag: bool = False) -> str:
    """The source text of the scalar node starting at ``at`` (document-local line, column), as yaml.v2 keeps
    it in ``node.value``.

    Strings are their own text; for plain non-strings (ints, floats, booleans, null) the
    token is read back from the document text at the node's position (``010`` stays ``010``).
    The node starts at its anchor or tag, which are not part of the value (``!!int "7"`` is
    ``7``); ``keep_tag`` returns a tag instead of what follows it.
    """
    if isinstance(value, str):
        return value
    lines = doc.text.splitlines()
    if at is not None and 0 < at[0] <= len(lines):
        line, column = lines[at[0] - 1], at[1] - 1
        while (match := _RAW_TOKEN.match(line, column)) and match.group(0)[0] in "&!":
            if keep_tag and match.group(0)[0] == "!":
                return match.group(0)
            column = match.end() + len(line[match.end():]) - len(line[match.end():].lstrip(" \t"))
        if match:
            token = match.group(0)
            quote = token[0]
            if quote in "'\"" and (end := line.find(quote, column + 1)) > column:
                return line[column + 1:end]  # a tagged quoted scalar: !!int "7"
            return token
    if value is None:
        return ""
    return go_v(value)


def scalar_string(doc: Document, pointer: Pointer, value: Any) -> str:
    """The value a yaml.v2 ``string`` field gets from a scalar node (null -> ""; a mapping or list,
    a type error reported separately, -> "")."""
    return "" if value is None or isinstance(value, (dict, list)) else raw_scalar(doc, pointer, value)


_DATE = r"(\d{4})-(\d{1,2})-(\d{1,2})"
_CLOCK = r"(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?"
_TIMESTAMP = re.compile(rf"{_DATE}(?:[Tt]{_CLOCK}(?:Z|[+-]\d\d:\d\d)| {_CLOCK})?")


def is_timestamp(text: str) -> bool:
    """yaml.v2's ``parseTimestamp``: one of its ``time.Parse`` layouts, with valid fields."""
    match = _TIMESTAMP.fullmatch(text)
    if match is None:
        return False
    year, month, day, *clock = (int(g) if g else 0 for g in match.groups())
    hour, minute, second = (clock[0] or clock[3], clock[1] or clock[4], clock[2] or clock[5])
    days = [31, 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28, 31, 30, 31, 30, 31, 31, 30,
            31, 30, 31]
    return 1 <= month <= 12 and 1 <= day <= days[month - 1] and hour < 24 and minute < 60 and second < 60


def node_tag(doc: Document, pointer: Pointer, value: Any, at: tuple[int, int] | None) -> str:
    """The tag ``decoder.terror`` names for the node starting at ``at`` (``pointer``: where it is written)."""
    written = raw_scalar_at(doc, at, None, keep_tag=True)
    if written.startswith("!") and written != "!":  # terror names the node's own tag when it has one
        return written
    if isinstance(value, str) and tuple(pointer) not in doc.quoted and is_timestamp(value):
        return "!!timestamp"  # a plain date stays a string, but resolve() tags it as a timestamp
    if isinstance(value, dict):
        return "!!map"
    if isinstance(value, list):
        return "!!seq"
    if isinstance(value, bool):
        return "!!bool"
    if isinstance(value, int):
        return "!!int"
    if isinstance(value, float):
        return "!!float"
    if value is None:
        return "!!null"
    return "!!str"
