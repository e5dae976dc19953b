"""Which error ``resource.Quantity``'s JSON decoding returns for a value (apimachinery, quantity.go).

``Quantity.UnmarshalJSON`` takes the raw JSON text, drops the quotes of a string (without
unescaping it), trims white space and calls ``ParseQuantity``, whose three errors are returned as
they are (encoding/json adds no field context to an unmarshaler's error). A value that is not a
string or number (``true``, ``[...]``, ``{...}``) is parsed as its JSON text too.
"""

from __future__ import annotations

from typing import Any

from linter.gofmt import json_number
from linter.jsondocument import JSONFloat
from linter.scoring.quantity import BINARY_EXPONENTS, DECIMAL_EXPONENTS

__all__ = ["ERR_FORMAT_WRONG", "ERR_NUMERIC", "ERR_SUFFIX", "parse_quantity_error", "unmarshal_quantity_error"]

ERR_FORMAT_WRONG = ("quantities must match the regular expression "
                    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
ERR_NUMERIC = "unable to parse numeric part of quantity"
ERR_SUFFIX = "unable to parse quantity's suffix"

_DIGITS = frozenset("0123456789")
_SUFFIX_LETTERS = frozenset("eEinumkKMGTP")
_KNOWN_SUFFIXES = DECIMAL_EXPONENTS | BINARY_EXPONENTS  # powers of 10, and of 2 for the binary (`i`) ones
# json.Marshal writes these as escapes, which no quantity can contain: the backslash stops the parse
_ESCAPED = frozenset('"\\<>&\u2028\u2029') | frozenset(map(chr, range(0x20)))
# unicode.IsSpace, what strings.TrimSpace removes (the control characters among them are escaped above)
_GO_SPACE = "\t\n\v\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
            "\u2028\u2029\u202f\u205f\u3000"
_INT64 = 1 << 63


def unmarshal_quantity_error(value: Any) -> str | None:
    """The error of decoding the (non-null) JSON value ``value`` into a ``resource.Quantity``, or None."""
    if isinstance(value, str):
        if any(ch in _ESCAPED for ch in value):
            return ERR_FORMAT_WRONG
        return parse_quantity_error(value.strip(_GO_SPACE))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return ERR_FORMAT_WRONG  # true/false, an array or an object: none starts like a number
    return parse_quantity_error(value.literal if isinstance(value, JSONFloat) else json_number(value))


def parse_quantity_error(text: str) -> str | None:
    """``ParseQuantity(text)``'s error text, or None when it parses."""
    if not text:
        return ERR_FORMAT_WRONG
    split = _split(text)
    if split is None:
        return ERR_FORMAT_WRONG
    has_digits, num, denom, suffix = split
    exponent = _suffix_exponent(suffix)
    if exponent is None:
        return ERR_SUFFIX
    # The int64 fast path takes a short enough number at a scale of at least nano; otherwise inf.Dec parses
    # the numeric text, which fails only when it has no digit at all ("Pi", ".e-10").
    if suffix in _KNOWN_SUFFIXES and suffix.endswith("i"):  # binary SI
        fast = not denom and 15 - len(num) - exponent * 3 // 10 - 1 >= 0
    else:
        fast = len(num) + len(denom) <= 18 and exponent - len(denom) >= -9
    return None if fast or has_digits else ERR_NUMERIC


def _split(text: str) -> tuple[bool, str, str, str] | None:
    """parseQuantityString: (numeric text has digits, numerator, denominator, suffix), None for ErrFormatWrong."""
    pos, end = 0, len(text)
    if text[0] in "+-":
        pos = 1
    while pos < end and text[pos] == "0":  # leading zeros
        pos += 1
    if pos >= end:
        return True, "0", "", ""
    start = pos
    while pos < end and text[pos] in _DIGITS:
        pos += 1
    num = text[start:pos] or "0"
    denom = ""
    if pos < end and text[pos] == ".":
        pos += 1
        start = pos
        while pos < end and text[pos] in _DIGITS:
            pos += 1
        denom = text[start:pos]
    has_digits = any(ch in _DIGITS for ch in text[:pos])
    suffix_start = pos
    while pos < end and text[pos] in _SUFFIX_LETTERS:
        pos += 1
    if pos < end and text[pos] in "+-":
        pos += 1
    while pos < end and text[pos] in _DIGITS:
        pos += 1
    if pos < end:
        return None
    return has_digits, num, denom, text[suffix_start:]


def _suffix_exponent(suffix: str) -> int | None:
    """quantitySuffixer.interpret: the power of the suffix, None when it is not one (ErrSuffix)."""
    if suffix in _KNOWN_SUFFIXES:
        return _KNOWN_SUFFIXES[suffix]
    if len(suffix) > 1 and suffix[0] in "eE":
        digits = suffix[1:]
        body = digits[1:] if digits[:1] in ("+", "-") else digits
        if not body or any(ch not in _DIGITS for ch in body):
            return None
        parsed = int(digits)
        if not -_INT64 <= parsed < _INT64:  # strconv.ParseInt(..., 10, 64) out of range
            return None
        return (parsed + (1 << 31)) % (1 << 32) - (1 << 31)  # int32(parsed)
    return None
