"""Read a JSON text into a :class:`~linter.source.Document` the way Go's ``encoding/json`` reads it.

kube-scheduler decodes a config that starts with ``{`` as JSON, with no YAML step in between, so
what the linter sees must be what ``json.Unmarshal`` sees, not what a YAML parser makes of the text:

* a number keeps its literal text: ``4.0`` or ``1e1`` in an integer field is an error there
  (``cannot unmarshal number 4.0 ...``), where YAML would have turned it into the integer 4;
* an object keeps every member in document order, duplicates included (:class:`JSONObject`): the
  decoder reports a duplicate field where it meets it and decodes both values;
* strings are unescaped as Go does (a lone surrogate escape becomes U+FFFD).

Only called on text that :func:`linter.gojson.syntax_error` accepted, so the grammar is not checked
again here.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from typing import Any

from linter.filecodes import INPUT_LIMIT
from linter.source import MAX_DEPTH, Document, Pointer, SourceError, Spot

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_SPACE = frozenset(" \t\r\n")  # Go's JSON whitespace
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_MAX_INT_DIGITS = 100  # past this a literal cannot fit any Go integer; int() would refuse past 4,300 digits
_REPLACEMENT = "\ufffd"


class JSONFloat(float):
    """A JSON number written with a fraction or an exponent (or too long for an integer).

    ``literal`` is the text as written: encoding/json parses an integer field from that text and
    prints it in its error.
    """

    literal: str

    def __new__(cls, literal: str) -> JSONFloat:
        number = super().__new__(cls, float(literal))
        number.literal = str(literal)
        return number


class JSONObject(dict[str, Any]):
    """A JSON object. The mapping holds each key's last value (what a reader of the data sees);
    ``members`` holds every key/value pair in document order, duplicates included (what Go's decoder walks)."""

    members: list[tuple[str, Any]]

    def __init__(self) -> None:
        super().__init__()
        self.members = []


def is_json_buffer(text: str) -> bool:
    """apimachinery's ``IsJSONBuffer``: the first non-space character (``unicode.IsSpace``) is ``{``."""
    return text.lstrip(_GO_SPACE).startswith("{")


# unicode.IsSpace: the Latin-1 spaces plus the Unicode White_Space characters above U+00FF
_GO_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
            "\u2028\u2029\u202f\u205f\u3000"


def _number(literal: str) -> int | float:
    digits = literal.lstrip("-")
    if digits.isdigit() and len(digits) <= _MAX_INT_DIGITS:
        return int(literal)
    return JSONFloat(literal)


def _unquote(body: str) -> str:
    """The value of a JSON string's contents (without the quotes), as Go's ``unquote`` gives it."""
    if "\\" not in body and not any("\ud800" <= ch <= "\udfff" for ch in body):
        return body
    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch != "\\":
            out.append(_REPLACEMENT if "\ud800" <= ch <= "\udfff" else ch)  # invalid UTF-8 in the file
            i += 1
            continue
        esc = body[i + 1]
        if esc != "u":
            out.append(_ESCAPES[esc])
            i += 2
            continue
        code = int(body[i + 2:i + 6], 16)
        i += 6
        if 0xD800 <= code < 0xDC00 and body[i:i + 2] == "\\u":
            low = int(body[i + 2:i + 6], 16)
            if 0xDC00 <= low < 0xE000:
                out.append(chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)))
                i += 6
                continue
        out.append(_REPLACEMENT if 0xD800 <= code < 0xE000 else chr(code))
    return "".join(out)


