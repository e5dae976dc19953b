"""JSON Schemas shipped as package data, loaded by file stem (``kubescheduler-config-v1``).

Data only: this package imports nothing from the project. Each schema is read once and
cached; callers must not mutate the returned dict.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any


class NoSuchSchemaError(LookupError):
    """There is no ``schemas/<name>.json``."""


@lru_cache(maxsize=32)
def load(name: str) -> dict[str, Any]:
    """The schema ``schemas/<name>.json`` (``name`` without the ``.json`` suffix)."""
    stem = name.removesuffix(".json")
    if not stem or "/" in stem or "\\" in stem or stem.startswith("."):
        raise NoSuchSchemaError(f"invalid schema name {name!r}")
    entry = resources.files(__name__).joinpath(f"{stem}.json")
    if not entry.is_file():
        raise NoSuchSchemaError(f"no schema named {stem!r}")
    data = json.loads(entry.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise NoSuchSchemaError(f"schema {stem!r} is not a JSON object")
    return data


def names() -> list[str]:
    """Every schema shipped, by stem, sorted."""
    return sorted(p.name[:-5] for p in resources.files(__name__).iterdir() if p.name.endswith(".json"))
