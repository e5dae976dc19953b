"""Go arithmetic the scorers need: truncating integer division and ``math.Round``."""

from __future__ import annotations

import math

from linter.goint import wrap_int64

__all__ = ["go_div", "go_round"]


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
