"""Volcano's ``yaml.Unmarshal`` into ``conf.SchedulerConfiguration`` (gopkg.in/yaml.v2), re-done on parsed data.

yaml.v2 is lenient: unknown keys are dropped and any scalar fills a ``string`` field (its
source text is used, so ``actions: 1`` is the string ``"1"``). What it refuses is a
*type* mismatch: a mapping or list where a string is expected, anything but a boolean
for the ``*bool`` plugin switches, a scalar or list for ``arguments``. Those errors are
collected (not stopping at the first) and returned as one ``yaml: unmarshal errors:``
message; Volcano then rejects the whole file. This module reproduces those texts:
``line N: cannot unmarshal !!str `false` into bool`` where N counts lines of the
whitespace-trimmed file, as Volcano trims it before parsing.

yaml.v2 decodes node by node in its own order: a merge key's mappings at the ``<<`` entry (a list of
them from its last element), every store of a repeated key, an alias as the anchored node. Each
decoded node that does not fit its Go type is one error, named by the line of that node (for a merged
or aliased value, a line of the anchor), even when a later store overwrites the field.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from linter.formats.volcano.fields import PLUGIN_SWITCHES
from linter.formats.volcano.scalars import node_tag, raw_scalar_at
from linter.source import Document, Pointer

# The Go types of conf.SchedulerConfiguration (at ed72c7c) the walk needs: a struct is its Go name and
# fields; a slice its Go name and element type; the other kinds are leaves.
STRING, BOOL, ARGS, METRICS = "string", "bool", "map[string]interface {}", "map[string]string"


@dataclass(frozen=True)
class Struct:
    go_name: str
    fields: dict[str, Any]


@dataclass(frozen=True)
class Slice:
    go_name: str
    element: Any


PLUGIN_OPTION = Struct("conf.PluginOption", {"name": STRING, **dict.fromkeys(PLUGIN_SWITCHES, BOOL), "arguments": ARGS})
TIER = Struct("conf.Tier", {"plugins": Slice("[]conf.PluginOption", PLUGIN_OPTION)})
CONFIGURATION = Struct("conf.Configuration", {"name": STRING, "arguments": ARGS})
SCHEDULER_CONFIGURATION = Struct("conf.SchedulerConfiguration", {
    "actions": STRING, "tiers": Slice("[]conf.Tier", TIER),
    "configurations": Slice("[]conf.Configuration", CONFIGURATION), "metrics": METRICS,
})


@dataclass(frozen=True)
class UnmarshalError:
    """One yaml.v2 type error: the field's pointer, its line in the trimmed text, the text, and where the
    node yaml.v2 names starts (document-local; for a merged or aliased value, in the anchor)."""

    pointer: Pointer
    line: int
    text: str  # "line N: cannot unmarshal ..."
    written_at: tuple[int, int] | None = None


def leading_lines_trimmed(text: str) -> int:
    """How many lines ``strings.TrimSpace`` removes from the top of the text."""
    stripped = text.lstrip(" \t\n\v\f\r\x85\xa0")
    return text[: len(text) - len(stripped)].count("\n")


@dataclass(frozen=True)
class _Node:
    """A node being decoded: its value, the pointer of the field it fills, where it is written (the pointer
    its own spot and children's spots are under) and where it starts (document-local)."""

    value: Any
    pointer: Pointer
    home: Pointer
    at: tuple[int, int] | None


def unmarshal_errors(doc: Document) -> list[UnmarshalError]:
    """Every type error yaml.v2 reports for this document, in its decoding order."""
    walk = _Walk(doc, leading_lines_trimmed(doc.text))
    walk.decode(_located(doc, doc.data, (), ()), SCHEDULER_CONFIGURATION)
    return walk.errors


def _located(doc: Document, value: Any, pointer: Pointer, home: Pointer, at: tuple[int, int] | None = None) -> _Node:
    """``value`` as a node; an anchored container is found where it was written, whatever reached it."""
    if isinstance(value, (dict, list)) and id(value) in doc.homes:
        home = doc.homes[id(value)]
        spot = doc.spots.get(home)
        at = (spot.line, spot.column) if spot else at
    elif at is None and (spot := doc.spots.get(home)) is not None:
        at = (spot.line, spot.column)
    return _Node(value, pointer, home, at)


def _entries(doc: Document, mapping: _Node) -> Iterator[tuple[str, _Node]]:
    """A mapping's entries as yaml.v2 decodes them: merged mappings in place and every repeated key's stores."""
    stores = doc.stores.get(id(mapping.value))
    if stores is None:
        for key, value in mapping.value.items():
            yield key, _located(doc, value, (*mapping.pointer, key), (*mapping.home, key))
        return
    for store in stores:
        node = store.node if store.node != (0, 0) else None
        yield store.key, _located(doc, store.value, (*mapping.pointer, store.key), (*store.owner, store.key), node)


class _Walk:
    def __init__(self, doc: Document, shift: int) -> None:
        self.doc, self.shift = doc, shift
        self.errors: list[UnmarshalError] = []

    def decode(self, node: _Node, go_type: Any) -> None:
        value = node.value
        if value is None:  # a null leaves any field at its zero value
            return
        if isinstance(go_type, Struct):
            if not isinstance(value, dict):
                self.terror(node, go_type.go_name)
                return
            for key, child in _entries(self.doc, node):
                if key in go_type.fields:  # yaml.v2 skips other keys without decoding them
                    self.decode(child, go_type.fields[key])
        elif isinstance(go_type, Slice):
            if not isinstance(value, list):
                self.terror(node, go_type.go_name)
                return
            for i, item in enumerate(value):
                self.decode(_located(self.doc, item, (*node.pointer, i), (*node.home, i)), go_type.element)
        elif go_type == METRICS:
            if not isinstance(value, dict):
                self.terror(node, go_type)
                return
            for _, child in _entries(self.doc, node):
                self.decode(child, STRING)
        elif go_type == ARGS:
            if not isinstance(value, dict):  # what is inside goes into interface{}: anything fits
                self.terror(node, go_type)
        elif go_type == BOOL:
            if not isinstance(value, bool):
                self.terror(node, go_type)
        elif isinstance(value, (dict, list)):  # a string takes any scalar's text
            self.terror(node, go_type)

    def terror(self, node: _Node, go_type: str) -> None:
        """``decoder.terror``: scalar values are shown in backticks, cut to 7 bytes + ``...`` past 10."""
        doc, value = self.doc, node.value
        line = (node.at[0] if node.at else doc.start_line) - self.shift
        tag = node_tag(doc, node.home, value, node.at)
        shown = ""
        if tag not in ("!!map", "!!seq"):
            # a tagged mapping or list is shown with its node.value, which is empty
            raw = ("" if isinstance(value, (dict, list)) else raw_scalar_at(doc, node.at, value)).encode()
            cut = raw[:7] + b"..." if len(raw) > 10 else raw
            shown = " `" + cut.decode(errors="replace") + "`"
        self.errors.append(UnmarshalError(node.pointer, line, f"line {line}: cannot unmarshal {tag}{shown} into "
                                          f"{go_type}", node.at))


def yaml_v2_message(errors: list[UnmarshalError]) -> str:
    """``yaml.TypeError.Error()``."""
    return "yaml: unmarshal errors:\n  " + "\n  ".join(e.text for e in errors)
