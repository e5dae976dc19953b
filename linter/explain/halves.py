"""Reading a big kubectl dump (YAML or JSON) in two processes, with the result one process gives.

A dump of thousands of nodes takes tens of seconds to read, nearly all of it per item, and the
items are independent. So, from :data:`MIN_BYTES` on and where the platform can fork, the file is
cut in two between two ``items`` entries after its middle, found by kubectl's layout (a ``- ``
line at column 0 in YAML; ``},`` then ``{`` on lines of their own, indented as kubectl indents the
items, in JSON). A forked child reads the second part while this process reads the first, and the
child's objects are then added after this process's own, in file order (pod sums included, so
float totals are the same).

The cut is only a guess until the first part confirms it: that part must end inside ``items``, at
an item boundary, as the whole-file reader would be there. Whenever anything differs from a plain
read (the cut is elsewhere, either part is not in the layout the fast readers take, the second part
has a problem whose message would need its position in the whole file, the child cannot start or
dies), the caller reads the file in one process, as before, and that read gives the answer and the
message.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Generic, TypeVar

from linter import textfile
from linter.cpus import usable_cpus

from .dump import DumpBuilder
from .fastyaml import NotKubectlLayout, Scan, check_top, scan_kubectl_yaml
from .fields import Spec
from .jsonstream import NotStreamable, Top, read_json_head, read_json_tail
from .objects import ObjectCollector

__all__ = ["MIN_BYTES", "read_in_halves"]

# Below this, one process reads the file in a few seconds at most and the fork is not worth it.
MIN_BYTES = 32 * 1024 * 1024
_WINDOW = 1024 * 1024
_NOT_OURS = (NotKubectlLayout, NotStreamable, textfile.TextFileError)

Sink = TypeVar("Sink", DumpBuilder, ObjectCollector)
Part = TypeVar("Part", Scan, Top)


@dataclass(frozen=True)
class _Layout(Generic[Part]):
    marker: bytes  # what lies between two items
    cut_at: int  # where in the marker the second part starts
    head: Callable[[Iterable[str], Any], Part]
    tail: Callable[[Iterable[str], Any], Part]
    joins: Callable[[Part, Part], bool]  # the whole text's top level is what the fast reader takes


def _yaml_layout(specs: Callable[[object], Spec]) -> _Layout[Scan]:
    def joins(head: Scan, tail: Scan) -> bool:
        if not head.in_items:
            return False
        try:
            check_top(Scan(head.skeleton + tail.skeleton, tail.in_items, True))
        except NotKubectlLayout:
            return False
        return True

    def head(chunks: Iterable[str], sink: Any) -> Scan:
        # The first part stops before the newline in front of the cut, which ends its last line: the reader
        # takes the end of its text for the end of the file, where a "|" scalar has no final line break.
        return scan_kubectl_yaml(itertools.chain(chunks, ["\n"]), sink, specs)

    return _Layout(b"\n- ", 0, head, lambda chunks, sink: scan_kubectl_yaml(chunks, sink, specs, tail=True), joins)


def _json_layout(path: str) -> _Layout[Top]:
    def joins(head: Top, tail: Top) -> bool:
        if "kind" in head.seen and "kind" in tail.seen:
            return False  # a repeated kind
        merged = Top({**head.doc, **tail.doc}, head.seen | tail.seen, True)
        try:
            merged.check()
        except NotStreamable:
            return False
        return True

    marker = b"\n        },\n        {\n"  # kubectl indents by four: items sit two levels down
    return _Layout(marker, len(marker) - 2, lambda chunks, sink: read_json_head(chunks, path, sink),
                   lambda chunks, sink: read_json_tail(chunks, path, sink), joins)


def _cut(path: str, size: int, marker: bytes, at: int) -> int | None:
    """Where the second part starts: in the first ``marker`` after the middle of the file, or None."""
    with open(path, "rb") as fh:
        start = size // 2
        while start < size:
            fh.seek(start)
            window = fh.read(_WINDOW + len(marker))
            found = window.find(marker)
            if found >= 0:
                return start + found + at
            start += _WINDOW
    return None


def _can_fork() -> bool:
    if "fork" not in multiprocessing.get_all_start_methods():
        return False
    return usable_cpus() > 1


def _read_tail(path: str, cut: int, sink: Sink, layout: _Layout[Any], out: Connection) -> None:
    try:
        with textfile.TextStream(path, cut) as stream:
            part = layout.tail(stream.chunks(), sink)
        sink.clear_cache()  # not worth sending back
        out.send((part, sink))
    except Exception as exc:  # anything at all: the parent reads the whole file itself
        out.send(f"{type(exc).__name__}: {exc}")
    finally:
        out.close()


def read_in_halves(path: str, first: str, make: Callable[[bool], Sink],
                   specs: Callable[[object], Spec]) -> Sink | None:
    """The sink filled from the kubectl dump at ``path`` (``first``: its first non-blank character) by
    two processes, or None: read it in one. ``make(deferred)`` gives an empty sink; the second part's
    is made with ``deferred=True``."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return None
    if size < MIN_BYTES or first == "[" or not _can_fork():
        return None
    layout: _Layout[Any] = _json_layout(path) if first == "{" else _yaml_layout(specs)
    try:
        cut = _cut(path, size, layout.marker, layout.cut_at)
    except OSError:  # the one-process read reports it
        return None
    if cut is None:
        return None
    context = multiprocessing.get_context("fork")
    try:
        receive, send = context.Pipe(duplex=False)
    except OSError:  # out of file descriptors: one process will do
        return None
    child = context.Process(target=_read_tail, args=(path, cut, make(True), layout, send), daemon=True)
    try:
        child.start()
    except OSError:  # no process can be started (a process limit, no memory): one process will do
        receive.close()
        send.close()
        return None
    send.close()
    try:
        head = make(False)
        try:
            with textfile.TextStream(path, 0, cut) as stream:
                head_part = layout.head(stream.chunks(), head)
        except _NOT_OURS:
            return None
        try:
            answer: Any = receive.recv()
        except EOFError:  # the child died
            return None
        if not isinstance(answer, tuple) or not layout.joins(head_part, answer[0]):
            return None
        return _joined(head, answer[1])
    finally:
        receive.close()
        if child.is_alive():
            child.terminate()
        child.join()


def _joined(head: Sink, tail: Sink) -> Sink | None:
    if head.error is not None:
        return head  # the first problem in file order
    if tail.error is not None:
        return None  # its message names the item's index in the whole file: let one process find it
    head.absorb(tail)
    return head
