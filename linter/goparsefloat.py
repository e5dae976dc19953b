"""Which error Go's ``strconv.ParseFloat(s, 64)`` returns (strconv/atof.go): its syntax and its range.

The syntax is Go's float literal: an optional sign, decimal digits with at most one ``.`` and an
optional ``e`` exponent, or ``0x`` hex digits with a mandatory ``p`` exponent; ``_`` may separate
digits (also right after the ``0x`` prefix), never lead, trail or double. ``inf``, ``infinity``
(signed or not) and ``nan`` (unsigned) are accepted in any case. Nothing else, not even white space.
A finite literal whose value overflows float64 is ``value out of range``; one that underflows is 0.
:func:`parse_float` gives the float64 ParseFloat returns alongside its error, for callers that drop the
error (``v, _ := strconv.ParseFloat(s, 64)``): 0 after a syntax error, the signed infinity out of range.
"""

from __future__ import annotations

import math

__all__ = ["INVALID_SYNTAX", "OUT_OF_RANGE", "parse_float", "parse_float_error"]

INVALID_SYNTAX = "invalid syntax"
OUT_OF_RANGE = "value out of range"

_DIGITS = frozenset("0123456789")
_HEX_DIGITS = _DIGITS | frozenset("abcdefABCDEF")


def parse_float_error(text: str) -> str | None:
    """``strconv.ParseFloat(text, 64)``'s error (the part after ``parsing "<text>": ``), or None."""
    if _special(text):
        return None
    hex_float = _read_float(text)
    if hex_float is None:
        return INVALID_SYNTAX
    plain = text.replace("_", "")
    try:
        value = float.fromhex(plain) if hex_float else float(plain)
    except OverflowError:
        return OUT_OF_RANGE
    return OUT_OF_RANGE if math.isinf(value) else None


def parse_float(text: str) -> float:
    """The float64 ``strconv.ParseFloat(text, 64)`` returns, whatever its error: 0.0 on a syntax error,
    +Inf or -Inf when a finite literal is out of range (Python rounds as Go does: to nearest, ties to even)."""
    if _special(text):
        return float(text)  # Python reads the same inf/infinity/nan spellings, in any case
    hex_float = _read_float(text)
    if hex_float is None:
        return 0.0
    plain = text.replace("_", "")
    if not hex_float:
        return float(plain)  # overflow gives the signed infinity, as in Go
    try:
        return float.fromhex(plain)
    except OverflowError:
        return -math.inf if plain.startswith("-") else math.inf


def _special(text: str) -> bool:
    """``special``: the whole text is [+-]inf, [+-]infinity or nan, in any case."""
    body = text[1:] if text[:1] in ("+", "-") else text
    if body.lower() in ("inf", "infinity"):
        return True
    return text.lower() == "nan"


def _read_float(text: str) -> bool | None:
    """``readFloat`` over the whole text: None when it is not a float literal, else whether it is hex."""
    i, end = 0, len(text)
    if i < end and text[i] in "+-":
        i += 1
    hex_float = i + 2 < end and text[i] == "0" and text[i + 1] in "xX"
    digits = _HEX_DIGITS if hex_float else _DIGITS
    if hex_float:
        i += 2
    saw_dot = saw_digits = False
    while i < end:
        ch = text[i]
        if ch == "_":
            pass
        elif ch == ".":
            if saw_dot:
                break
            saw_dot = True
        elif ch in digits:
            saw_digits = True
        else:
            break
        i += 1
    if not saw_digits:
        return None
    if i < end and text[i].lower() == ("p" if hex_float else "e"):
        i += 1
        if i < end and text[i] in "+-":
            i += 1
        if i >= end or text[i] not in _DIGITS:
            return None
        while i < end and (text[i] in _DIGITS or text[i] == "_"):
            i += 1
    elif hex_float:
        return None  # a hex mantissa needs its p exponent
    if i != end or ("_" in text and not _underscores_ok(text)):
        return None
    return hex_float


def _underscores_ok(text: str) -> bool:
    """``underscoreOK``: each ``_`` between digits (a ``0x`` prefix counts as a digit)."""
    body = text[1:] if text[:1] in ("+", "-") else text
    saw, i = "^", 0
    hex_digits = False
    if len(body) >= 2 and body[0] == "0" and body[1].lower() in "box":
        i, saw, hex_digits = 2, "0", body[1].lower() == "x"
    for ch in body[i:]:
        if ch in _DIGITS or (hex_digits and ch in _HEX_DIGITS):
            saw = "0"
        elif ch == "_":
            if saw != "0":
                return False
            saw = "_"
        elif saw == "_":
            return False
        else:
            saw = "!"
    return saw != "_"
