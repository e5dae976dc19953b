"""Go-compatible formatting and parsing the kube-scheduler messages depend on."""

from __future__ import annotations

import pytest

from linter.kubesched.gofmt import (
    DurationError,
    FieldError,
    aggregate,
    format_duration,
    go_json,
    json_number,
    parse_duration,
    wrap_int64,
)


@pytest.mark.parametrize(("value", "text"), [
    (5.0, "5"), (5.5, "5.5"), (1e20, "100000000000000000000"), (1e21, "1e+21"), (1e-7, "1e-7"),
    (0.000003, "0.000003"), (-0.0, "-0"), (42, "42"), (2**63, "9223372036854775808"),
])
def test_json_number_matches_encoding_json(value: float, text: str) -> None:
    assert json_number(value) == text


@pytest.mark.parametrize(("text", "nanos", "shown"), [
    ("15s", 15_000_000_000, "15s"), ("1m30s", 90_000_000_000, "1m30s"), ("1.5s", 1_500_000_000, "1.5s"),
    ("100ms", 100_000_000, "100ms"), ("-1s", -1_000_000_000, "-1s"), ("0", 0, "0s"),
    ("1h", 3_600_000_000_000, "1h0m0s"), ("2h3m4.5s", 7_384_500_000_000, "2h3m4.5s"), ("1us", 1_000, "1µs"),
])
def test_durations_round_trip_like_go(text: str, nanos: int, shown: str) -> None:
    assert parse_duration(text) == nanos
    assert format_duration(nanos) == shown


@pytest.mark.parametrize(("text", "message"), [
    ("15", 'time: missing unit in duration "15"'),
    ("x", 'time: invalid duration "x"'),
    ("5y", 'time: unknown unit "y" in duration "5y"'),
])
def test_duration_errors_use_go_wording(text: str, message: str) -> None:
    with pytest.raises(DurationError) as info:
        parse_duration(text)
    assert str(info.value) == message


def test_field_error_rendering() -> None:
    assert FieldError("Invalid value", "a.b", 3, "bad").render() == "a.b: Invalid value: 3: bad"
    assert FieldError("Invalid value", "a", "x", "bad").render() == 'a: Invalid value: "x": bad'
    assert FieldError("Required value", "a").render() == "a: Required value"
    assert FieldError("Forbidden", "a", detail="no").render() == "a: Forbidden: no"
    assert aggregate(["x"]) == "x"
    assert aggregate(["x", "y", "x"]) == "[x, y]"


def test_go_json_and_int64_wraparound() -> None:
    assert go_json({"b": [1, 2.0], "a": "<&>"}) == '{"a":"\\u003c\\u0026\\u003e","b":[1,2]}'
    assert wrap_int64(2**63) == -(2**63)
    assert wrap_int64((2**63 - 1) - (-100)) < 0
