"""The fast reader for what ``kubectl get nodes,pods -A -o yaml`` prints.

kubectl writes one block-style document: ``apiVersion``, ``items:`` with one ``- `` entry per
object at column 0, ``kind: List``, ``metadata``. This reader cuts the text into those entries
and, inside each one, finds the few lines explain needs (:mod:`linter.explain.fields`) by
indentation alone, with C-speed regular-expression searches: a block-style entry ends at the
first later line that is indented no deeper than its key (blank and comment lines aside),
which YAML requires of every value, folded, quoted and block scalars included. Only the lines
kept are parsed, by libyaml with PyYAML's safe constructor: the values are the ones the plain
loader gives. Pods are parsed once per distinct pruned text, with their names put in after
(names are read from their own line when it is a plain or simply quoted scalar).

Anything outside that layout (several documents, flow style, a tab anywhere, keys in
quotes or merge keys where explain reads, an alias into a kept field, a typed list, an item
that is not a mapping, a scalar on the line below a key whose mapping explain reads) raises
:class:`NotKubectlLayout`; the caller then reads the file with the general event-based reader,
which accepts all of YAML within its limits. The one difference allowed: text this reader skips
is not checked for YAML errors.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import yaml

from linter.nesting import nested_deeper_than
from linter.source import MAX_DEPTH

from .blockyaml import ScalarCache, parse_block_yaml
from .dump import DumpBuilder, ObjectSink
from .fields import KEEP, NAME, RESIZE_CONDITION, WORKLOAD_KINDS, Spec, lighter_spec, spec_for_kind

try:
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - PyYAML without libyaml
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

__all__ = ["NotKubectlLayout", "Scan", "check_top", "read_kubectl_yaml", "scan_kubectl_yaml", "simple_scalar"]

_FIRST = re.compile(r"\n( *)([^ \n#])")  # the next line with content
_KEY_AT = re.compile(r"([^ \n#'\"&*!|>%@`{}\[\],?:<-][^\n]*?|[-?:][^ \n][^\n]*?) *:(?![^ \n])")
# _KEY_AT within one line, and with no " #" in the key: "a #b: 1" is the scalar "a" and a comment
_KEY_BODY = r"(?:[^ \n]| (?!#))*?"
_PLAIN_KEY = re.compile(f"([^ \\n#'\"&*!|>%@`{{}}\\[\\],?:<-]{_KEY_BODY}|[-?:][^ \\n]{_KEY_BODY}) *:(?![^ \\n])")
# the keys kubectl writes: a match here is a _PLAIN_KEY match with the same key, found at a third of its cost
_SIMPLE_KEY = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_./-]*) *:(?![^ \n])")
_SINGLE = re.compile(r"'((?:[^'\n]|'')*)'")
_DOUBLE = re.compile(r'"([^"\\\n]*)"')
_PLAIN_BAD_START = frozenset("-?:,[]{}#&*!|>'\"%@`")
_CACHE_LIMIT = 65536
_VERBATIM = object()
_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_STR = "tag:yaml.org,2002:str"
# what loading can raise: PyYAML's constructors raise KeyError, IndexError or AttributeError on a tagged
# scalar that is no such value (`!!bool v1`, `!!int ""`, `!!timestamp v1`), not a YAMLError
_CONSTRUCT_ERRORS = (yaml.YAMLError, ValueError, TypeError, KeyError, IndexError, AttributeError)


class NotKubectlLayout(Exception):
    """The text is valid YAML perhaps, but not in the layout this reader handles."""


def _blank_or_comment() -> str:
    return "(?! *(?:#|\\n|$))"


@functools.lru_cache(maxsize=256)
def _end_rx(n: int, seq_ok: bool) -> re.Pattern[str]:
    """The line that ends an entry whose key is at indent ``n`` (a same-indent ``- `` continues it)."""
    same_indent_seq = f"(?!{' ' * n}-(?![^ \\n]))" if seq_ok else ""
    return re.compile(f"\\n(?!{' ' * (n + 1)}){_blank_or_comment()}{same_indent_seq}")


@functools.lru_cache(maxsize=256)
def _key_rx(k: int, keys: tuple[str, ...], p: int) -> re.Pattern[str]:
    """In a block mapping at indent ``k`` inside an entry at indent ``p``: a wanted key (group 1),
    a key form this reader does not handle (no group), or the end of the entry (group ``end``)."""
    wanted = "|".join(map(re.escape, keys))
    ends = f"(?P<end>(?!{' ' * (p + 1)}){_blank_or_comment()})" if p >= 0 else "(?P<end>(?!))"
    return re.compile(f"\\n(?:{' ' * k}(?:({wanted}) *:(?![^ \\n])|[\"'?<&*!|>%@`{{\\[])|{ends})")


@functools.lru_cache(maxsize=64)
def _kind_rx(k: int) -> re.Pattern[str]:
    return re.compile(f"\\n{' ' * k}kind *:(?![^ \\n]) *([^\\n]*)")


# Characters YAML refuses in a stream, and the ones it reads as line breaks (NEL, LS, PS): a scalar holding
# one is left to PyYAML, which refuses or folds it as the whole-file load does. Tabs too.
_NOT_SCALAR_TEXT = re.compile("[^\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
# The only plain scalars starting with a letter that PyYAML's resolver does not read as strings: its bool
# and null words (every other implicit type starts with a digit or one of "-+.<=~").
_LETTER_WORDS = frozenset({
    "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
    "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL",
})


def simple_scalar(text: str) -> tuple[bool, Any]:
    """(True, value) for a one-line plain or simply quoted scalar, as PyYAML's safe loader reads it."""
    if not text or text[0] == " " or text[-1] == " ":
        return False, None
    if not (text.isascii() and text.isprintable()) and _NOT_SCALAR_TEXT.search(text) is not None:
        return False, None
    if text[0] == "'":
        m = _SINGLE.fullmatch(text)
        return (True, m.group(1).replace("''", "'")) if m else (False, None)
    if text[0] == '"':
        m = _DOUBLE.fullmatch(text)
        return (True, m.group(1)) if m else (False, None)
    if text[0] in _PLAIN_BAD_START or ": " in text or " #" in text or text.endswith(":"):
        return False, None
    if text[0].isascii() and text[0].isalpha() and text not in _LETTER_WORDS:
        return True, text  # the common case (names), without the resolver's regular expressions
    tag = _RESOLVER.resolve(yaml.ScalarNode, text, (True, False))  # type: ignore[no-untyped-call]
    if tag == _STR:
        return True, text
    construct = _CONSTRUCTOR.yaml_constructors.get(tag)
    if construct is None:  # "<<" and "=" resolve to tags with no safe constructor: PyYAML decides
        return False, None
    try:
        return True, construct(_CONSTRUCTOR, yaml.ScalarNode(tag, text))
    except (yaml.YAMLError, ValueError, TypeError):  # e.g. 2026-13-45, a date with no such month
        return False, None


