"""A parser for the plain block YAML the fast kubectl reader keeps of an item, or None to use PyYAML.

The kept lines of a Node are a few dozen ``key: value`` lines, and PyYAML's constructor spends about
12 µs on each scalar: a 5,000-node dump spent two seconds there. The text this parser takes is a
narrow subset, block mappings and sequences with one-line scalars, where it builds the values PyYAML's
safe loader builds: every scalar, keys included, goes through the same resolution as the fast reader's
names (:func:`~linter.explain.fastyaml.simple_scalar`), later duplicate keys win as in PyYAML, and
``{}``/``[]`` are the empty flow collections. Anything else (comments, blank lines, tabs, flow
collections with content, block scalars, anchors, aliases, tags, quoted or complex keys, multi-line
scalars, characters YAML does not allow, keys longer than libyaml takes) gives None, and the caller
parses the text with PyYAML as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

__all__ = ["ScalarCache", "parse_block_yaml"]

_KEY = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_./-]*):(?: +|$)")
# What YAML accepts in a stream (PyYAML's reader refuses the rest); a BOM inside the text is left to PyYAML.
# NEL, LS and PS are line breaks to YAML 1.1, so they are left to PyYAML too.
_NOT_PLAIN_TEXT = re.compile(
    "[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
_MAX_KEY = 1000  # libyaml looks at most 1,024 characters ahead for a simple key's ':'


class _Unsupported(Exception):
    pass


class ScalarCache:
    """``scalar`` with its answers kept, to pass to :func:`parse_block_yaml`: node labels, allocatable and
    keys repeat from item to item. The values are str, int, float, bool, None or dates, none of which can
    be changed, so sharing them is safe."""

    LIMIT = 65536

    def __init__(self, scalar: Callable[[str], tuple[bool, Any]]) -> None:
        self.scalar = scalar
        self.known: dict[str, tuple[bool, Any]] = {}

    def __call__(self, text: str) -> tuple[bool, Any]:
        found = self.known.get(text)
        if found is None:
            if len(self.known) >= self.LIMIT:
                self.known.clear()
            found = self.known[text] = self.scalar(text)
        return found



def parse_block_yaml(text: str, scalar: Callable[[str], tuple[bool, Any]]) -> Any | None:
    """What ``yaml.load(text, Loader=CSafeLoader)`` gives for ``text``, or None when ``text`` is outside the
    subset described in the module docstring. ``scalar``: (True, value) for a one-line scalar, as PyYAML's
    safe loader reads it, or (False, None)."""
    if _NOT_PLAIN_TEXT.search(text) is not None:
        return None
    lines = text.split("\n")
    if lines[0] != "" or lines[-1] != "":
        return None
    body = lines[1:-1]
    if not body:
        return None
    try:
        parser = _Parser(body, scalar)
        value, stop = parser.block(0, 0)
    except _Unsupported:
        return None
    return value if stop == len(body) else None


class _Parser:
    def __init__(self, lines: list[str], scalar: Callable[[str], tuple[bool, Any]]) -> None:
        self.lines = lines
        self.scalar = scalar
        self.indents = [len(line) - len(line.lstrip(" ")) for line in lines]
        for line, indent in zip(lines, self.indents, strict=True):
            if indent == len(line) or "\t" in line or line[indent] == "#":
                raise _Unsupported  # blank and comment lines, tabs: left to PyYAML

    def block(self, i: int, indent: int) -> tuple[Any, int]:
        """The block node whose first line is ``i``, at ``indent``; returns (value, next line)."""
        if _is_entry(self.lines[i], indent):
            return self.sequence(i, indent)
        return self.mapping(i, indent, self.lines[i][indent:])

    def mapping(self, i: int, indent: int, first: str) -> tuple[dict[Any, Any], int]:
        """A block mapping at ``indent`` from line ``i``, whose first line's content is ``first``."""
        out: dict[Any, Any] = {}
        content = first
        while True:
            m = _KEY.match(content)
            if m is None or len(m.group(1)) > _MAX_KEY:
                raise _Unsupported
            ok, key = self.scalar(m.group(1))
            if not ok:
                raise _Unsupported
            rest = content[m.end():].rstrip(" ")
            i += 1
            if rest:
                out[key] = self.leaf(rest)
                if i < len(self.lines) and self.indents[i] > indent:
                    raise _Unsupported  # a scalar going on over several lines
            elif i < len(self.lines) and self.indents[i] > indent:
                out[key], i = self.block(i, self.indents[i])
            elif i < len(self.lines) and self.indents[i] == indent and _is_entry(self.lines[i], indent):
                out[key], i = self.sequence(i, indent)  # kubectl's "key:" then "- " at the key's indent
            else:
                out[key] = None
            if i >= len(self.lines) or self.indents[i] < indent:
                return out, i
            if self.indents[i] > indent or _is_entry(self.lines[i], indent):
                raise _Unsupported
            content = self.lines[i][indent:]

    def sequence(self, i: int, indent: int) -> tuple[list[Any], int]:
        """A block sequence whose ``-`` entries sit at ``indent``, from line ``i``."""
        out: list[Any] = []
        while i < len(self.lines) and self.indents[i] == indent and _is_entry(self.lines[i], indent):
            line = self.lines[i]
            rest = line[indent + 1:].rstrip(" ")
            inner = rest.lstrip(" ")
            if not inner:  # "-" alone: the item is the deeper block below, or null
                if i + 1 < len(self.lines) and self.indents[i + 1] > indent:
                    item, i = self.block(i + 1, self.indents[i + 1])
                else:
                    item, i = None, i + 1
            elif _KEY.match(inner) is not None:  # "- key: ...": a mapping indented as its first key
                column = indent + 1 + len(rest) - len(inner)
                item, i = self.mapping(i, column, inner)
            else:
                item = self.leaf(inner)
                i += 1
                if i < len(self.lines) and self.indents[i] > indent:
                    raise _Unsupported
            out.append(item)
        if i < len(self.lines) and self.indents[i] > indent:
            raise _Unsupported
        return out, i

    def leaf(self, text: str) -> Any:
        """A value written on the key's (or the entry's) line."""
        if text == "{}":
            return {}
        if text == "[]":
            return []
        ok, value = self.scalar(text)
        if not ok:
            raise _Unsupported
        return value


def _is_entry(line: str, indent: int) -> bool:
    """A ``-`` entry at ``indent``: the dash, then a space or the end of the line."""
    return line[indent:indent + 1] == "-" and line[indent + 1:indent + 2] in (" ", "")
