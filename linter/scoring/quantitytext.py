"""``resource.Quantity.String()``: the canonical text the API server prints a quantity with.

The format comes from the suffix the quantity was written with (apimachinery ``quantity.go``):
decimal SI (no suffix, ``m``, ``k``, ``M``, ...), binary SI (``Ki`` .. ``Ei``) or a decimal
exponent (``e3``). Decimal forms move every factor of ten into an exponent that is a multiple of
three (``2000m`` is ``2``, ``1.5`` is ``1500m``). A binary amount that is a whole number of at
least 1024 in magnitude keeps its largest whole power of 1024 (``1024Mi`` is ``1Gi``); any other is
printed as decimal SI (``0.5Ki`` is ``512``). Zero is ``0``.

``String()`` of a quantity decoded from text returns that text (trimmed) when ``ParseQuantity``
judged it canonical and kept it, and defaulting's rounding to milli-units left it alone: a whole
number of at most 18 digits with a decimal exponent that is a multiple of three, not ending in
``000`` and not starting with ``0`` once the sign, leading zeros and the point are dropped, at
milli scale or coarser (``+1``, ``01``, ``1.500`` and ``01e3`` print as written); or a whole number of ``Ki``
.. ``Ei`` that is not a multiple of 8 (``+3Ki``). :func:`quantity_text` follows this; a sum
(:func:`quantity_text_like`) has no kept text.
"""

from __future__ import annotations

import re
from fractions import Fraction

from linter.scoring.quantity import BINARY_EXPONENTS, DECIMAL_EXPONENTS, parse_quantity, to_int_rounding_up

__all__ = ["quantity_text", "quantity_text_like"]

_DECIMAL_SUFFIX = {e: s for s, e in DECIMAL_EXPONENTS.items()}
_BINARY_SUFFIX = {e // 10: s for s, e in BINARY_EXPONENTS.items()} | {0: ""}


def quantity_text(raw: str | int | float) -> str:
    """``String()`` of a quantity as stored (rounded up to milli-units, ``SetDefaults_ResourceList``): the
    text it was written with when Go kept it, else the canonical text."""
    if not isinstance(raw, float):
        text = str(raw).strip()
        if _kept_as_written(text):
            return text
    return quantity_text_like(parse_quantity(raw), raw)


_WRITTEN = re.compile(r"[+-]?0*(?P<num>[0-9]*)(?:\.(?P<denom>[0-9]*))?(?P<suffix>[eE][+-]?[0-9]+|[a-zA-Z]*)")


def _kept_as_written(text: str) -> bool:
    """Whether ``ParseQuantity``'s fast path keeps ``text`` as the quantity's string (``q.s``) and rounding
    to milli-units (which clears it below milli scale) leaves it."""
    match = _WRITTEN.fullmatch(text)
    if match is None or text == "0":
        return False
    num, denom, suffix = match["num"] or "0", match["denom"] or "", match["suffix"]
    shifted = num + denom
    if suffix in BINARY_EXPONENTS:
        exponent = BINARY_EXPONENTS[suffix]
        precise = 15 - len(num) - int(exponent * 3 / 10) - 1 >= 0
        return not denom and precise and int(shifted) % 8 != 0
    if suffix in DECIMAL_EXPONENTS:
        exponent = DECIMAL_EXPONENTS[suffix]
    elif suffix[:1] in ("e", "E"):
        exponent = int(suffix[1:])
    else:
        return False
    scale = exponent - len(denom)
    precise = 18 - (len(num) + len(denom)) >= 0
    return precise and scale >= -3 and scale % 3 == 0 and not shifted.endswith("000") and shifted[0] != "0"


def quantity_text_like(value: Fraction, written: str | int | float) -> str:
    """The canonical text of ``value`` in the format of the quantity ``written`` (a sum keeps the format of
    the quantity it started from)."""
    text = written.strip() if isinstance(written, str) else str(written)
    amount = Fraction(to_int_rounding_up(value * 1000), 1000)
    if amount == 0:
        return "0"
    suffix = text.lstrip("+-0123456789.")
    if suffix in BINARY_EXPONENTS and amount.denominator == 1 and abs(amount) >= 1024:
        whole, power = int(amount), 0
        while whole % 1024 == 0:
            whole, power = whole // 1024, power + 1
        return f"{whole}{_BINARY_SUFFIX[power]}"
    mantissa, exponent = int(amount * 1000), -3
    while mantissa % 10 == 0:
        mantissa, exponent = mantissa // 10, exponent + 1
    shift = exponent % 3  # Python's modulo: 1 and 2 here are Go's 1/-2 and 2/-1
    mantissa, exponent = mantissa * 10**shift, exponent - shift
    if suffix[:1] in ("e", "E") and suffix not in DECIMAL_EXPONENTS:
        return f"{mantissa}e{exponent}" if exponent else str(mantissa)
    return f"{mantissa}{_DECIMAL_SUFFIX[exponent]}"
