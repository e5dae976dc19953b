"""``milli_value``: Go's ``Quantity.MilliValue()``, which Volcano reads every cpu/scalar quantity with.

Expected values follow apimachinery v0.36.1: within int64 the exact amount rounded up; past it the
int64Amount path wraps for a scale step of 1, 2, 3, 6 or 9 and gives 0 for other steps, and the
inf.Dec path keeps the low 64 bits of the rounded-up milli amount.
"""

from __future__ import annotations

import pytest

from linter.goint import wrap_int64
from linter.scoring.goquantity import milli_value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1.0005", 1001),
        ("250m", 250),
        ("8Pi", 8 * 2**50 * 1000),  # still fits in int64
        ("10Pi", wrap_int64(10 * 2**50 * 1000)),  # inf.Dec (binary suffix Pi): low 64 bits
        ("1Ei", -(2**63)),  # 2**60 * 1000 = 125 * 2**63
        ("9.5Pi", wrap_int64(95 * 2**50 * 100)),  # binary suffix with a fraction: inf.Dec
        ("10000000000000000", wrap_int64(10**19)),  # int64Amount{1e16, 0}: x1000 wraps
        ("1e16", 0),  # int64Amount{1, 16}: 19 steps of x10, the last overflows -> 0
        ("10P", 0),  # int64Amount{10, 15}: 18 steps
        ("9223372036854775807", -1000),  # 19 digits: inf.Dec, (2**63 - 1) * 1000 wraps
        (10**16, wrap_int64(10**19)),  # a YAML integer reads as its decimal text
    ],
)
def test_milli_value_matches_go(text: str | int, value: int) -> None:
    assert milli_value(text) == value
