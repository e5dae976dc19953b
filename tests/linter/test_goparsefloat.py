"""strconv.ParseFloat(s, 64)'s errors and values; cases from Go's strconv/atof_test.go where it has them."""

from __future__ import annotations

import math

import pytest

from linter.goparsefloat import INVALID_SYNTAX, OUT_OF_RANGE, parse_float, parse_float_error


@pytest.mark.parametrize(("text", "error"), [
    ("1.5", None), ("5.", None), (".5", None), ("1.e5", None), ("-.5e-3", None), ("1E2", None),
    ("1_23.50_0_0e+1_2", None),  # underscores between digits, exponent included
    ("1_000", None),
    ("-_123.5e+12", INVALID_SYNTAX), ("1__23.5e+12", INVALID_SYNTAX), ("123_.5e+12", INVALID_SYNTAX),
    ("123._5e+12", INVALID_SYNTAX), ("123.5e_+12", INVALID_SYNTAX), ("1_", INVALID_SYNTAX),
    ("inf", None), ("+Inf", None), ("-infinity", None), ("NaN", None),
    ("infinit", INVALID_SYNTAX), ("+nan", INVALID_SYNTAX),  # only inf takes a sign
    ("0x1p-2", None), ("0x1.8p1", None), ("0x_1_2.3_4_5p+1_2", None),
    ("0x1", INVALID_SYNTAX),  # a hex mantissa needs its p exponent
    ("0x.p1", INVALID_SYNTAX), ("0x1.2.3p1", INVALID_SYNTAX), ("0x1__0p1", INVALID_SYNTAX),
    ("", INVALID_SYNTAX), (".", INVALID_SYNTAX), ("+", INVALID_SYNTAX), ("1e", INVALID_SYNTAX),
    ("1e+", INVALID_SYNTAX), (" 1", INVALID_SYNTAX), ("1,5", INVALID_SYNTAX), ("0b1", INVALID_SYNTAX),
    ("\u0663", INVALID_SYNTAX),  # a non-ASCII digit
    ("1e309", OUT_OF_RANGE), ("0x1p5000", OUT_OF_RANGE), ("1e-400", None),  # underflow is 0, no error
    ("1.7976931348623158e308", None),  # rounds to the largest float64
])
def test_parse_float_error(text: str, error: str | None) -> None:
    assert parse_float_error(text) == error


@pytest.mark.parametrize(("text", "value"), [
    ("1.5", 1.5), ("1_23.50_0_0e+1_2", 1.235e14), ("0x_1_2.3_4_5p+1_2", 74565.0), ("-0x1.8p1", -3.0),
    ("+Inf", math.inf), ("-infinity", -math.inf), ("iNF", math.inf),
    ("1e309", math.inf), ("-1e309", -math.inf), ("0x1p5000", math.inf), ("-0x1p5000", -math.inf),  # range: +-Inf
    ("1e-400", 0.0), ("1.7976931348623158e308", 1.7976931348623157e308),
    ("", 0.0), ("1,5", 0.0), (" 1", 0.0), ("+nan", 0.0), ("0x1", 0.0), ("1__0", 0.0),  # syntax errors: 0
])
def test_parse_float_value(text: str, value: float) -> None:
    assert parse_float(text) == value


def test_parse_float_nan_and_negative_zero() -> None:
    assert math.isnan(parse_float("NaN")) and math.isnan(parse_float("nan"))
    assert math.copysign(1.0, parse_float("-0")) == -1.0
