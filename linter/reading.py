"""Which YAML documents of a file the program that reads it actually sees.

kube-scheduler (``--config``) and Volcano decode a file with a single-document YAML reader
(``yaml.Unmarshal`` in sigs.k8s.io/yaml and gopkg.in/yaml.v2): only the first document counts;
later ones are never parsed, not even for syntax. kubectl, on the other hand, applies every
document of a manifest. So a stream whose first document is a KubeSchedulerConfiguration or a
Volcano conf is judged on that document alone, with one warning (BPL006) that the rest is ignored;
an *empty* first document in front of a KubeSchedulerConfiguration is what the scheduler reads,
and fails with ``Object 'Kind' is missing``. Everything else keeps every document.

Volcano parses ``strings.TrimSpace(file)``, so when the first line with content is indented, or
what precedes it holds a tab or another space YAML does not skip (U+00A0), the stream it reads is
not the file's: ``  actions: ...`` followed by an unindented ``tiers:`` (or a leading tab) is one
valid conf for Volcano, although the file itself stops being YAML after its first line. Such a
text is read trimmed when its trimmed first document is a Volcano conf, and positions are mapped
back to the file.

A scheduler config that starts with ``{`` is decoded as JSON, not YAML (apimachinery's
``IsJSONBuffer`` picks the serializer), so it must also be valid JSON (:mod:`linter.gojson`), and it
is read the way Go's JSON decoder reads it (:mod:`linter.jsondocument`): number literals as written,
every member of an object in order, duplicates included.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from linter import formats
from linter.filecodes import IGNORED_DOCUMENTS, INPUT_LIMIT, INVALID_YAML
from linter.findings import Finding, Severity
from linter.jsondocument import is_json_buffer, read_json_document
from linter.scoring.volcano import go_trim_space
from linter.source import Document, SourceError, parse_stream

KUBE_SCHEDULER = "kube-scheduler"
VOLCANO = "volcano"
FIRST_DOCUMENT_READERS = frozenset({KUBE_SCHEDULER, VOLCANO})
_READER_NAMES = {KUBE_SCHEDULER: "kube-scheduler", VOLCANO: "Volcano"}


def _embedded_reader(embedded_key: str | None) -> str | None:
    """The format a ConfigMap data key names (``volcano-scheduler.conf``, ``policy.cfg``), if any."""
    return formats.KIND_BY_EMBEDDED_KEY.get(embedded_key) if embedded_key is not None else None


class Reading:
    """The documents to judge, what reading them said, the parse error that stops everything (if any),
    and the format the documents must be judged as (set when the reader, not the content, decides it)."""

    __slots__ = ("documents", "error", "findings", "kind")

    def __init__(self, documents: list[Document] | None = None, findings: list[Finding] | None = None,
                 error: SourceError | None = None, kind: str | None = None) -> None:
        self.documents, self.findings = documents or [], findings or []
        self.error, self.kind = error, kind


def read_stream(text: str, path: str, kind: str | None, *, is_json: bool = False, embedded_key: str | None = None,
                mapper: Callable[[int, int], tuple[int, int]] | None = None) -> Reading:
    """Parse ``text`` and keep what its reader sees. ``kind`` is the format forced with ``--kind``."""
    if kind in (None, VOLCANO) and (trimmed := _volcano_trimmed(text, path, kind, is_json, embedded_key, mapper)):
        return trimmed
    documents, error = parse_stream(text, path, is_json=is_json)
    if (error is not None and error.code != INPUT_LIMIT and not documents and kind in (None, KUBE_SCHEDULER)
            and is_json_buffer(text)):
        # valid JSON that the YAML parser refuses (a key over 1024 characters, a lone surrogate escape);
        # not past an input limit, which holds for JSON too
        json_doc = _json_document(text, path, mapper, embedded_key)
        if json_doc is not None and _reader([json_doc], kind, embedded_key) == KUBE_SCHEDULER:
            return Reading([json_doc], kind=KUBE_SCHEDULER)
    for doc in documents:
        doc.mapper, doc.embedded_key = mapper, embedded_key
    reader = _reader(documents, kind, embedded_key)
    if reader is None:
        if not documents and error is None and kind == KUBE_SCHEDULER and embedded_key is None:
            # a comment-only file given as a scheduler config: the scheduler decodes nothing at all
            return Reading([Document(path, {}, {}, 1, 1, text=text, is_json=is_json)], kind=KUBE_SCHEDULER)
        volcano = kind == VOLCANO or (kind is None and _embedded_reader(embedded_key) == VOLCANO)
        if not documents and error is None and volcano:
            # an empty (or comment-only) volcano-scheduler.conf value, or such a file given as a Volcano conf:
            # Volcano unmarshals nothing, so its actions are "" and it refuses the conf ("failed to find Action ")
            empty = Document(path, {}, {}, 1, 1, text=text, is_json=is_json)
            empty.mapper, empty.embedded_key = mapper, embedded_key
            return Reading([empty], kind=VOLCANO)
        return Reading(documents, error=error)
    first = documents[0]
    if reader == KUBE_SCHEDULER and is_json_buffer(text):
        if bad := _json_error(text):
            from linter import gojson

            line, column = gojson.position(text, bad.offset)
            line, column = mapper(line, column) if mapper else (line, column)
            return Reading(findings=[Finding(
                path, line, column, INVALID_YAML, Severity.ERROR,
                f"kube-scheduler decodes a config that starts with '{{' as JSON, and this is not valid JSON: "
                f"{bad.message}", f"couldn't get version/kind; json parse error: {bad.message}")])
        return Reading([_json_document(text, path, mapper, embedded_key, checked=True) or first], kind=reader)
    reading = Reading([first], kind=reader)
    if first.data is None:
        first.data, first.spots = {}, {}  # what the scheduler decodes from an empty document: no kind
    if len(documents) > 1 or error is not None:
        line, column = first.map(max(first.end_line, first.start_line), 1)
        reading.findings.append(Finding(
            path, line, column, IGNORED_DOCUMENTS, Severity.WARNING,
            f"{_READER_NAMES[reader]} reads only the first YAML document of a file: everything from here on is "
            "ignored (not even checked for syntax)"))
    return reading


_VOLCANO_KEYS = re.compile(r"\b(actions|tiers)\b")


def _volcano_trimmed(text: str, path: str, kind: str | None, is_json: bool, embedded_key: str | None,
                     mapper: Callable[[int, int], tuple[int, int]] | None) -> Reading | None:
    """What Volcano reads when trimming the text changes it: the trimmed stream's first document, if that is
    a Volcano conf and the first line with content is indented (None otherwise: the ordinary reading holds)."""
    start = next((i for i, ch in enumerate(text) if go_trim_space(ch)), len(text))
    if start in (0, len(text)) or (kind is None and _embedded_reader(embedded_key) != VOLCANO
                                   and not _VOLCANO_KEYS.search(text)):
        return None  # nothing trimmed at the start, nothing left, or cannot be a Volcano conf
    if text[:start].strip(" \n") == "" and start == text.rfind("\n", 0, start) + 1:
        return None  # only blank lines go: the same YAML (lines are counted from the trimmed text anyway)
    trimmed = go_trim_space(text)
    documents, error = parse_stream(trimmed, path, is_json=is_json)
    if _reader(documents, kind, embedded_key) != VOLCANO:
        return None
    head = text[:start]
    lines, columns = head.count("\n"), start - (head.rfind("\n") + 1)

    def to_file(line: int, column: int) -> tuple[int, int]:
        at = (line + lines, column + columns if line == 1 else column)
        return mapper(*at) if mapper else at

    first = documents[0]
    first.mapper, first.embedded_key = to_file, embedded_key
    if first.data is None:
        first.data, first.spots = {}, {}
    reading = Reading([first], kind=VOLCANO)
    if len(documents) > 1 or error is not None:
        line, column = first.map(max(first.end_line, first.start_line), 1)
        reading.findings.append(Finding(
            path, line, column, IGNORED_DOCUMENTS, Severity.WARNING,
            "Volcano reads only the first YAML document of a file: everything from here on is ignored "
            "(not even checked for syntax)"))
    return reading


def _reader(documents: list[Document], kind: str | None, embedded_key: str | None) -> str | None:
    """The first-document reader of this stream (kube-scheduler or Volcano), or None."""
    if not documents:
        return None
    if kind is not None:
        return kind if kind in FIRST_DOCUMENT_READERS else None
    first = documents[0]
    if first.data is None and _embedded_reader(embedded_key) == VOLCANO:
        return VOLCANO  # a null volcano-scheduler.conf value (`~`): Volcano reads it, and finds no actions
    if first.data is None:  # an empty first document counts only when a scheduler config follows it
        later = [formats.handler_for(d.data, None, embedded_key) for d in documents[1:] if d.data is not None]
        return KUBE_SCHEDULER if any(h is not None and h.kind == KUBE_SCHEDULER for h in later) else None
    handler = formats.handler_for(first.data, None, embedded_key)
    return handler.kind if handler is not None and handler.kind in FIRST_DOCUMENT_READERS else None



def _json_error(text: str) -> Any:
    from linter import gojson  # only configs written as JSON pay for the JSON scanner

    return gojson.syntax_error(text)


def _json_document(text: str, path: str, mapper: Callable[[int, int], tuple[int, int]] | None,
                   embedded_key: str | None, *, checked: bool = False) -> Document | None:
    """The document as Go's JSON decoder reads ``text``; None when ``text`` is not valid JSON or nests too deep.
    ``checked``: the caller already knows ``text`` is valid JSON."""
    if not checked and _json_error(text) is not None:
        return None
    try:
        doc = read_json_document(text, path)
    except SourceError:
        return None
    doc.mapper, doc.embedded_key = mapper, embedded_key
    return doc


# Words every supported document carries somewhere (kinds, API groups, Policy and Volcano keys): a file
# that fails to parse but contains one of them is a broken config of ours and keeps its BPL001 error.
_KNOWN_FORMAT_MARKERS = re.compile(
    r"KubeSchedulerConfiguration|kubescheduler\.config\.k8s\.io|PriorityClass|scheduling\.k8s\.io"
    r"|\bkind\W{0,3}:\s*\W?Policy\b|\bpredicates\b|\bpriorities\b|\bactions\W{0,3}:|\btiers\W{0,3}:"
    r"|volcano|policy\.cfg|scheduler-config"
)


def mentions_a_known_format(text: str) -> bool:
    return _KNOWN_FORMAT_MARKERS.search(text) is not None