@dataclass
class _Pruned:
    """The kept lines of one item, and the names lifted out of them."""

    out: list[str] = field(default_factory=list)
    names: dict[tuple[str, ...], Any] = field(default_factory=dict)
    refused: str | None = None  # why the item is not in the layout, once the walk is known to be complete
    # The last kept region runs to the end of the text (nothing is kept after such a region). Every other
    # region stops before the newline that ends its last line, which the item's text puts back.
    to_end: bool = False


def _region_end(s: str, line_end: int, end: int, n: int, seq_ok: bool) -> int:
    m = _end_rx(n, seq_ok).search(s, line_end, end)
    return m.start() if m else end


def _keep_region(s: str, start: int, line_end: int, end: int, n: int, seq_ok: bool, st: _Pruned) -> int:
    """Keep ``s[start:]`` up to the end of the entry whose key (or ``-``) is at indent ``n`` and whose first
    line ends at ``line_end``; returns where the entry ends."""
    m = _end_rx(n, seq_ok).search(s, line_end, end)
    if m is None:
        st.to_end = True
        st.out.append(s[start:end])
        return end
    st.out.append(s[start:m.start()])
    return m.start()


def _line_end(s: str, pos: int, end: int) -> int:
    line_end = s.find("\n", pos, end)
    return end if line_end < 0 else line_end


def _block_mapping_below(s: str, first: re.Match[str], end: int, st: _Pruned) -> None:
    """An empty ``key:`` (or ``-``) whose value the walk read as a block mapping without finding a kept key:
    its first line must be a plain key. Anything else there (``status:`` with ``1.5`` on the next line, a
    quoted or complex key) is refused, as the key search skipped it and would give ``{}``. (Where a kept
    key was found below such a line the YAML is invalid, and skipped text is not checked.) Noted, not
    raised: the line may be cut off by the end of the text read so far (the walk is then done again)."""
    if _PLAIN_KEY.match(s, first.start(2), end) is None and st.refused is None:
        st.refused = "a block value that is not a mapping of plain keys"


