"""The general STATE reader: any YAML (or JSON) stream, parsed from libyaml's event stream.

It gives the values PyYAML's safe loader gives (same resolver, same scalar constructors,
merge keys applied the same way, later duplicate keys winning) but builds them iteratively
and keeps only the fields explain reads (:mod:`linter.explain.fields`), so that:

* deep nesting is refused at :data:`MAX_DEPTH` levels instead of overflowing the stack;
* aliases may expand to at most :data:`MAX_ALIAS_NODES` nodes in all (an alias bomb of a few
  hundred bytes is refused at once instead of being walked for ever);
* one scalar may be at most :data:`MAX_SCALAR_CHARS` characters;
* memory is what the kept fields need, not the whole dump.

Anchored values are built whole wherever they sit, so an alias brings the same value the
safe loader would.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml

from linter import textfile
from linter.source import MAX_DEPTH, libyaml_too_deep, reader_error_position, reader_problem, text_before

from .dump import ExplainInputError
from .fields import ANY_FIELDS, KEEP, NAME, Spec, prune

try:
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - PyYAML without libyaml
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

__all__ = ["MAX_ALIAS_NODES", "MAX_DEPTH", "MAX_SCALAR_CHARS", "ROOT", "read_yaml_stream"]

MAX_ALIAS_NODES = 1_000_000
MAX_SCALAR_CHARS = 16 * 1024 * 1024
_TOO_DEEP = f"nested deeper than {MAX_DEPTH} levels"

ROOT: dict[str, Spec] = {**ANY_FIELDS}
ROOT["items"] = [ROOT]  # List items are objects; so are the items of nested lists
_MERGE_TAG = "tag:yaml.org,2002:merge"
_MAP_TAGS = (None, "!", "tag:yaml.org,2002:map")
_SEQ_TAGS = (None, "!", "tag:yaml.org,2002:seq")
_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


class _Merge:
    """The plain ``<<`` key."""


MERGE = _Merge()
_NO_KEY = object()


@dataclass
class _Frame:
    container: Any
    spec: Spec  # for the children: a dict for mappings, [element] for sequences, or KEEP
    anchor: str | None
    start: int  # node counter when the frame opened (an anchor's size is counted from here)
    key: Any = _NO_KEY
    merges: list[Any] = field(default_factory=list)


def _child_spec(spec: Spec, key: Any) -> Spec | None:
    """The spec of a child (None: not kept)."""
    if spec in (KEEP, NAME):
        return KEEP
    if isinstance(spec, list):
        return spec[0]
    return spec.get(key) if isinstance(key, str) else None


class _Reader:
    def __init__(self, path: str, role: str, root: Spec, on_document: Callable[[Any, int], None]) -> None:
        self.path, self.role, self.root_spec = path, role, root
        self.on_document = on_document
        self.stack: list[_Frame] = []
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.nodes = 0
        self.alias_nodes = 0
        self.documents = 0
        self.root: Any = None
        self.mark: Any = None

    def fail(self, problem: str) -> ExplainInputError:
        where = f" (line {self.mark.line + 1}, column {self.mark.column + 1})" if self.mark is not None else ""
        return ExplainInputError(f"{self.role} {self.path}: not valid YAML/JSON{where}: {problem}")

    def spec_here(self) -> Spec | None:
        """The spec of the node about to be placed (None: dropped unless anchored)."""
        if not self.stack:
            return self.root_spec
        frame = self.stack[-1]
        if isinstance(frame.container, dict) and frame.key is _NO_KEY:
            return KEEP  # a key
        if frame.spec is None:
            return None
        return _child_spec(frame.spec, frame.key) if isinstance(frame.container, dict) else _child_spec(frame.spec, 0)

    def feed(self, event: yaml.Event) -> None:
        self.mark = event.start_mark
        if isinstance(event, yaml.DocumentStartEvent):
            self.anchors, self.root = {}, None
        elif isinstance(event, yaml.DocumentEndEvent):
            if self.root is not None:
                self.documents += 1
                self.on_document(self.root, self.documents)
            self.root = None
        elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            self.open(event)
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            self.close()
        elif isinstance(event, yaml.ScalarEvent):
            self.count(1)
            value = self.scalar(event)
            if event.anchor:
                self.anchors[event.anchor] = (value, 1)
            self.place(value)
        elif isinstance(event, yaml.AliasEvent):
            if event.anchor not in self.anchors:
                raise self.fail(f"found undefined alias {event.anchor!r}")
            value, size = self.anchors[event.anchor]
            self.alias_nodes += size
            if self.alias_nodes > MAX_ALIAS_NODES:
                raise self.fail(f"aliases expand to more than {MAX_ALIAS_NODES} nodes (alias bomb?)")
            self.count(size)
            self.place(value)

    def count(self, n: int) -> None:
        self.nodes += n

    def open(self, event: yaml.MappingStartEvent | yaml.SequenceStartEvent) -> None:
        if len(self.stack) >= MAX_DEPTH:
            raise self.fail(_TOO_DEEP)
        is_map = isinstance(event, yaml.MappingStartEvent)
        if event.tag not in (_MAP_TAGS if is_map else _SEQ_TAGS):
            raise self.fail(f"unsupported tag {event.tag}")
        if self.stack and isinstance(self.stack[-1].container, dict) and self.stack[-1].key is _NO_KEY:
            raise self.fail("found unhashable key")
        self.count(1)
        spec = self.spec_here()
        if event.anchor:
            spec = KEEP  # anchored values are built whole: an alias may bring them anywhere
        elif spec is not None and spec not in (KEEP, NAME) and isinstance(spec, dict) != is_map:
            spec = KEEP  # an unexpected type: kept whole, so the checks report it
        self.stack.append(_Frame({} if is_map else [], spec, event.anchor, self.nodes))

    def close(self) -> None:
        frame = self.stack.pop()
        value = frame.container
        if frame.merges:
            value = self.merged(frame)
        if frame.anchor:
            self.anchors[frame.anchor] = (value, self.nodes - frame.start + 1)
        self.place(value)

    def merged(self, frame: _Frame) -> dict[Any, Any]:
        pairs: list[tuple[Any, Any]] = []
        for merge in frame.merges:
            subs = merge if isinstance(merge, list) else [merge]
            if not all(isinstance(d, dict) for d in subs):
                raise self.fail("expected a mapping or list of mappings for merging")
            for sub in reversed(subs) if isinstance(merge, list) else subs:
                pairs.extend(sub.items())
        out: dict[Any, Any] = {}
        for key, value in pairs:
            sub_spec = _child_spec(frame.spec, key) if frame.spec is not None else None
            if sub_spec is not None:
                out[key] = prune(value, sub_spec)
        for key, value in frame.container.items():
            out[key] = value
        return out

    def scalar(self, event: yaml.ScalarEvent) -> Any:
        if len(event.value) > MAX_SCALAR_CHARS:
            raise self.fail(f"a scalar longer than {MAX_SCALAR_CHARS} characters")
        tag = event.tag
        if tag is None or tag == "!":
            tag = _RESOLVER.resolve(yaml.ScalarNode, event.value, event.implicit)  # type: ignore[no-untyped-call]
        if tag == _MERGE_TAG:
            return MERGE
        constructor = _CONSTRUCTOR.yaml_constructors.get(tag)
        if constructor is None:
            raise self.fail(f"could not determine a constructor for the tag {tag!r}")
        try:
            value = constructor(_CONSTRUCTOR, yaml.ScalarNode(tag, event.value, style=event.style))
        except (yaml.YAMLError, ValueError, TypeError) as exc:
            raise self.fail(str(getattr(exc, "problem", None) or exc).splitlines()[0]) from None
        except (KeyError, IndexError, AttributeError):  # PyYAML on `!!bool v1`, `!!int ""`, `!!timestamp v1`
            raise self.fail(f"{event.value!r} is not a valid {tag.replace('tag:yaml.org,2002:', '!!')}") from None
        if not isinstance(value, (str, int, float, bool, bytes, type(None))) and not hasattr(value, "isoformat"):
            raise self.fail(f"a {tag} scalar")
        return value

    def place(self, value: Any) -> None:
        if not self.stack:
            self.root = value
            return
        frame = self.stack[-1]
        container = frame.container
        if isinstance(container, list):
            if frame.spec is not None:
                container.append(value)
            return
        if frame.key is _NO_KEY:
            try:
                hash(value)
            except TypeError:
                raise self.fail("found unhashable key") from None
            frame.key = value
            return
        key, frame.key = frame.key, _NO_KEY
        if key is MERGE:
            frame.merges.append(value)
        elif frame.spec is not None and _child_spec(frame.spec, key) is not None:
            container[key] = value


def read_yaml_stream(stream: Any, path: str, on_document: Callable[[Any, int], None], *,
                     role: str = "STATE", root: Spec = ROOT) -> None:
    """Every non-empty document of ``stream`` (text, or an object with ``read``), numbered from 1."""
    reader = _Reader(path, role, root, on_document)
    try:
        for event in yaml.parse(stream, Loader=_Loader):
            reader.feed(event)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        problem = exc.problem or exc.context or "invalid YAML"
        if libyaml_too_deep(exc):
            assert mark is not None
            _name_the_deep_level(stream, path, role, root, mark)
            problem = _TOO_DEEP
        raise ExplainInputError(f"{role} {path}: not valid YAML/JSON{where}: {problem}") from None
    except yaml.reader.ReaderError as exc:
        line, column = _refused_character_position(stream, path, exc)
        raise ExplainInputError(f"{role} {path}: not valid YAML/JSON (line {line}, column {column}): "
                                f"{reader_problem(exc)}") from None
    except yaml.YAMLError as exc:
        raise ExplainInputError(f"{role} {path}: not valid YAML/JSON: {str(exc).splitlines()[0]}") from None


def _name_the_deep_level(stream: Any, path: str, role: str, root: Spec, mark: yaml.Mark) -> None:
    """libyaml refused a text nested too deep past the level that passes MAX_DEPTH: read the text up to
    its refusal again (a file from the start), so the depth check raises its error at that level."""
    try:
        if isinstance(stream, str):
            prefix = text_before((stream,), mark.line, mark.column)
        else:
            with textfile.TextStream(path) as again:
                prefix = text_before(again.chunks(), mark.line, mark.column)
    except (OSError, textfile.TextFileError):
        return
    if isinstance(stream, str) and len(prefix) >= len(stream):
        return  # the mark is past the text: never read it twice
    try:
        read_yaml_stream(prefix, path, lambda _doc, _number: None, role=role, root=root)
    except ExplainInputError as exc:
        if _TOO_DEEP in str(exc):
            raise
        # anything else is where the shortened text stops: libyaml's own position is given instead


def _refused_character_position(stream: Any, path: str, exc: yaml.reader.ReaderError) -> tuple[int, int]:
    """Where the character the reader refused is: the stream is spent, so a file is read again."""
    if isinstance(stream, str):
        return reader_error_position((stream,), exc)
    try:
        with textfile.TextStream(path) as again:
            return reader_error_position(again.chunks(), exc)
    except (OSError, textfile.TextFileError):
        return 1, 1
