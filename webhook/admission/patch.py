"""JSONPatch (RFC 6902) operation builders with RFC 6901 pointer escaping.

The apiserver applies a webhook's patch to the object it sent, so each operation is
chosen by what exists in that object: ``add`` for a missing member (creating a
missing parent map in one ``add``), ``replace`` for a present one, and nothing when
the member already holds the wanted value (mutations are idempotent).
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from webhook.jsontext import compact_encoder

_MISSING = object()
_COMPACT_JSON = compact_encoder(ensure_ascii=False)


def compact_json(value: Any) -> str:
    """``value`` as JSON without spaces, non-ASCII characters as they are (patches and annotation values)."""
    return _COMPACT_JSON(value)


@dataclass(frozen=True)
class PatchOp:
    op: str
    path: str
    value: Any

    def as_dict(self) -> dict[str, Any]:
        if self.op == "remove":  # RFC 6902: a remove carries no value
            return {"op": self.op, "path": self.path}
        return {"op": self.op, "path": self.path, "value": self.value}


def escape_token(token: str) -> str:
    """RFC 6901: ``~`` becomes ``~0`` and ``/`` becomes ``~1`` (in that order)."""
    return token.replace("~", "~0").replace("/", "~1")


def pointer(tokens: Sequence[str]) -> str:
    return "".join("/" + escape_token(t) for t in tokens)


def set_member(document: Mapping[str, Any], tokens: Sequence[str], value: Any) -> list[PatchOp]:
    """Operations that make ``document[tokens...] == value`` (maps only), or none if it already is.

    A missing intermediate map is created by one ``add`` carrying the nested value, so
    the patch never addresses a member of a map that does not exist.
    """
    if not tokens:
        raise ValueError("set_member needs at least one path token")
    current: Any = document
    for depth, token in enumerate(tokens):
        is_last = depth == len(tokens) - 1
        child = current.get(token, _MISSING) if isinstance(current, Mapping) else _MISSING
        if child is _MISSING or (not is_last and not isinstance(child, Mapping)):
            nested: Any = value
            for inner in reversed(tokens[depth + 1 :]):
                nested = {inner: nested}
            op = "add" if child is _MISSING else "replace"
            return [PatchOp(op, pointer(tokens[: depth + 1]), nested)]
        if is_last:
            if _same_json(child, value):
                return []
            return [PatchOp("replace", pointer(tokens), value)]
        current = child
    raise AssertionError("unreachable")  # pragma: no cover


def set_members(document: Mapping[str, Any], parent: Sequence[str], values: Mapping[str, Any]) -> list[PatchOp]:
    """Set several members of one map, creating the map once with all of them if it is missing."""
    current: Any = document
    for token in parent:
        current = current.get(token, _MISSING) if isinstance(current, Mapping) else _MISSING
        if current is _MISSING or not isinstance(current, Mapping):
            return set_member(document, list(parent), dict(values)) if values else []
    ops: list[PatchOp] = []
    for key, value in values.items():
        ops.extend(set_member(document, [*parent, key], value))
    return ops


def encode_patch(ops: Sequence[PatchOp]) -> str:
    """The base64 of the compact JSON array the AdmissionResponse carries in ``patch``."""
    body = compact_json([op.as_dict() for op in ops])
    return base64.b64encode(body.encode("utf-8")).decode("ascii")


def _same_json(a: Any, b: Any) -> bool:
    # bool is an int in Python but not in JSON: true must not equal 1.
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)