class _Reader:
    def __init__(self, text: str, doc: Document) -> None:
        self.text, self.doc, self.i = text, doc, 0
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def where(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1] + 1

    def skip_space(self) -> None:
        text, i = self.text, self.i
        while i < len(text) and text[i] in _SPACE:
            i += 1
        self.i = i

    def string(self) -> str:
        end = _string_end(self.text, self.i) - 1
        body = self.text[self.i + 1:end]
        self.i = end + 1
        return _unquote(body)

    def scalar(self, pointer: Pointer) -> Any:
        c = self.text[self.i]
        if c == '"':
            self.doc.quoted.add(pointer)
            return self.string()
        for word, value in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, self.i):
                self.i += len(word)
                return value
        match = _NUMBER.match(self.text, self.i)
        assert match is not None  # the text passed Go's syntax check
        self.i = match.end()
        return _number(match.group())

    def read(self) -> Any:
        """The root value; containers are filled iteratively, so nesting cannot overflow the stack."""
        stack: list[tuple[Any, Pointer]] = []
        root: Any = None
        key: tuple[str, int] | None = None  # the pending member's key and its offset
        while True:
            self.skip_space()
            c = self.text[self.i]
            if stack and c in ",:":
                self.i += 1
                continue
            if stack and c in "}]":
                self.i += 1
                stack.pop()
                if not stack:
                    return root
                continue
            if stack and isinstance(stack[-1][0], JSONObject) and key is None:
                key_offset = self.i
                key = (self.string(), key_offset)
                continue
            start = self.i
            container, parent = stack[-1] if stack else (None, ())
            if isinstance(container, JSONObject):
                assert key is not None
                pointer: Pointer = (*parent, key[0])
                key_spot = self.where(key[1])
            elif isinstance(container, list):
                pointer = (*parent, len(container))
                key_spot = self.where(start)
            else:
                pointer = ()
                key_spot = self.where(start)
            line, column = self.where(start)
            self.doc.spots[pointer] = Spot(*key_spot, line, column)
            if c in "{[":
                if len(stack) >= MAX_DEPTH:
                    raise SourceError(f"document nested deeper than {MAX_DEPTH} levels", line, column, INPUT_LIMIT)
                self.i += 1
                value: Any = JSONObject() if c == "{" else []
            else:
                value = self.scalar(pointer)
            if isinstance(container, JSONObject):
                assert key is not None
                container[key[0]] = value
                container.members.append((key[0], value))
                key = None
            elif isinstance(container, list):
                container.append(value)
            else:
                root = value
            if c in "{[":
                stack.append((value, pointer))
            elif not stack:
                return root


def read_json_document(text: str, path: str) -> Document:
    """The one document of a JSON text (which must be valid JSON), with positions as the YAML reader gives them."""
    doc = Document(path, None, {}, 1, 1, text=text, is_json=True)
    reader = _Reader(text, doc)
    reader.skip_space()
    doc.start_line, doc.start_column = reader.where(reader.i)
    doc.data = reader.read()
    doc.end_line = text.count("\n") + 1
    return doc



def value_texts(doc: Document, pointers: Iterable[Pointer]) -> dict[Pointer, str]:
    """The text of the JSON value at each pointer, exactly as written (pointers with no value are left out).

    Go keeps an undecoded field (``runtime.RawExtension``) as these very bytes, so two values that read
    the same but are spelt differently (spacing, member order, ``1.0``) stay different for it.
    """
    if not doc.is_json:
        return {}
    text = doc.text
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    out: dict[Pointer, str] = {}
    for pointer in pointers:
        spot = doc.spots.get(pointer)
        if spot is not None:
            start = line_starts[spot.line - 1] + spot.column - 1
            out[pointer] = text[start:_value_end(text, start)]
    return out


def _value_end(text: str, start: int) -> int:
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == '"':
            i = _string_end(text, i)
        elif c in "{[":
            depth += 1
            i += 1
        elif c in "}]":
            depth -= 1
            i += 1
        else:
            match = _SCALAR_OR_SPACE.match(text, i)
            i = match.end() if match else i + 1
        if depth == 0:
            return i
    return i


_SCALAR_OR_SPACE = re.compile(r"true|false|null|-?[0-9][0-9.eE+-]*|[ \t\r\n,:]+")


def _string_end(text: str, i: int) -> int:
    """Offset just past the string literal that starts at ``i`` (its closing quote is the first not escaped)."""
    end = i + 1
    while True:
        end = text.index('"', end)
        before = end
        while text[before - 1] == "\\":
            before -= 1
        if (end - before) % 2 == 0:
            return end + 1
        end += 1