def _mapping(s: str, pos: int, end: int, k: int, p: int, spec: dict[str, Spec], path: tuple[str, ...],
             st: _Pruned, lead: str | None) -> tuple[bool, int]:
    """Emit the wanted entries of the block mapping at indent ``k`` (inside an entry at indent ``p``)
    from ``s[pos:end]``; returns (anything emitted, where the mapping ends)."""
    rx = _key_rx(k, tuple(spec), p)
    emitted = False
    while (m := rx.search(s, pos, end)) is not None:
        if m.group("end") is not None:
            return emitted, m.start()
        key = m.group(1)
        if key is None:
            raise NotKubectlLayout("a quoted, complex, merge or tagged key")
        if lead is not None and not emitted:
            st.out.append(lead)
        emitted = True
        pos = _entry(s, m.start(), m.end(), end, k, spec[key], (*path, key), st)
    return emitted, end


def _entry(s: str, start: int, key_end: int, end: int, k: int, sub: Spec, path: tuple[str, ...],
           st: _Pruned) -> int:
    """Emit one wanted entry (its key at indent ``k`` ends at ``key_end``); returns where it ends."""
    line_end = _line_end(s, key_end, end)
    value = s[key_end:line_end].strip(" ")
    empty = not value or value[0] == "#"
    if sub == NAME:
        rend = _region_end(s, line_end, end, k, empty)
        ok, parsed = simple_scalar(value) if rend == line_end else (False, None)
        if ok:
            st.out.append(s[start:key_end] + " ~")
            st.names[path] = parsed
        else:
            st.names[path] = _VERBATIM
            st.out.append(s[start:rend])
            st.to_end = rend == end
        return rend
    if sub == KEEP or not empty:
        return _keep_region(s, start, line_end, end, k, empty, st)
    m = _FIRST.search(s, line_end, end)
    if m is None:
        st.to_end = True
        st.out.append(s[start:end])
        return end
    indent, first = len(m.group(1)), m.group(2)
    is_seq = first == "-" and s[m.end():m.end() + 1] in (" ", "\n", "")
    if isinstance(sub, list) and is_seq and indent >= k:
        st.out.append(s[start:line_end])
        return _sequence(s, m.start(), end, indent, k, sub[0], path, st)
    if isinstance(sub, dict) and not is_seq and indent > k:
        at = len(st.out)
        st.out.append(s[start:line_end])
        emitted, stop = _mapping(s, m.start(), end, indent, k, sub, path, st, None)
        if not emitted:  # none of its keys is kept: an empty mapping, as pruning gives (`spec:` alone is null)
            _block_mapping_below(s, m, end, st)
            st.out[at] = s[start:key_end] + " {}"
        return stop
    if indent < k or (indent == k and not is_seq):  # an empty value: null
        st.out.append(s[start:m.start()])
        return m.start()
    return _keep_region(s, start, line_end, end, k, True, st)


def _sequence(s: str, pos: int, end: int, d: int, p: int, spec: Spec, path: tuple[str, ...],
              st: _Pruned) -> int:
    """Emit the items of the block sequence at indent ``d`` (value of a key at ``p``); returns its end."""
    marker = "\n" + " " * d + "-"
    while True:
        pos = _seq_item(s, pos, end, d, spec, path, st)
        if pos >= end or not s.startswith(marker, pos) or s[pos + d + 2:pos + d + 3] not in (" ", "\n", ""):
            return pos


def _seq_item(s: str, a: int, end: int, d: int, spec: Spec, path: tuple[str, ...], st: _Pruned) -> int:
    """One ``- `` item starting at ``a``; returns where it ends (the next line indented ``d`` or less)."""
    line_end = _line_end(s, a + 1, end)
    rest_start = a + d + 2  # after "\n", the indent and "-"
    stripped = s[rest_start:line_end].lstrip(" ")
    lead = "\n" + " " * d + "-"
    if isinstance(spec, dict) and (not stripped or stripped[0] == "#"):  # "-" alone: content below
        m = _FIRST.search(s, line_end, end)
        if m is not None and m.group(2) != "-" and len(m.group(1)) > d:
            emitted, stop = _mapping(s, m.start(), end, len(m.group(1)), d, spec, path, st, lead)
            if not emitted:
                _block_mapping_below(s, m, end, st)
                st.out.append(lead + " {}")
            return stop
    km = (_SIMPLE_KEY.match(s, line_end - len(stripped), line_end)
          or _PLAIN_KEY.match(s, line_end - len(stripped), line_end)) if isinstance(spec, dict) and stripped else None
    if km is None:
        if isinstance(spec, dict) and stripped[:1] in ("\"", "'", "?", "<", "&", "*", "!"):
            raise NotKubectlLayout("a sequence item with a quoted, complex or aliased key")
        return _keep_region(s, a, line_end, end, d, False, st)  # a scalar, flow or nested-sequence item: kept whole
    assert isinstance(spec, dict)
    col = km.start() - a - 1
    key = km.group(1)
    emitted = False
    pos = line_end
    if key == "<<":
        raise NotKubectlLayout("a merge key")
    if key in spec:
        pos = _entry(s, a, km.end(), end, col, spec[key], (*path, key), st)
        emitted = True
    more, stop = _mapping(s, pos, end, col, d, spec, path, st, None if emitted else lead)
    if not (emitted or more):
        st.out.append(lead + " {}")
    return stop


