"""Parse YAML/JSON text into plain data while keeping every node's position.

Built on PyYAML's *event* stream (libyaml when available) rather than its composer or
constructor, for three reasons:

* the tree is built iteratively, so a deeply nested document cannot overflow the stack;
* aliases are counted as they expand, so an alias bomb is refused before anything walks it;
* plain scalars are resolved with the YAML 1.1 rules of Go's yaml.v2 (which both
  kube-scheduler, through sigs.k8s.io/yaml, and Volcano use): ``OFF`` and ``y`` are
  booleans, ``010`` is octal, ``1_000`` is an int, ``2001-12-14`` stays a string;
* merge keys (``<<``) are applied the way yaml.v2 applies them (:mod:`linter.mergekeys`): in
  place, a later store overwriting an earlier one, and every key stored twice recorded as a
  duplicate (strict decoding refuses those).

Every mapping key and value and every sequence item gets a 1-based (line, column) in the
position index, keyed by its JSON pointer as a tuple of str/int parts.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from linter.filecodes import INPUT_LIMIT, INVALID_YAML
from linter.goint import INT64_MIN, UINT64_MAX
from linter.mergekeys import MERGE_NEEDS_MAPS, DuplicateKey, Merge, MergeError, Store, fill

try:  # libyaml is much faster; fall back to the pure-Python parser where it is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

Pointer = tuple[str | int, ...]
PositionMapper = Callable[[int, int], tuple[int, int]]

MAX_DEPTH = 200
MAX_NODES = 2_000_000  # materialized nodes, counting every alias expansion
MAX_DUPLICATES = 10_000  # duplicate keys kept per container (an alias re-reports its own each time)


class SourceError(Exception):
    """Text that cannot be turned into documents; carries the 1-based position of the problem."""

    def __init__(self, message: str, line: int = 1, column: int = 1, code: str = INVALID_YAML) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.code = code


@dataclass(frozen=True)
class Spot:
    """Where a key and its value start (equal for sequence items and the root)."""

    key_line: int
    key_column: int
    line: int
    column: int


@dataclass
class Document:
    """One YAML document: its data, the positions of its nodes, and how to map them to the file."""

    path: str
    data: Any
    spots: dict[Pointer, Spot]
    start_line: int
    start_column: int
    duplicate_keys: list[DuplicateKey] = field(default_factory=list)
    quoted: set[Pointer] = field(default_factory=set)  # scalars written in quotes
    text: str = ""
    is_json: bool = False
    mapper: PositionMapper | None = None  # set for documents embedded in another file's string
    embedded_key: str | None = None  # the ConfigMap data key this document came from
    end_line: int = 0  # where the document ends: its "..." or the next "---" (document-local)
    # id() of a mapping that stores a key more than once -> that key -> every value stored, in
    # yaml.v2's order (the mapping holds the last); decoders into Go structs may combine them
    repeated: dict[int, dict[str, list[Any]]] = field(default_factory=dict)
    # id() of a mapping with a merge key or a repeated key -> every store in yaml.v2's decoding order
    stores: dict[int, list[Store]] = field(default_factory=dict)
    # id() of an anchored container -> its pointer (where an alias of it, or a merge, finds its nodes)
    homes: dict[int, Pointer] = field(default_factory=dict)

    def locate(self, pointer: Sequence[str | int], *, key: bool = False) -> tuple[int, int]:
        """Position of ``pointer`` in the *file*; falls back to the nearest ancestor that exists."""
        p = tuple(pointer)
        while p and p not in self.spots:
            p = p[:-1]
        spot = self.spots.get(p)
        if spot is None:
            line, col = self.start_line, self.start_column
        elif key and p == tuple(pointer):
            line, col = spot.key_line, spot.key_column
        else:
            line, col = spot.line, spot.column
        return self.map(line, col)

    def map(self, line: int, column: int) -> tuple[int, int]:
        return self.mapper(line, column) if self.mapper else (line, column)


# --- yaml.v2 scalar resolution -------------------------------------------------------------

_NULLS = {"", "~", "null", "Null", "NULL"}
_TRUE = {"y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE"}
_FALSE = {"n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE"}
_FLOAT_RE = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_INF = {".inf": math.inf, ".Inf": math.inf, ".INF": math.inf, "+.inf": math.inf, "+.Inf": math.inf,
        "+.INF": math.inf, "-.inf": -math.inf, "-.Inf": -math.inf, "-.INF": -math.inf}
_NAN = {".nan", ".NaN", ".NAN"}


_MAX_INT_DIGITS = 64  # UINT64_MAX has 64 binary digits, fewer in every larger base


def _go_parse_int(text: str) -> int | None:
    """strconv.ParseInt(s, 0, 64) then ParseUint: sign, 0x/0o/0b prefixes, leading-0 octal."""
    s = text
    neg = s.startswith("-")
    if s[:1] in "+-":
        s = s[1:]
    if not s:
        return None
    base = 10
    low = s.lower()
    if low.startswith("0x"):
        base, s = 16, s[2:]
    elif low.startswith("0o"):
        base, s = 8, s[2:]
    elif low.startswith("0b"):
        base, s = 2, s[2:]
    elif len(s) > 1 and s[0] == "0":
        base, s = 8, s[1:]
    if not s or not all(c in "0123456789abcdefABCDEF"[: base if base <= 10 else 22] for c in s):
        return None
    if len(s.lstrip("0")) > _MAX_INT_DIGITS:  # out of range in any base; int() would refuse past 4,300 digits
        return None
    value = -int(s, base) if neg else int(s, base)
    return value if INT64_MIN <= value <= UINT64_MAX else None


def resolve_plain(text: str) -> Any:
    """The value yaml.v2 gives an untagged plain scalar."""
    if text in _NULLS:
        return None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    if text in _INF:
        return _INF[text]
    if text in _NAN:
        return math.nan
    if text[:1] in "0123456789+-.":
        plain = text.replace("_", "")
        as_int = _go_parse_int(plain)
        if as_int is not None:
            return as_int
        if _FLOAT_RE.match(plain):
            as_float = float(plain)
            # strconv.ParseFloat fails with ErrRange on overflow and yaml.v2 then keeps the scalar a string
            return text if math.isinf(as_float) else as_float
    return text


def plain_tag(value: Any) -> str:
    """The tag yaml.v2's ``resolve`` gives a scalar's text, short form (``resolve_plain``'s value in)."""
    if value is None:
        return "!!null"
    if isinstance(value, bool):
        return "!!bool"
    if isinstance(value, int):
        return "!!int"
    return "!!float" if isinstance(value, float) else "!!str"


def _resolve_tagged(tag: str, text: str, line: int, col: int) -> Any:
    short = tag.replace("tag:yaml.org,2002:", "!!")
    if short == "!!str":
        return text
    if short in ("!!int", "!!float", "!!bool", "!!null"):
        value = resolve_plain(text)
        found = plain_tag(value)
        if found != short and not (short == "!!float" and found == "!!int"):  # an int is a fine !!float
            # yaml.v2's resolve panics (failf): the decoding stops with this text, whatever else is wrong
            raise SourceError(f"yaml: cannot decode {found} `{text}` as a {short}", line, col)
        return float(value) if short == "!!float" else value
    # yaml.v2 resolves only the core scalar tags; any other (a local !foo, !!set) leaves the scalar its text
    return text


# --- the event-driven builder ----------------------------------------------------------------

@dataclass
class _Frame:
    container: Any
    pointer: Pointer
    anchor: str | None
    start_nodes: int
    pending_key: tuple[str, int, int, bool] | None = None  # text, line, column, is a merge key
    entries: list[Store | Merge] = field(default_factory=list)
    merge_value: bool = False  # the value of a ``<<`` (or an item of one): its stores are kept
    merges: bool = False  # the mapping has a ``<<`` entry


def parse_documents(text: str, path: str, *, is_json: bool = False) -> list[Document]:
    """All documents of a YAML stream (JSON is YAML). Raises SourceError on the first problem."""
    documents, error = parse_stream(text, path, is_json=is_json)
    if error is not None:
        raise error
    return documents


def parse_stream(text: str, path: str, *, is_json: bool = False) -> tuple[list[Document], SourceError | None]:
    """The documents completed before the first problem, and that problem (None when the stream parses).

    Programs that read only the first document of a file never see a problem in a later one.
    """
    builder = _Builder(path, text, is_json)
    try:
        for event in yaml.parse(text, Loader=_Loader):
            builder.feed(event)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        if libyaml_too_deep(exc):
            assert mark is not None
            prefix = text_before((text,), mark.line, mark.column)
            if len(prefix) < len(text):  # always, unless the mark is past the text: never read it twice
                documents, too_deep = parse_stream(prefix, path, is_json=is_json)
                if too_deep is not None and too_deep.code == INPUT_LIMIT:
                    return documents, too_deep
            return builder.documents, SourceError(f"document nested deeper than {MAX_DEPTH} levels", line, col,
                                                  INPUT_LIMIT)
        problem = exc.problem or exc.context or "invalid YAML"
        return builder.documents, SourceError(f"invalid YAML: {problem}", line, col)
    except yaml.reader.ReaderError as exc:
        line, col = reader_error_position((text,), exc)
        return builder.documents, SourceError(f"invalid YAML: {reader_problem(exc)}", line, col)
    except yaml.YAMLError as exc:
        return builder.documents, SourceError(f"invalid YAML: {' '.join(str(exc).split())}")
    except RecursionError:
        return builder.documents, SourceError(f"document nested deeper than {MAX_DEPTH} levels", code=INPUT_LIMIT)
    except SourceError as exc:
        return builder.documents, exc
    return builder.documents, None


_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # what libyaml counts as one

# PyYAML 6.0.4 bundles libyaml 0.2.6, whose scanner refuses more than 1000 nesting levels. It looks ahead of the
# events it has handed out, so it can refuse a deep text before the reader's own MAX_DEPTH check sees the
# level that passes MAX_DEPTH. The refusal is the same limit met further on.
LIBYAML_TOO_DEEP = "exceeded maximum nesting depth"


def libyaml_too_deep(exc: yaml.MarkedYAMLError) -> bool:
    """Whether ``exc`` is libyaml's own nesting limit (PyYAML 6.0.4 and later)."""
    return exc.problem == LIBYAML_TOO_DEEP and exc.problem_mark is not None


def text_before(chunks: Iterable[str], line: int, column: int) -> str:
    """The text ``chunks`` make up, up to 0-based ``line`` and ``column`` (lines broken as libyaml breaks
    them, a CR LF split across two chunks being one break). Read again up to where libyaml refused a deep
    text, it holds every level libyaml accepted, so the reader's depth check meets the level past MAX_DEPTH
    there and names it."""
    kept: list[str] = []
    breaks, after_cr = 0, False
    for chunk in chunks:
        start = 1 if after_cr and chunk.startswith("\n") else 0  # the rest of a CR LF the last chunk began
        after_cr = chunk.endswith("\r")
        if breaks < line:
            for found in _LINE_BREAK.finditer(chunk, start):
                breaks, start = breaks + 1, found.end()
                if breaks == line:
                    break
            if breaks < line:
                kept.append(chunk)
                continue
        rest = chunk[start:]
        end = _LINE_BREAK.search(rest)
        length = len(rest) if end is None else end.start()
        if column <= length or end is not None:
            kept.append(chunk[: start + min(column, length)])
            break
        kept.append(chunk)
        column -= length
    return "".join(kept)


def reader_problem(exc: yaml.reader.ReaderError) -> str:
    """The ReaderError's text without its second line (``in "<unicode string>", position N``)."""
    return str(exc).split("\n", 1)[0]


def reader_error_position(chunks: Iterable[str], exc: yaml.reader.ReaderError) -> tuple[int, int]:
    """1-based line and column of the character the reader refused, in the text ``chunks`` make up.

    libyaml gives its position as a UTF-8 byte offset, PyYAML's own reader as a character index;
    the reader stops at the first character it refuses, so the first occurrence of it is the one.
    A streamed file is scanned again chunk by chunk, so a CR LF pair split across two chunks is one break.
    """
    character = chr(exc.character) if isinstance(exc.character, int) else str(exc.character)
    line, column, after_cr = 1, 0, False  # column: characters since the last break
    for chunk in chunks:
        index = chunk.find(character)
        part = chunk if index < 0 else chunk[:index]
        breaks = list(_LINE_BREAK.finditer(part))
        line += len(breaks) - (1 if after_cr and part.startswith("\n") else 0)
        column = len(part) - breaks[-1].end() if breaks else column + len(part)
        if index >= 0:
            return line, column + 1
        after_cr = chunk.endswith("\r")
    return 1, 1


class _Builder:
    def __init__(self, path: str, text: str, is_json: bool) -> None:
        self.path, self.text, self.is_json = path, text, is_json
        self.documents: list[Document] = []
        self.stack: list[_Frame] = []
        self.anchors: dict[str, tuple[Any, int, tuple[int, int]]] = {}  # value, node count, where it starts
        self.doc: Document | None = None
        self.nodes = 0
        # by id() of a finished container: the stores of a mapping that may be merged (anchored, or
        # the value of a ``<<``), and the duplicate keys decoding a container reports (when any)
        self.stores_of: dict[int, list[Store]] = {}
        self.duplicates_of: dict[int, list[DuplicateKey]] = {}

    def feed(self, event: yaml.Event) -> None:
        mark = event.start_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        if isinstance(event, yaml.DocumentStartEvent):
            self.doc = Document(self.path, None, {}, line, col, text=self.text, is_json=self.is_json)
            self.anchors = {}
        elif isinstance(event, yaml.DocumentEndEvent):
            assert self.doc is not None
            self.doc.end_line = line
            self.doc.duplicate_keys = list(self.duplicates_of.get(id(self.doc.data), ()))
            self.documents.append(self.doc)
            self.doc = None
        elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            if len(self.stack) >= MAX_DEPTH:
                raise SourceError(f"document nested deeper than {MAX_DEPTH} levels", line, col, INPUT_LIMIT)
            container: Any = {} if isinstance(event, yaml.MappingStartEvent) else []
            merge_value = self._merge_value_next()
            pointer = self._place(container, line, col)
            assert pointer is not None  # a container is never a mapping key here
            self.stack.append(_Frame(container, pointer, event.anchor, self.nodes, merge_value=merge_value))
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            frame = self.stack.pop()
            if isinstance(frame.container, dict):
                self._fill(frame, line, col)
            else:
                self._note_duplicates(frame.container, [d for item in frame.container
                                                        for d in self._duplicates_in(item)])
            if frame.anchor:
                spot = self.doc.spots.get(frame.pointer) if self.doc is not None else None
                start = (spot.line, spot.column) if spot else (line, col)
                self.anchors[frame.anchor] = (frame.container, self.nodes - frame.start_nodes + 1, start)
                if self.doc is not None:
                    self.doc.homes[id(frame.container)] = frame.pointer
        elif isinstance(event, yaml.ScalarEvent):
            value = self._scalar(event, line, col)
            plain = not event.style  # libyaml reports plain style as '', the pure parser as None
            quoted = event.style in ("'", '"')
            pointer = self._place(value, line, col, scalar_text=event.value, plain=plain)
            if quoted and pointer is not None and self.doc is not None:
                self.doc.quoted.add(pointer)
            if event.anchor:
                self.anchors[event.anchor] = (value, 1, (line, col))
        elif isinstance(event, yaml.AliasEvent):
            if event.anchor not in self.anchors:
                raise SourceError(f"unknown anchor {event.anchor!r}", line, col)
            value, size, start = self.anchors[event.anchor]
            self.nodes += size - 1  # _place counts one more
            self._place(value, line, col, alias=True, node=start)

    def _merge_value_next(self) -> bool:
        """Is the node about to be placed the value of a ``<<`` (or an item of such a list)?"""
        if not self.stack:
            return False
        top = self.stack[-1]
        if isinstance(top.container, list):
            return top.merge_value
        return top.pending_key is not None and top.pending_key[3]

    def _duplicates_in(self, value: Any) -> list[DuplicateKey]:
        return self.duplicates_of.get(id(value), []) if isinstance(value, (dict, list)) else []

    def _note_duplicates(self, container: Any, duplicates: list[DuplicateKey]) -> None:
        if duplicates:
            self.duplicates_of[id(container)] = duplicates[:MAX_DUPLICATES]

    def _fill(self, frame: _Frame, line: int, col: int) -> None:
        """The mapping as yaml.v2 fills it: merges applied in place, later stores winning."""
        container = frame.container
        if not frame.merges and not self.duplicates_of and len(container) == len(frame.entries):
            # the common case, decided in O(1): every key once, no merge, no duplicate anywhere below
            if frame.anchor or frame.merge_value:
                self.stores_of[id(container)] = frame.entries  # type: ignore[assignment]
            return
        try:
            filled = fill(frame.pointer, frame.entries, self.stores_of, self.duplicates_of)
        except MergeError as exc:
            raise SourceError(f"yaml: {MERGE_NEEDS_MAPS}", exc.line, exc.column) from None  # failf's text
        if frame.merges:
            container.clear()
            for store in filled.stores:
                container[store.key] = store.value
        if frame.anchor or frame.merge_value:
            self.stores_of[id(container)] = filled.stores
        self._note_duplicates(container, filled.duplicates)
        if filled.repeated and self.doc is not None:
            self.doc.repeated[id(container)] = filled.repeated
        if (frame.merges or filled.repeated) and self.doc is not None:
            self.doc.stores[id(container)] = filled.stores

    def _scalar(self, event: yaml.ScalarEvent, line: int, col: int) -> Any:
        if event.tag and event.tag != "!":
            return _resolve_tagged(event.tag, event.value, line, col)
        if not event.style and event.implicit[0]:
            return resolve_plain(event.value)
        return event.value

    def _place(self, value: Any, line: int, col: int, *, scalar_text: str | None = None,
               plain: bool = False, alias: bool = False, node: tuple[int, int] | None = None) -> Pointer | None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise SourceError(f"document expands to more than {MAX_NODES} nodes (alias bomb?)", line, col,
                              INPUT_LIMIT)
        doc = self.doc
        assert doc is not None
        if not self.stack:
            doc.data = value
            doc.spots[()] = Spot(line, col, line, col)
            return ()
        frame = self.stack[-1]
        if isinstance(frame.container, list):
            pointer = (*frame.pointer, len(frame.container))
            frame.container.append(value)
            doc.spots[pointer] = Spot(line, col, line, col)
            return pointer
        if frame.pending_key is None:  # this node is a key
            if scalar_text is None and not alias:  # complex keys: neither Go decoder accepts them
                raise SourceError("a mapping or sequence cannot be used as a mapping key", line, col)
            key = scalar_text if scalar_text is not None else str(value)
            # yaml.v2's isMerge: a plain "<<" scalar (not quoted, not an alias)
            frame.pending_key = (_key_text(key, value, plain), line, col, plain and scalar_text == "<<")
            return None
        key, kline, kcol, is_merge = frame.pending_key
        frame.pending_key = None
        if is_merge:  # applied when the mapping ends: a list may still be filling
            frame.entries.append(Merge(value, alias, kline, kcol))
            frame.merges = True
            return (*frame.pointer, "<<")
        pointer = (*frame.pointer, key)
        frame.entries.append(Store(key, value, kline, kcol, line, frame.pointer, node or (line, col)))
        frame.container[key] = value
        doc.spots[pointer] = Spot(kline, kcol, line, col)
        return pointer


def _key_text(text: str, value: Any, plain: bool) -> str:
    """Keys become strings the way sigs.k8s.io/yaml writes them into JSON (true -> "true", 010 -> "8")."""
    if not plain:
        return text
    resolved = resolve_plain(text)
    if isinstance(resolved, bool):
        return "true" if resolved else "false"
    if isinstance(resolved, int):
        return str(resolved)
    if resolved is None:
        return "null" if text else ""
    return text  # includes "<<", the merge key
