"""The encoders built once (webhook.jsontext) write what json.JSONEncoder writes, byte for byte."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from webhook.jsontext import compact_encoder

VALUES: list[Any] = [
    None, True, False, 0, -5, 2**70, 1.0, -0.0, 1e300, 0.1, float("nan"), float("inf"), float("-inf"),
    "", "plain", "quote \" backslash \\ newline \n nul \x00 tab \t", "é ü 日本 \u2028 \U0001f600", "lone \ud800",
    [], {}, (), [1, [2, [3, {"a": (4, 5)}]]],
    {"b": 1, "a": 2, 2: "int key", 1.5: "float key", True: "bool key", None: "null key"},
]


@pytest.mark.parametrize("ensure_ascii", [True, False])
@pytest.mark.parametrize("default", [None, str])
def test_same_text_as_json_encoder(ensure_ascii: bool, default: Callable[[Any], Any] | None) -> None:
    reference = json.JSONEncoder(separators=(",", ":"), ensure_ascii=ensure_ascii, default=default).encode
    encode = compact_encoder(ensure_ascii=ensure_ascii, default=default)
    for value in VALUES:
        assert encode(value) == reference(value), value
    assert encode(VALUES) == reference(VALUES)


def test_unencodable_values_fail_as_json_encoder_fails() -> None:
    encode = compact_encoder(ensure_ascii=False)
    with pytest.raises(TypeError, match="Object of type object is not JSON serializable"):
        encode({"a": object()})
    with pytest.raises(TypeError, match="keys must be str, int, float, bool or None"):
        encode({(1,): 2})
    assert compact_encoder(ensure_ascii=False, default=str)({"a": b"x"}) == '{"a":"b\'x\'"}'