def _with_names(obj: Any, names: dict[tuple[str, ...], Any]) -> Any:
    """``obj`` (shared between pods) with this pod's names put back where their placeholders are."""
    if not names:
        return obj
    if not isinstance(obj, dict):
        raise NotKubectlLayout("the kept lines do not form a mapping")
    out = dict(obj)
    copied: dict[str, dict[str, Any]] = {}
    for path, value in names.items():
        if value is _VERBATIM:
            continue
        top, leaf = path  # NAME fields sit two levels down: metadata.name, metadata.namespace, spec.nodeName
        parent = copied.get(top)
        if parent is None:
            original = out.get(top)
            if not isinstance(original, dict):
                raise NotKubectlLayout("a name placeholder went missing")
            parent = copied[top] = out[top] = dict(original)
        if leaf not in parent or parent[leaf] is not None:
            raise NotKubectlLayout("a name placeholder went missing")
        parent[leaf] = value
    return out


_BLOCK_SCALARS = ScalarCache(simple_scalar)
_KEPT_KINDS = ("Node", "Pod", "PriorityClass", "PodDisruptionBudget", "RuntimeClass", "Namespace", *WORKLOAD_KINDS)
_POD_NAME, _POD_NAMESPACE, _NODE_NAME = ("metadata", "name"), ("metadata", "namespace"), ("spec", "nodeName")
_ITEM_HEAD = re.compile(r"\n- +(?=[^ \n#])")
_LINE0 = re.compile(r"\n(?=[^ \n#])")  # a line with content at column 0


def _may_name_resize_condition(buf: str, a: int, stop: int) -> bool:
    """Whether the item ``buf[a:stop]`` may hold a PodResizePending condition: the word itself, or a
    backslash (a double-quoted escape can spell it) or an asterisk (an alias can stand for it)."""
    return any(buf.find(mark, a, stop) >= 0 for mark in (RESIZE_CONDITION, "\\", "*"))


def _item_text(st: _Pruned, eof: bool) -> str:
    """The kept lines of an item as one text. A region that runs to the end of the whole text keeps the text's
    own end: a final newline or none, and blank lines after a ``|+`` or ``>+`` scalar, all part of its value."""
    text = "".join(st.out)
    return text if eof and st.to_end else text + "\n"


