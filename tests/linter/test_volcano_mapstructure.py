"""The port of ``mapstructure.Decode`` (mitchellh/mapstructure v1.5.0, mapstructure.go and error.go) against
cases read off that source: each row names the Go function whose branch it exercises. Values are what the
loader gives for yaml.v2's ``interface{}`` decode (a Python int past int64 is yaml.v2's uint64)."""

from __future__ import annotations

from typing import Any

import pytest

from linter.formats.volcano.mapstructure import (
    BOOL,
    FLOAT64,
    INT,
    INT32,
    INT64,
    STRING,
    GoType,
    decode,
    equal_fold,
    map_of,
    slice_of,
)

_POINT = GoType("struct", "config.UtilizationShapePoint", fields=(("Utilization", INT32), ("Score", INT32)))


@pytest.mark.parametrize(("value", "target", "expected"), [
    # decode: a nil input sets nothing and is no error (the target keeps its zero value)
    (None, INT, None), (None, slice_of(STRING), None), (None, _POINT, None),
    # decodeInt: Int kind as is; Uint converted with int64(), so a uint64 past int64 wraps; Float32 kind
    # (float64 too, via getKind) truncated toward zero
    (7, INT, 7), (-7, INT64, -7), (2**64 - 1, INT, -1), (2**63, INT64, -(2**63)), (2.9, INT, 2), (-2.9, INT, -2),
    (-0.5, INT64, 0),
    # reflect's SetInt on an int32 keeps the low 32 bits
    (2**31, INT32, -(2**31)), (2**32 + 5, INT32, 5),
    # decodeFloat: ints and uints become float64
    (3, FLOAT64, 3.0), (2**64 - 1, FLOAT64, float(2**64 - 1)),
    # decodeString / decodeBool: only their own kind without WeaklyTypedInput
    ("x", STRING, "x"), (False, BOOL, False),
    # decodeSlice: items decoded in order, a nil item left zero; decodeMapFromMap: entries; decodeStructFromMap:
    # exact field name first, then strings.EqualFold; keys matching no field are ignored (ErrorUnused is off)
    (["a", None], slice_of(STRING), ["a", None]), ([], slice_of(STRING), []),
    ({"a": 1, "b": 2.5}, map_of("string", FLOAT64), {"a": 1.0, "b": 2.5}),
    ([{"utilization": 10, "SCORE": 3, "other": "x"}], slice_of(_POINT), [{"Utilization": 10, "Score": 3}]),
    ({"Score": 1, "score": 2}, _POINT, {"Score": 1}),  # the exact name wins over a case-insensitive match
])
def test_values_that_decode(value: Any, target: GoType, expected: Any) -> None:
    got = decode(value, target)
    assert (got.value, got.message()) == (expected, "")


def test_a_float_beyond_int64_has_no_defined_int() -> None:
    """Go's int64(f) of a float past int64 (or NaN, Inf) is implementation-dependent: no value is claimed."""
    for value in (1e19, -1e19, float("inf"), float("nan")):
        got = decode(value, INT)
        assert (got.value, got.errors) == (None, [])


@pytest.mark.parametrize(("value", "target", "message"), [
    # decodeInt's default branch: '%s' expected type '%s', got unconvertible type '%s', value: '%v'
    ("10", INT, "'' expected type 'int', got unconvertible type 'string', value: '10'"),
    (True, INT64, "'' expected type 'int64', got unconvertible type 'bool', value: 'true'"),
    ([1, 2], INT, "'' expected type 'int', got unconvertible type '[]interface {}', value: '[1 2]'"),
    ({"a": 1}, INT, "'' expected type 'int', got unconvertible type 'map[interface {}]interface {}', "
                    "value: 'map[a:1]'"),
    # decodeString / decodeBool / decodeFloat: the same text
    (1, STRING, "'' expected type 'string', got unconvertible type 'int', value: '1'"),
    (2**64 - 1, STRING, "'' expected type 'string', got unconvertible type 'uint64', value: '18446744073709551615'"),
    ("true", BOOL, "'' expected type 'bool', got unconvertible type 'string', value: 'true'"),
    (1.5, BOOL, "'' expected type 'bool', got unconvertible type 'float64', value: '1.5'"),
    ("1", FLOAT64, "'' expected type 'float64', got unconvertible type 'string', value: '1'"),
    # decodeSlice without WeaklyTypedInput: '%s': source data must be an array or slice, got %s (a Kind)
    ("a,b", slice_of(STRING), "'': source data must be an array or slice, got string"),
    ({"a": "b"}, slice_of(STRING), "'': source data must be an array or slice, got map"),
    (1e6, slice_of(STRING), "'': source data must be an array or slice, got float64"),
    # decodeMap and decodeStruct: '%s' expected a map, got '%s'
    (["a"], map_of("string", INT), "'' expected a map, got 'slice'"),
    (True, _POINT, "'' expected a map, got 'bool'"),
    # gathered errors (*Error): count, blank line, "* " points sorted as strings
    ([1, "a", 2.5], slice_of(STRING), "2 error(s) decoding:\n\n"
     "* '[0]' expected type 'string', got unconvertible type 'int', value: '1'\n"
     "* '[2]' expected type 'string', got unconvertible type 'float64', value: '2.5'"),
    # a yaml.v2 map key is a reflect.Value of static type interface{}: Value.String prints its type
    ({"cpu": {"weight": "1"}}, map_of("v1.ResourceName", GoType("struct", "T", fields=(("Weight", INT),))),
     "1 error(s) decoding:\n\n* '[<interface {} Value>].Weight' expected type 'int', got unconvertible type "
     "'string', value: '1'"),
    # struct fields are named by the Go field name, dot-joined below the root
    ([{"utilization": "5"}], slice_of(_POINT),
     "1 error(s) decoding:\n\n* '[0].Utilization' expected type 'int32', got unconvertible type 'string', "
     "value: '5'"),
])
def test_values_that_fail(value: Any, target: GoType, message: str) -> None:
    assert decode(value, target).message() == message


def test_gathered_points_sort_as_strings_so_ten_comes_before_two() -> None:
    items: list[Any] = ["x"] * 11
    items[2] = items[10] = 0
    lines = decode(items, slice_of(STRING)).message().splitlines()
    assert [line[:8] for line in lines[2:]] == ["* '[10]'", "* '[2]' "]


def test_errors_carry_where_the_failing_value_is() -> None:
    got = decode({"cpu": {"type": 3, "weight": 1}}, map_of("v1.ResourceName", GoType("struct", "T", fields=(
        ("Type", STRING), ("Weight", INT)))))
    assert [(e.at, e.target.name) for e in got.errors] == [(("cpu", "type"), "string")]


@pytest.mark.parametrize(("text", "name", "same"), [
    ("enable", "Enable", True), ("ENABLE", "Enable", True), ("enabled", "Enable", False),
    ("\u212aind", "Kind", True),  # the Kelvin sign folds to k in strings.EqualFold
    ("re\u017fources", "Resources", True),  # so does the long s to s
    ("\u00e9nable", "Enable", False),
])
def test_equal_fold(text: str, name: str, same: bool) -> None:
    assert equal_fold(text, name) is same
