"""Go's ``%v`` of what yaml.v2 decodes into ``interface{}`` (Volcano's log texts quote values that way)."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any


def go_v(value: Any) -> str:
    """Go's ``%v`` of what yaml.v2 decoded into ``interface{}`` (used in Volcano's log texts)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "<nil>"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _go_float(value)
    if isinstance(value, list):
        return "[" + " ".join(go_v(v) for v in value) + "]"
    if isinstance(value, dict):  # Go prints maps with sorted keys
        return "map[" + " ".join(f"{k}:{go_v(value[k])}" for k in sorted(value, key=str)) + "]"
    return str(value)


def described(value: object, quoted: bool, integer: str = "an integer") -> str:
    """What yaml.v2 decoded, in words for a finding (``integer``: how to call an int at the call site)."""
    if isinstance(value, str):
        return "a quoted string" if quoted else "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return integer
    if isinstance(value, float):
        return "a float"
    if value is None:
        return "null"
    return "a list" if isinstance(value, list) else "a mapping"


def _go_float(value: float) -> str:
    """``strconv.FormatFloat(v, 'g', -1, 64)``: shortest digits, exponent form below 1e-4 or from 1e6."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if value == 0:
        return "-0" if math.copysign(1.0, value) < 0 else "0"
    sign, digits, exponent = Decimal(repr(value)).normalize().as_tuple()
    assert isinstance(exponent, int)
    ds = "".join(str(d) for d in digits)
    exp = len(ds) + exponent - 1  # decimal exponent of the first digit
    neg = "-" if sign else ""
    if exp < -4 or exp >= 6:  # shortest 'g' decides with precision 6: 1e6 prints as 1e+06
        mantissa = ds[0] + ("." + ds[1:] if len(ds) > 1 else "")
        return f"{neg}{mantissa}e{'-' if exp < 0 else '+'}{abs(exp):02d}"
    point = exp + 1
    if point <= 0:
        return f"{neg}0.{'0' * -point}{ds}"
    if point >= len(ds):
        return neg + ds + "0" * (point - len(ds))
    return f"{neg}{ds[:point]}.{ds[point:]}"