class _Items:
    """Turns each ``- `` entry of ``items`` into a pruned object for the builder."""

    def __init__(self, builder: ObjectSink, specs: Callable[[object], Spec]) -> None:
        self.builder, self.specs = builder, specs
        self.parsed: dict[str, Any] = {}
        # Pod texts whose name placeholders all sit where _with_names puts the names (known by text: the
        # text decides which names were lifted and where their placeholders are).
        self.placed: set[str] = set()
        self.known_pods = builder.add_known_pod if isinstance(builder, DumpBuilder) else None
        self.count = 0

    def add(self, buf: str, a: int, eof: bool) -> int | None:
        """The item starting at ``buf[a]`` (its newline); returns its end, or None if ``buf`` may end before
        the item does (nothing is added then: read more text and call again).

        The item ends at the first later line with content at column 0, which the walk finds itself; it
        looks at most one character into that line, so a walk that stops before the end of ``buf``
        has seen all it needs. (Looking for the next "\\n-" first cost a scan of every item.)
        """
        end = len(buf)
        if not eof and buf.find("\n", a + 1) < 0:
            return None
        head = _ITEM_HEAD.match(buf, a, end)
        if head is None:
            raise NotKubectlLayout("an item that is not a block mapping")
        k = head.end() - a - 1
        window = a + 4096  # kubectl writes kind second
        guess = _kind_rx(k).search(buf, a, min(end, window))
        if not eof and (guess.end() >= end if guess else end < window):
            # Read on: a guess from text cut short (no kind yet, or half of its line) is a wrong spec, whose
            # walk may refuse a key the right one skips, so the outcome would depend on where chunks end.
            return None
        if guess is not None and _LINE0.search(buf, a + 1, guess.start()) is not None:
            guess = None  # that was a later item's kind
        kind = guess.group(1).strip(" ") if guess else None
        st = _Pruned()
        spec = self.specs(kind)
        lighter = lighter_spec(spec)
        stop = _seq_item(buf, a, end, 0, spec if lighter is None else lighter, (), st)
        if stop >= end and not eof:
            return None
        # a pod's conditions are walked only when one may be PodResizePending (fields.lighter_spec)
        has_marker = lighter is not None and _may_name_resize_condition(buf, a, stop)
        if has_marker:
            st = _Pruned()
            _seq_item(buf, a, end, 0, spec, (), st)
        if st.refused is not None:
            raise NotKubectlLayout(st.refused)
        where = f"document 1.items[{self.count}]"
        self.count += 1
        text = _item_text(st, eof)
        cached = self.parsed.get(text)
        obj = cached if cached is not None else self._parse(text)
        real = obj.get("kind")
        if real != kind and real in _KEPT_KINDS:  # the guess was wrong (kind written late, or twice)
            st = _Pruned()
            spec = self.specs(real)
            lighter = lighter_spec(spec)
            if lighter is not None and not _may_name_resize_condition(buf, a, stop):
                spec = lighter
            _seq_item(buf, a, end, 0, spec, (), st)
            if st.refused is not None:
                raise NotKubectlLayout(st.refused)
            text = _item_text(st, eof)
            obj = self._parse(text)
        if real == "Node":
            self.builder.add(obj, where)
        elif real == "Pod":
            if cached is None:
                if len(self.parsed) >= _CACHE_LIMIT:
                    del self.parsed[next(iter(self.parsed))]
                    self.placed.clear()
                self.parsed[text] = obj
            shape_key = ("kubectl-yaml", text)
            status = obj.get("status")
            nominated = isinstance(status, dict) and status.get("nominatedNodeName") is not None
            if cached is not None and self.known_pods is not None and text in self.placed and not nominated:
                # A text seen before: its shape is known, so only the names and the phase still matter
                # (a nominated pod is added whole: its name and priority count too).
                names = st.names
                meta = obj.get("metadata")
                deleting = isinstance(meta, dict) and meta.get("deletionTimestamp") is not None
                if self.known_pods(names.get(_POD_NAME), names.get(_NODE_NAME),
                                   status.get("phase") if isinstance(status, dict) else None, shape_key,
                                   deleting, names.get(_POD_NAMESPACE),
                                   meta.get("labels") if isinstance(meta, dict) else None, obj):
                    return stop
            self.builder.add(_with_names(obj, st.names), where, shape_key=shape_key)
            if cached is None and _VERBATIM not in st.names.values():
                self.placed.add(text)  # _with_names found every placeholder (it raises otherwise)
        elif real in ("PriorityClass", "PodDisruptionBudget", "RuntimeClass", "Namespace", *WORKLOAD_KINDS):
            self.builder.add(obj, where)
        elif "kind" not in obj or (isinstance(real, str) and real.endswith("List")):
            raise NotKubectlLayout("an item without a kind (typed list) or a nested list")
        return stop

    @staticmethod
    def _parse(text: str) -> dict[str, Any]:
        doc = parse_block_yaml(text, _BLOCK_SCALARS)
        if doc is None:
            try:
                doc = yaml.load(text, Loader=_Loader)
            except _CONSTRUCT_ERRORS:  # the general reader names the problem and its line
                raise NotKubectlLayout("the kept lines do not parse on their own") from None
        if not (isinstance(doc, list) and len(doc) == 1 and isinstance(doc[0], dict)):
            raise NotKubectlLayout("the kept lines are not one mapping")
        # the item is level 3 of the document (its mapping, items, the item): the general reader names the line
        if nested_deeper_than(doc[0], MAX_DEPTH - 2):
            raise NotKubectlLayout(f"nested deeper than {MAX_DEPTH} levels")
        return doc[0]


