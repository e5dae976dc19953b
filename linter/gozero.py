"""Loosely typed YAML/JSON values read as Go's zero value when they have the wrong type.

Validation code that runs on raw (not typed-decoded) documents uses these so a value of the
wrong type counts as absent (``0``, ``""``, empty), never raises. ``bool`` is not an int here,
as in Go.
"""

from __future__ import annotations

from typing import Any


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def as_map(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def as_str(value: Any) -> str:
    return value if isinstance(value, str) else ""
