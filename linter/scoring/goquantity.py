"""``resource.Quantity.MilliValue()`` exactly as Go returns it, including past int64.

Volcano turns every cpu, ephemeral-storage and scalar quantity into ``float64(q.MilliValue())``.
While the amount in milli-units fits in int64 that is the exact amount rounded away from zero.
Past it (ephemeral-storage from about 8.2Pi, a huge extended resource) Go does not fail: the
result depends on how ``ParseQuantity`` stored the text (apimachinery v0.36.1, quantity.go,
amount.go, math.go, scale_int.go):

* a short mantissa is kept as ``int64Amount{value, scale}``; scaling it by 10, 100, 1000, 10**6 or
  10**9 wraps around (the overflow flag is ignored), any other power of ten is multiplied step by
  step and yields 0 on overflow;
* anything else (more than 18 digits, ``Pi``/``Ei``, a binary suffix with a fraction, ...) is an
  ``inf.Dec`` rounded up to nano units; ``MilliValue`` divides it by 10**6 (rounding up) and keeps
  the low 64 bits (``big.Int.Int64``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from linter.goint import in_int64, wrap_int64
from linter.scoring.quantity import BINARY_EXPONENTS, DECIMAL_EXPONENTS, parse_quantity, to_int_rounding_up

__all__ = ["milli_value"]

_PARTS = re.compile(r"(?P<sign>[+-]?)0*(?P<num>[0-9]*)(?:\.(?P<denom>[0-9]*))?(?P<suffix>.*)", re.DOTALL)
_MAX_INT64_FACTORS = 18  # decimal digits an int64 always holds
_WRAPPING_SCALES = (1, 2, 3, 6, 9)  # positiveScaleInt64's direct multiplications


def milli_value(raw: str | int | float) -> int:
    """Go's ``MilliValue()`` of a quantity :func:`~linter.scoring.quantity.parse_quantity` accepts."""
    exact = to_int_rounding_up(parse_quantity(raw) * 1000)
    if in_int64(exact):
        return exact
    text = str(raw) if isinstance(raw, int) else repr(raw) if isinstance(raw, float) else raw
    return _overflowed_milli_value(text)


@lru_cache(maxsize=256)
def _overflowed_milli_value(text: str) -> int:
    parts = _PARTS.fullmatch(text)
    assert parts is not None  # parse_quantity accepted the text
    negative = parts["sign"] == "-"
    num, denom, suffix = parts["num"] or "0", parts["denom"] or "", parts["suffix"]
    mantissa = 1
    if suffix in BINARY_EXPONENTS:
        exponent = BINARY_EXPONENTS[suffix]
        scale = 0
        if denom:
            precision = -1
        else:
            mantissa = 1 << exponent
            precision = 15 - len(num) - exponent * 3 // 10 - 1
    else:
        scale = DECIMAL_EXPONENTS[suffix] if suffix in DECIMAL_EXPONENTS else int(suffix[1:])
        precision = _MAX_INT64_FACTORS - len(num) - len(denom)
    scale -= len(denom)
    if precision >= 0 and scale >= -9 and in_int64(int(num + denom) * mantissa):
        value = int(num + denom) * mantissa
        return _int64_amount_milli(-value if negative else value, scale)
    magnitude = parse_quantity(text)
    nano = to_int_rounding_up(abs(magnitude) * 10**9)  # inf.Dec rounded up to scale 9
    return _dec_milli(-nano if negative else nano)


def _int64_amount_milli(value: int, scale: int) -> int:
    """``int64Amount.AsScaledInt64(Milli)`` when the result overflows (so ``scale + 3 > 0``)."""
    steps = scale + 3
    if steps in _WRAPPING_SCALES:
        return wrap_int64(value * 10**steps)
    for _ in range(steps):
        value *= 10
        if not in_int64(value):
            return 0
    return value


def _big_int64(x: int) -> int:
    """``big.Int.Int64()``: the low 64 bits of the magnitude, negated for a negative number."""
    low = wrap_int64(abs(x))
    return wrap_int64(-low) if x < 0 else low


def _dec_milli(nano: int) -> int:
    """``scaledValue(unscaled, 9, 3)`` (scale_int.go)."""
    divisor = 10**6
    if nano < 2**63 - 1:  # Go's fast path (taken by every negative amount)
        unscaled = _big_int64(nano)
        quotient = abs(unscaled) // divisor * (1 if unscaled >= 0 else -1)  # Go truncates
        return quotient + 1 if unscaled - quotient * divisor != 0 else quotient
    quotient, remainder = divmod(nano, divisor)
    return wrap_int64(_big_int64(quotient) + 1) if remainder else _big_int64(quotient)