class _Buffer:
    """The text read so far from the current position on (older text is dropped)."""

    KEEP_BEHIND = 8 * 1024 * 1024

    def __init__(self, chunks: Iterable[str], lead: str) -> None:
        self.chunks = iter(chunks)
        self.text = lead  # a newline before the first line, so that every line starts after one
        self.eof = False

    def more(self) -> None:
        chunk = next(self.chunks, None)
        if chunk is None:
            self.eof = True
        elif "\r" in chunk:
            raise NotKubectlLayout("carriage returns")
        elif "\t" in chunk:  # "key:<TAB>value" is a key to libyaml, not to this reader (kubectl escapes tabs)
            raise NotKubectlLayout("tabs")
        else:
            self.text += chunk

    def grow(self, pos: int) -> None:
        """Read until the text from ``pos`` on is twice as long (or the end), so that an item longer than a
        chunk is walked a logarithmic number of times, not once per chunk."""
        target = 2 * (len(self.text) - pos)
        self.more()
        while not self.eof and len(self.text) - pos < target:
            self.more()

    def drop_before(self, pos: int) -> int:
        if pos < self.KEEP_BEHIND:
            return pos
        self.text = self.text[pos:]
        return 0


def read_kubectl_yaml(chunks: Iterable[str], builder: ObjectSink,
                      specs: Callable[[object], Spec] = spec_for_kind) -> None:
    """Feed every object of a kubectl-style YAML List to ``builder``, each pruned to ``specs(kind)``;
    NotKubectlLayout otherwise."""
    check_top(scan_kubectl_yaml(chunks, builder, specs))


@dataclass
class Scan:
    """Where a scan stopped: the top-level entries other than ``items`` (text), and whether the text
    ended inside ``items`` and had one."""

    skeleton: list[str]
    in_items: bool
    seen_items: bool


def scan_kubectl_yaml(chunks: Iterable[str], builder: ObjectSink, specs: Callable[[object], Spec] = spec_for_kind,
                      *, tail: bool = False) -> Scan:
    """Feed the items of ``chunks`` to ``builder``. ``tail``: the text is the rest of a dump from the
    newline before one of its ``items`` entries on (:mod:`linter.explain.halves`)."""
    items = _Items(builder, specs)
    buf = _Buffer(chunks, "" if tail else "\n")
    skeleton: list[str] = []
    in_items = seen_items = tail
    pos = 0
    while True:
        s = buf.text
        m = _LINE0.search(s, pos)
        if m is None and not buf.eof:
            buf.more()
            continue
        line = m.start() if m else len(s)
        if _FIRST.search(s, pos, line) is not None:
            raise NotKubectlLayout("indented text outside an entry")
        if m is None:
            break
        pos = line
        if s[pos + 1] == "-" and s[pos + 2:pos + 3] in (" ", "\n", ""):
            if not in_items:
                raise NotKubectlLayout("a sequence outside items")
            stop = items.add(s, pos, buf.eof)
            if stop is None:
                buf.grow(pos)
                continue
            pos = stop
        else:
            nxt = _LINE0.search(s, pos + 1)
            if nxt is None and not buf.eof:
                buf.more()
                continue
            unit = s[pos:nxt.start() if nxt else len(s)]
            pos += len(unit)
            if unit.startswith(("\n---", "\n...", "\n%")):
                raise NotKubectlLayout("document markers or directives")
            km = _KEY_AT.match(unit, 1)
            if km is None:
                raise NotKubectlLayout("a top level that is not a block mapping")
            in_items = km.group(1) == "items"
            if in_items:
                inline = unit[km.end():].strip(" \n")[:1]
                if seen_items or _FIRST.search(unit, km.end()) is not None or inline not in ("", "#"):
                    raise NotKubectlLayout("items that are not a column-0 block sequence")
                seen_items = True
            else:
                skeleton.append(unit)
        pos = buf.drop_before(pos)
    return Scan(skeleton, in_items, seen_items)


def check_top(scan: Scan) -> None:
    """The checks on the whole text's top level: one ``items``, and a List kind."""
    if not scan.seen_items:
        raise NotKubectlLayout("no items")
    try:
        top = yaml.load("".join(scan.skeleton) + "\n", Loader=_Loader)
    except _CONSTRUCT_ERRORS:
        raise NotKubectlLayout("the top-level keys do not parse on their own") from None
    kind = top.get("kind") if isinstance(top, dict) else None
    if not (isinstance(kind, str) and kind.endswith("List")):  # else the document is one object, not a list
        raise NotKubectlLayout("items outside a List")
