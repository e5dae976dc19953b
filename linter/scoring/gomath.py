"""Go arithmetic the scorers need: truncating integer division, ``math.Round`` and ``math.Log``."""

from __future__ import annotations

import math

from linter.goint import wrap_int64

__all__ = ["go_div", "go_log", "go_round"]


def go_div(a: int, b: int) -> int:
    """Go's ``a / b`` on int64: truncates toward zero (Python's ``//`` floors); -2**63 / -1 wraps."""
    q = abs(a) // abs(b)
    return wrap_int64(q if (a >= 0) == (b > 0) else -q)


def go_round(x: float) -> int:
    """Go's ``math.Round``: half away from zero (Python's ``round`` is half-to-even)."""
    t = math.trunc(x)
    if abs(x - t) >= 0.5:
        t += 1 if x > 0 else -1
    return int(t)


# math.Log's constants (FreeBSD's e_log.c, which Go's log.go and its amd64 assembly both follow)
_LN2_HI, _LN2_LO = 6.93147180369123816490e-01, 1.90821492927058770002e-10
_L1, _L2, _L3 = 6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01
_L4, _L5 = 2.222219843214978396e-01, 1.818357216161805012e-01
_L6, _L7 = 1.531383769920937332e-01, 1.479819860511658591e-01


def go_log(x: float) -> float:
    """Go's ``math.Log`` for a finite ``x`` > 0, operation for operation: it differs from the C library's
    ``log`` in the last bit for some arguments (ln 3 among them), which can move a rounded score."""
    f1, exponent = math.frexp(x)
    if f1 < math.sqrt(2) / 2:
        f1 *= 2
        exponent -= 1
    f, k = f1 - 1, float(exponent)
    s = f / (2 + f)
    s2 = s * s
    s4 = s2 * s2
    r = s2 * (_L1 + s4 * (_L3 + s4 * (_L5 + s4 * _L7))) + s4 * (_L2 + s4 * (_L4 + s4 * _L6))
    hfsq = 0.5 * f * f
    return k * _LN2_HI - ((hfsq - (s * (hfsq + r) + k * _LN2_LO)) - f)
