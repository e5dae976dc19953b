"""Kubernetes resource quantities: exact parsing and the scheduler's integer conversions.

A quantity string is parsed into an exact :class:`fractions.Fraction` following the
grammar of ``k8s.io/apimachinery/pkg/api/resource`` (``<sign><number><suffix>``, suffix one
of the decimal SI letters ``n u m "" k M G T P E``, the binary ``Ki .. Ei`` or a decimal
exponent ``e``/``E`` followed by a signed integer). Exact fractions matter because the
scheduler adds quantities exactly and converts to an integer only at the end, rounding
away from zero (``1.0005`` cpu is 1001 millicores).
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

from linter.goint import INT64_MAX

__all__ = ["BINARY_EXPONENTS", "DECIMAL_EXPONENTS", "QuantityError", "parse_quantity", "to_int_rounding_up",
           "to_scheduler_int"]


class QuantityError(ValueError):
    """A value that is not a valid Kubernetes quantity."""


# The suffixes as powers: of ten (decimal SI) and of two (binary SI). goquantity reads them too.
DECIMAL_EXPONENTS = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
BINARY_EXPONENTS = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_DECIMAL_SI: dict[str, Fraction] = {suffix: Fraction(10) ** e for suffix, e in DECIMAL_EXPONENTS.items()}
_BINARY_SI: dict[str, Fraction] = {suffix: Fraction(2**e) for suffix, e in BINARY_EXPONENTS.items()}

# sign, digits, optional '.' and digits, then the suffix text. Like Go's parseQuantityString
# the digits may be missing altogether: "Mi", "-" or "." are accepted there as 0.
_QUANTITY = re.compile(r"(?P<sign>[+-]?)(?P<number>[0-9]*(?:\.[0-9]*)?)(?P<suffix>.*)", re.DOTALL)
_EXPONENT = re.compile(r"[eE](?P<exp>[+-]?[0-9]+)")

# Go's resource package refuses exponents whose scale would not fit; a bound also keeps
# Fraction arithmetic from exploding on hostile input such as "1e999999999".
_MAX_EXPONENT = 10_000


def parse_quantity(value: str | int | float) -> Fraction:
    """Parse a quantity exactly; raise :class:`QuantityError` with the reason on bad input.

    Plain ints and floats (what a YAML/JSON loader yields for ``cpu: 2`` or ``cpu: 0.5``)
    are accepted through their decimal text, as the apiserver does for JSON numbers.
    """
    if isinstance(value, bool):
        raise QuantityError(f"quantity must be a string or number, not a boolean ({value!r})")
    if isinstance(value, int):
        text = str(value)
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise QuantityError(f"{value!r} is not a valid quantity")
        text = repr(value)
    elif isinstance(value, str):
        text = value
    else:
        raise QuantityError(f"quantity must be a string or number, not {type(value).__name__}")
    return _parse_text(text)


@lru_cache(maxsize=8192)  # clusters repeat the same few quantity strings; Fractions are immutable
def _parse_text(text: str) -> Fraction:
    if not text:
        raise QuantityError("empty quantity")
    match = _QUANTITY.fullmatch(text)
    if match is None:
        raise QuantityError(f"{text!r} is not a valid quantity (expected e.g. 500m, 1.5, 2Gi, 256M, 1e3)")
    digits = match["number"].replace(".", "")
    number = Fraction(match["number"]) if digits else Fraction(0)
    suffix = match["suffix"]
    if suffix in _DECIMAL_SI:
        scale = _DECIMAL_SI[suffix]
    elif suffix in _BINARY_SI:
        scale = _BINARY_SI[suffix]
    else:
        exp = _EXPONENT.fullmatch(suffix)
        if exp is None:
            raise QuantityError(
                f"{text!r} has an unknown unit {suffix!r} (use n, u, m, k, M, G, T, P, E, "
                "Ki, Mi, Gi, Ti, Pi, Ei or an exponent such as e3)"
            )
        power = int(exp["exp"])
        if abs(power) > _MAX_EXPONENT:
            raise QuantityError(f"{text!r} has an exponent out of range")
        scale = Fraction(10) ** power
    result = number * scale
    if result > INT64_MAX:  # the scheduler keeps int64 values; nothing real comes near this
        raise QuantityError(f"{text!r} is too large (more than 2^63 - 1)")
    return -result if match["sign"] == "-" else result


def to_int_rounding_up(q: Fraction) -> int:
    """Integer value rounded away from zero, as ``resource.Quantity`` does for finer fractions."""
    n, d = q.numerator, q.denominator
    if d == 1:
        return n
    magnitude = -(-abs(n) // d)
    return magnitude if n > 0 else -magnitude


def to_scheduler_int(resource: str, q: Fraction) -> int:
    """``cpu`` -> ``MilliValue()`` (millicores); every other resource -> ``Value()``."""
    if resource == "cpu":
        return to_int_rounding_up(q * 1000)
    return to_int_rounding_up(q)
