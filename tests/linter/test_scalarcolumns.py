"""``linter.scalarcolumns.char_column``: a character of a one-line scalar found back in its source line."""

from __future__ import annotations

import pytest

from linter.scalarcolumns import char_column


@pytest.mark.parametrize(("line", "value", "index", "column"), [
    ("k: abc, def", "abc, def", 5, 9),
    ("k: abc, def", "abc, def", 8, 12),  # just past the value
    ("k: 'a''b, c'", "a'b, c", 5, 11),
    ('k: "a\\u00e9\\"b, c"', 'a\u00e9"b, c', 6, 17),
    ('k: "a\\\\b"', "a\\b", 2, 8),
])
def test_the_column_of_a_character(line: str, value: str, index: int, column: int) -> None:
    assert char_column(f"x: 1\n{line}\n", 2, 4, value, index) == column


@pytest.mark.parametrize(("text", "value"), [
    ("k: |\n  abc, def\n", "abc, def\n"),          # block scalar
    ("k: abc,\n  def\n", "abc, def"),              # plain over two lines
    ('k: "abc,\n  def"\n', "abc, def"),            # quoted over two lines
    ('k: "abc, \\\n  def"\n', "abc, def"),         # an escaped line break
    ("k: &a abc, def\n", "abc, def"),              # an anchor first
    ("k: 'abc, dex'\n", "abc, def"),               # the source does not read as the value
    ("{k: abc, j: def}\n", "abc"),                 # a flow collection goes on after the value
])
def test_no_column_unless_the_one_line_source_reads_as_the_value(text: str, value: str) -> None:
    column = text.index(":") + 3
    assert char_column(text, 1, column if not text.startswith("{") else 5, value, 1) is None
