"""Name checks match Go's anchored regexps: the whole value, with no trailing newline let through."""

from __future__ import annotations

import pytest

from linter.k8snames import dns1123_subdomain_errors, is_extended_resource_name, qualified_name_errors
from linter.scoring.requests import is_extended_resource


@pytest.mark.parametrize("value", ["abc\n", "abc\r\n", "\nabc"])
def test_trailing_or_leading_newline_is_rejected(value: str) -> None:
    assert dns1123_subdomain_errors(value)
    assert qualified_name_errors(value)
    assert qualified_name_errors("example.com/" + value)
    assert not is_extended_resource_name("example.com/" + value)
    assert not is_extended_resource("example.com/" + value)


def test_the_same_names_without_newline_pass() -> None:
    assert dns1123_subdomain_errors("abc") == []
    assert qualified_name_errors("example.com/abc") == []
    assert is_extended_resource_name("example.com/abc")
    assert is_extended_resource("example.com/abc")


def test_lengths_are_counted_in_utf8_bytes_as_go_does() -> None:
    # 127 two-byte runes: 127 characters but 254 bytes, over the 253-byte limit.
    assert "must be no more than 253 characters" in dns1123_subdomain_errors("\u00e9" * 127)
