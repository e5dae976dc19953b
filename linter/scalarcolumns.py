"""Where a character of a one-line YAML scalar is in its source line, for findings inside a value.

A finding about one part of a string (one piece of Volcano's ``actions: "enqueue, bogus"``) can
point at that part when the scalar is plain, single-quoted or double-quoted and ends on the line it
starts on: the source is then read back character by character (quotes doubled, escapes decoded)
and must decode to exactly the value, or no column is given. Block scalars, multi-line scalars and
scalars with a tag, an anchor or an alias get none; callers keep the scalar's own position.
"""

from __future__ import annotations

import re

__all__ = ["char_column"]

_LINE_BREAK = re.compile(r"\r\n|[\n\r\x85\u2028\u2029]")  # what the YAML reader counts as a new line
_HEX_DIGITS = {"x": 2, "u": 4, "U": 8}
_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
            "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0",
            "L": "\u2028", "P": "\u2029"}


def _single_quoted(src: str, i: int) -> tuple[str, list[int]] | None:
    chars: list[str] = []
    starts: list[int] = []
    while i < len(src):
        if src[i] == "'":
            if src[i + 1:i + 2] != "'":
                return "".join(chars), [*starts, i]
            chars.append("'")
            starts.append(i)
            i += 2
            continue
        chars.append(src[i])
        starts.append(i)
        i += 1
    return None  # continued on the next line


def _double_quoted(src: str, i: int) -> tuple[str, list[int]] | None:
    chars: list[str] = []
    starts: list[int] = []
    while i < len(src):
        c = src[i]
        if c == '"':
            return "".join(chars), [*starts, i]
        starts.append(i)
        if c != "\\":
            chars.append(c)
            i += 1
            continue
        code = src[i + 1:i + 2]
        if code in _HEX_DIGITS:
            digits = src[i + 2:i + 2 + _HEX_DIGITS[code]]
            if len(digits) != _HEX_DIGITS[code] or not all(d in "0123456789abcdefABCDEF" for d in digits):
                return None
            chars.append(chr(int(digits, 16)) if int(digits, 16) <= 0x10FFFF else "\ufffd")
            i += 2 + len(digits)
        elif code in _ESCAPES:
            chars.append(_ESCAPES[code])
            i += 2
        else:
            return None  # a line continuation, or an escape the reader refuses
    return None


def char_column(text: str, line: int, column: int, value: str, index: int) -> int | None:
    """The 1-based column of ``value[index]`` (``index == len(value)``: just past the value) in ``text``,
    for the scalar whose node starts at ``line``/``column`` (1-based) and reads as ``value``; None when
    the scalar is not a plain or quoted scalar on that one line."""
    lines = _LINE_BREAK.split(text)
    if not 0 < line <= len(lines) or not 0 <= index <= len(value):
        return None
    src, start = lines[line - 1], column - 1
    first = src[start:start + 1]
    if first == "'":
        read = _single_quoted(src, start + 1)
    elif first == '"':
        read = _double_quoted(src, start + 1)
    elif first and first not in "|>!&*" and src.startswith(value, start):
        rest = src[start + len(value):]
        if rest.strip() and not rest.lstrip().startswith("#"):
            return None  # more of the scalar (or of a flow collection) follows: not this value read whole
        read = value, list(range(start, start + len(value) + 1))
    else:
        return None
    if read is None or read[0] != value:
        return None
    return read[1][index] + 1
