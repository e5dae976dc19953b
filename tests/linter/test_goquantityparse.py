"""ParseQuantity's errors (apimachinery pkg/api/resource/quantity.go), as resource.Quantity's JSON decoding
returns them."""

from __future__ import annotations

from typing import Any

import pytest

from linter.goquantityparse import (
    ERR_FORMAT_WRONG,
    ERR_NUMERIC,
    ERR_SUFFIX,
    parse_quantity_error,
    unmarshal_quantity_error,
)


@pytest.mark.parametrize(("text", "error"), [
    ("1", None), ("1000m", None), ("1.5", None), ("2Gi", None), ("1e3", None), ("1E", None),  # E is exa
    ("0", None), ("-", None), ("+.", None), ("m", None), ("Ti", None), ("1.5Ki", None), ("000e-12", None),
    ("1e-10", None),
    ("", ERR_FORMAT_WRONG), ("abc", ERR_FORMAT_WRONG), ("1x", ERR_FORMAT_WRONG), ("1Qi", ERR_FORMAT_WRONG),
    ("1.2.3", ERR_FORMAT_WRONG), (" 1", ERR_FORMAT_WRONG), ("true", ERR_FORMAT_WRONG),
    ("1e", ERR_SUFFIX), ("1ee3", ERR_SUFFIX), ("1e+", ERR_SUFFIX), ("1mi", ERR_SUFFIX),
    ("1e99999999999999999999", ERR_SUFFIX),  # the exponent does not fit in int64
    # no digit at all, where only inf.Dec can parse the number: a big binary suffix, a scale below nano
    ("Pi", ERR_NUMERIC), ("Ei", ERR_NUMERIC), (".e-10", ERR_NUMERIC), ("e-10", ERR_NUMERIC),
])
def test_parse_quantity_error(text: str, error: str | None) -> None:
    assert parse_quantity_error(text) == error


@pytest.mark.parametrize(("value", "error"), [
    (" 1 ", None),  # the unquoted text is trimmed
    ("\u00a01", None),  # unicode.IsSpace
    ("1\n", ERR_FORMAT_WRONG),  # the raw JSON text is "1\n": an escape, not white space
    ("1&", ERR_FORMAT_WRONG),
    (2, None), (0.5, None), (1e-7, None),  # json.Marshal writes 1e-07
    (True, ERR_FORMAT_WRONG), ([1], ERR_FORMAT_WRONG), ({"a": 1}, ERR_FORMAT_WRONG),
])
def test_unmarshal_quantity_error(value: Any, error: str | None) -> None:
    assert unmarshal_quantity_error(value) == error


def test_format_error_names_the_regular_expression() -> None:
    assert ERR_FORMAT_WRONG == ("quantities must match the regular expression "
                                "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
