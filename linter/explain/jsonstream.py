"""The JSON STATE reader: ``kubectl get nodes,pods -A -o json`` one item at a time.

The top-level object's keys are decoded one by one with the standard library's decoder, and
the ``items`` array element by element, so only one object is in memory at a time; every
value is the one ``json.loads`` gives. Anything else (a syntax error, trailing data, a
repeated ``items``, an item without ``kind`` before the list's kind is known, one object over
:data:`MAX_OBJECT_CHARS`, nesting Python's decoder cannot follow) raises
:class:`NotStreamable`: the caller reads the file with the general YAML reader instead, which
is what ``json.loads`` failing always led to, and which reports the error.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .dump import ExplainInputError, ObjectSink, flatten

__all__ = ["MAX_OBJECT_CHARS", "NotStreamable", "Top", "read_json_head", "read_json_stream", "read_json_tail"]

MAX_OBJECT_CHARS = 64 * 1024 * 1024
# Text kept ahead of a value before it is decoded. A value cut off by the end of the buffer fails to
# decode, and the failure counts every line before it to build its message: with items far smaller than
# this, that happens only for the rare item bigger than it.
_LOOKAHEAD = 1024 * 1024
_DECODER = json.JSONDecoder()
_WS = " \t\n\r"


class NotStreamable(Exception):
    """Not JSON this reader streams; read it as YAML."""


class _Input:
    def __init__(self, chunks: Iterable[str]) -> None:
        self.chunks = iter(chunks)
        self.buf = ""
        self.pos = 0
        self.eof = False

    def more(self) -> None:
        chunk = next(self.chunks, None)
        if chunk is None:
            self.eof = True
            return
        self.buf = self.buf[self.pos:] + chunk
        self.pos = 0

    def peek(self) -> str:
        """The next non-blank character ('' at the end)."""
        while True:
            buf, pos = self.buf, self.pos
            while pos < len(buf) and buf[pos] in _WS:
                pos += 1
            self.pos = pos
            if pos < len(buf) or self.eof:
                return buf[pos:pos + 1]
            self.more()

    def expect(self, char: str) -> None:
        if self.peek() != char:
            raise NotStreamable(f"expected {char!r}")
        self.pos += 1

    def value(self) -> Any:
        """One JSON value; more text is read while it may be cut off at the end of the buffer."""
        self.peek()
        while not self.eof and len(self.buf) - self.pos < _LOOKAHEAD:
            self.more()
        while True:
            try:
                obj, end = _DECODER.raw_decode(self.buf, self.pos)
            except RecursionError:
                raise NotStreamable("nested too deeply for the JSON decoder") from None
            except ValueError:  # JSONDecodeError, or an integer over Python's digit limit
                if self.eof:
                    raise NotStreamable("invalid JSON") from None
                self.grow()
                continue
            if end == len(self.buf) and not self.eof:  # a number may go on in the next chunk
                self.grow()
                continue
            self.pos = end
            return obj

    def grow(self) -> None:
        if len(self.buf) - self.pos > MAX_OBJECT_CHARS:
            raise NotStreamable("one value is too large to stream")
        self.more()


class _Cut(Exception):
    """The text ended right after a comma between two items (the first part of a split read)."""


def _elements(inp: _Input, *, cut: bool = False) -> Iterator[Any]:
    """The elements of the array whose '[' was just read (``cut``: the text may end after a comma)."""
    if inp.peek() == "]":
        inp.pos += 1
        return
    while True:
        yield inp.value()
        if _closed(inp, "]"):
            return
        if cut and inp.peek() == "":
            raise _Cut


def read_json_stream(chunks: Iterable[str], path: str, builder: ObjectSink) -> None:
    """Feed the objects of a JSON STATE to ``builder``, or raise NotStreamable."""
    inp = _Input(chunks)
    first = inp.peek()
    inp.pos += 1
    if first == "[":
        for i, element in enumerate(_elements(inp)):
            _add(builder, element, path, f"document 1[{i}]")
    elif first == "{":
        top = _object(inp, path, builder)
        if top.streamed:
            top.check()
        else:
            builder.add_document(top.doc, 1)
    else:
        raise NotStreamable("not an object or array")
    if inp.peek() != "":
        raise NotStreamable("extra data after the document")


def _is_list_kind(kind: Any) -> bool:
    return isinstance(kind, str) and kind.endswith("List")


@dataclass
class Top:
    """The top-level object's keys other than ``items`` as read so far; ``streamed``: it had ``items``."""

    doc: dict[str, Any] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    streamed: bool = False
    cut: bool = False  # the text ended inside items, after a comma

    def check(self) -> None:
        if not _is_list_kind(self.doc.get("kind")):
            raise NotStreamable("items outside a List")


