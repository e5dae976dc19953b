"""``text_before``: the text up to where libyaml (PyYAML 6.0.4's, limited to 1000 levels) refused a deep
text, read again so the reader's own 200-level check names the level that passes it."""

from __future__ import annotations

import pytest

from linter.filecodes import INPUT_LIMIT
from linter.source import MAX_DEPTH, parse_stream, text_before

TEXT = "ab\r\ncd\u2028ef\ngh"


@pytest.mark.parametrize(("line", "column", "kept"), [
    (0, 0, ""),
    (0, 1, "a"),
    (0, 9, "ab"),  # past the line's end: the line, not its break
    (1, 2, "ab\r\ncd"),  # CR LF is one break, as libyaml counts it
    (2, 1, "ab\r\ncd\u2028e"),  # so is U+2028
    (3, 2, TEXT),
])
def test_lines_and_columns_are_counted_as_libyaml_counts_them(line: int, column: int, kept: str) -> None:
    assert text_before((TEXT,), line, column) == kept


@pytest.mark.parametrize("chunks", [("ab\r", "\ncd\u2028e", "f\ngh"), ("a", "b\r\ncd", "\u2028", "ef\ng", "h")])
def test_chunks_give_the_same_text_as_one_string(chunks: tuple[str, ...]) -> None:
    for line, column in ((0, 1), (1, 1), (2, 2), (3, 1)):
        assert text_before(chunks, line, column) == text_before(("".join(chunks),), line, column)


def test_a_deep_text_names_the_level_past_the_limit_whatever_libyaml_refuses() -> None:
    # with PyYAML 6.0.4 libyaml refuses this at level 1001, before the events reach level 201; the answer is
    # the same under any PyYAML the project allows
    text = "key: " + "[" * 1500 + "]" * 1500 + "\n"
    documents, problem = parse_stream(text, "deep.yaml")
    assert documents == [] and problem is not None
    assert (problem.message, problem.code) == (f"document nested deeper than {MAX_DEPTH} levels", INPUT_LIMIT)
    assert (problem.line, problem.column) == (1, len("key: ") + MAX_DEPTH)
