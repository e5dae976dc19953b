"""The API server's error texts, rebuilt so a denial reads exactly like the in-tree one.

``field.Error`` strings (``<path>: <Type>[: <value>][: <detail>]``), the aggregate's
``[e1, e2]`` joining with duplicates dropped, ``NewInvalid`` (422) and ``NewForbidden``
(403) messages, and Go's ``%q`` quoting.
"""

from __future__ import annotations

from collections.abc import Sequence

from webhook.admission import Decision

_GO_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}


def go_quote(text: str) -> str:
    """Go's ``strconv.Quote`` (``%q``): printable runes kept, the rest escaped."""
    out = ['"']
    for char in text:
        code = ord(char)
        if char in ('"', "\\"):
            out.append("\\" + char)
        elif char in _GO_ESCAPES:
            out.append(_GO_ESCAPES[char])
        elif char == " " or char.isprintable():
            out.append(char)
        elif code < 0x80:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


def invalid_value(path: str, value: str, detail: str) -> str:
    return f"{path}: Invalid value: {go_quote(value)}: {detail}"


def forbidden(path: str, detail: str) -> str:
    return f"{path}: Forbidden: {detail}"


def required(path: str, detail: str = "") -> str:
    return f"{path}: Required value" + (f": {detail}" if detail else "")


def not_supported(path: str, value: str, supported: Sequence[str]) -> str:
    listed = ", ".join(go_quote(s) for s in supported)
    return f"{path}: Unsupported value: {go_quote(value)}: supported values: {listed}"


def aggregate(errors: Sequence[str]) -> str:
    """``ErrorList.ToAggregate().Error()``: duplicates dropped, one error bare, several as ``[a, b]``."""
    unique = list(dict.fromkeys(errors))
    return unique[0] if len(unique) == 1 else "[" + ", ".join(unique) + "]"


def invalid(qualified_kind: str, name: str, errors: Sequence[str]) -> Decision:
    """``apierrors.NewInvalid``: 422 ``Invalid``."""
    return Decision.deny(422, "Invalid", f"{qualified_kind} {go_quote(name)} is invalid: {aggregate(errors)}")


def forbidden_decision(qualified_resource: str, name: str, why: str) -> Decision:
    """``apierrors.NewForbidden``: 403 ``Forbidden``."""
    return Decision.deny(403, "Forbidden", f"{qualified_resource} {go_quote(name)} is forbidden: {why}")


def bad_request(message: str) -> Decision:
    """A valid review carrying something this endpoint cannot judge (wrong kind, no object)."""
    return Decision.deny(400, "BadRequest", message)