def read_json_head(chunks: Iterable[str], path: str, builder: ObjectSink) -> Top:
    """The first part of a split read: a top-level object whose text ends after a comma in ``items``."""
    inp = _Input(chunks)
    if inp.peek() != "{":
        raise NotStreamable("not an object")
    inp.pos += 1
    top = _object(inp, path, builder, cut=True)
    if not top.cut:
        raise NotStreamable("the text did not end inside items")
    return top


def read_json_tail(chunks: Iterable[str], path: str, builder: ObjectSink) -> Top:
    """The second part of a split read: the rest of ``items`` from one item's '{' on, then the rest of
    the top-level object (its keys after ``items``)."""
    inp = _Input(chunks)
    top = Top(seen={"items"}, streamed=True)
    for i, item in enumerate(_elements(inp)):
        if isinstance(item, Mapping) and "kind" not in item:
            raise NotStreamable("an item without kind in the second part")
        _add(builder, item, path, f"document 1.items[+{i}]")
    _keys(inp, top, path, builder, first=False)
    if inp.peek() != "":
        raise NotStreamable("extra data after the document")
    return top


def _object(inp: _Input, path: str, builder: ObjectSink, *, cut: bool = False) -> Top:
    top = Top()
    if inp.peek() == "}":
        inp.pos += 1
        return top
    try:
        _keys(inp, top, path, builder, first=True, cut=cut)
    except _Cut:
        top.cut = True
    return top


def _keys(inp: _Input, top: Top, path: str, builder: ObjectSink, *, first: bool, cut: bool = False) -> None:
    """The rest of the top-level object: keys (``first``: the next token is one) up to its '}'."""
    if not first and _closed(inp, "}"):
        return
    while True:
        key = inp.value()
        if not isinstance(key, str) or (key in top.seen and key in ("items", "kind")):
            raise NotStreamable("a repeated items or kind")
        top.seen.add(key)
        inp.expect(":")
        if key == "items" and inp.peek() == "[":
            kind: Any = top.doc.get("kind")
            if "kind" in top.seen and not _is_list_kind(kind):
                raise NotStreamable("items outside a List")  # the document is one object: the general reader
            inp.pos += 1
            top.streamed = True
            item_kind = kind[: -len("List")] if _is_list_kind(kind) and kind != "List" else None
            for i, item in enumerate(_elements(inp, cut=cut)):
                if isinstance(item, Mapping) and "kind" not in item:
                    if "kind" not in top.seen:
                        raise NotStreamable("an item without kind before the list's kind")
                    if item_kind:
                        item = {**item, "kind": item_kind}
                _add(builder, item, path, f"document 1.items[{i}]")
        else:
            top.doc[key] = inp.value()
        if _closed(inp, "}"):
            return


def _closed(inp: _Input, close: str) -> bool:
    """After a value in an array or object: True at its ``close``, False after a ',' (both consumed)."""
    char = inp.peek()
    inp.pos += 1
    if char == close:
        return True
    if char != ",":
        raise NotStreamable(f"expected ',' or '{close}'")
    return False


def _add(builder: ObjectSink, item: Any, path: str, where: str) -> None:
    if builder.error is not None:
        return
    try:
        for obj, at in flatten(item, path, where):
            builder.add(obj, at)
    except ExplainInputError as exc:
        builder.error = str(exc)
