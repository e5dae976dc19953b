"""Go-compatible formatting and parsing the Kubernetes messages depend on (linter.gofmt)."""

from __future__ import annotations

import pytest

from linter.gofmt import (
    DurationError,
    FieldError,
    aggregate,
    format_duration,
    go_json,
    go_len,
    go_quote,
    go_value,
    json_number,
    parse_duration,
)
from linter.goint import wrap_int64


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
    assert go_json("\b\f\x01\u2028") == '"\\b\\f\\u0001\\u2028"'  # Go 1.22+ writes \b and \f short
    assert wrap_int64(2**63) == -(2**63)
    assert wrap_int64((2**63 - 1) - (-100)) < 0


# strconv.Quote's rules (strconv/quote.go, appendEscapedRune): the seven C escapes, \x for
# runes below ' ' and DEL, \u / \U for other runes unicode.IsPrint rejects (every space but
# ' ', U+2028, format characters), printable non-ASCII kept as is.
@pytest.mark.parametrize(("text", "quoted"), [
    ("", '""'),
    ('say "hi"', '"say \\"hi\\""'),
    ("back\\slash", '"back\\\\slash"'),
    ("\a\b\f\n\r\t\v", '"\\a\\b\\f\\n\\r\\t\\v"'),
    ("\x00\x01\x1f", '"\\x00\\x01\\x1f"'),
    ("\x7f", '"\\x7f"'),
    ("\x85", '"\\u0085"'),
    ("!\u00a0!\u2000!\u3000!", '"!\\u00a0!\\u2000!\\u3000!"'),
    ("\u2028\u2029", '"\\u2028\\u2029"'),
    ("\u00ad\ufeff", '"\\u00ad\\ufeff"'),
    ("\U000e0001", '"\\U000e0001"'),
    ("\U0010ffff", '"\\U0010ffff"'),
    ("caf\u00e9 \u263a \U0001f600", '"caf\u00e9 \u263a \U0001f600"'),
    ("<&>'", '"<&>\'"'),
    ("\ud800", '"\ufffd"'),  # a lone surrogate is what Go's decoders had already made U+FFFD
])
def test_go_quote_matches_strconv_quote(text: str, quoted: str) -> None:
    assert go_quote(text) == quoted


@pytest.mark.parametrize(("value", "shown"), [
    ("x\n", '"x\\n"'), (7, "7"), (-1, "-1"), (2.5, "2.5"), (True, "true"), (None, "null"), ({"a": 1}, '{"a":1}'),
])
def test_go_value_prints_like_field_error(value: object, shown: str) -> None:
    assert go_value(value) == shown


def test_go_len_counts_utf8_bytes() -> None:
    assert go_len("abc") == 3
    assert go_len("\u00e9") == 2
    assert go_len("\U0001f600") == 4


def test_field_error_omits_value_for_valueless_kinds_and_aggregates_nothing_as_empty() -> None:
    assert str(FieldError("Forbidden", "spec", "x", "no")) == "spec: Forbidden: no"
    assert str(FieldError("Unsupported value", "p", "", 'supported values: "A"')) == \
        'p: Unsupported value: "": supported values: "A"'
    assert aggregate([]) == ""
