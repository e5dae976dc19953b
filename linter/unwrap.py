"""Opening wrappers: configs embedded in ConfigMap ``data`` strings, and ``v1/List`` items.

Positions inside an embedded config are mapped back to the outer file: exactly for literal block
scalars (``|``, with or without an indentation indicator such as ``|2``) and single-line values, through
every level of a ConfigMap held in another one's value, and to the value's first character otherwise
(e.g. a folded ``>`` scalar, or a JSON string full of ``\\n`` escapes).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from linter.findings import Finding, Severity
from linter.formats import KIND_BY_EMBEDDED_KEY
from linter.reading import mentions_a_known_format, read_stream
from linter.source import Document, Pointer, PositionMapper

# Keys whose value is meant to be a config file: a parse error there is reported when the key names
# its format or the text names one of ours (as for a file, a Helm template that names none of them is
# not ours to judge); elsewhere a value that is not YAML is simply not a scheduler config.
CONFIG_KEY_SUFFIXES = (".yaml", ".yml", ".json", ".conf", ".cfg")


def is_configmap(data: Any) -> bool:
    return isinstance(data, dict) and data.get("kind") == "ConfigMap" and isinstance(data.get("data"), dict)


def list_items(doc: Document) -> list[Document] | None:
    """Items of a ``kind: List`` (or ``*List``) object as sub-documents; None if it is not one."""
    data = doc.data
    if not (isinstance(data, dict) and isinstance(data.get("kind"), str) and data["kind"].endswith("List")
            and isinstance(data.get("items"), list)):
        return None
    return [sub_document(doc, ("items", i)) for i in range(len(data["items"]))]


def sub_document(doc: Document, prefix: Pointer) -> Document:
    value: Any = doc.data
    for part in prefix:
        value = value[part]
    n = len(prefix)
    spots = {p[n:]: s for p, s in doc.spots.items() if p[:n] == prefix}
    quoted = {p[n:] for p in doc.quoted if p[:n] == prefix}
    dups = [d for d in doc.duplicate_keys if d.pointer[:n] == prefix]
    root = spots.get(())
    line, col = (root.line, root.column) if root else (doc.start_line, doc.start_column)
    return Document(doc.path, value, spots, line, col, duplicate_keys=[
        dataclasses.replace(d, pointer=d.pointer[n:]) for d in dups
    ], quoted=quoted, text=doc.text, is_json=doc.is_json, mapper=doc.mapper, embedded_key=doc.embedded_key,
        repeated=doc.repeated, homes={i: p[n:] for i, p in doc.homes.items() if p[:n] == prefix},
        stores={i: [st._replace(owner=st.owner[n:]) if st.owner[:n] == prefix else st for st in stores]
                for i, stores in doc.stores.items()})


def embedded_documents(doc: Document) -> tuple[list[Document], list[Finding]]:
    """Parse every string in ``data`` that is YAML; map inner positions to the file."""
    out: list[Document] = []
    problems: list[Finding] = []
    for key, value in doc.data["data"].items():
        if isinstance(value, str):
            _read_value(key, value, doc.path, _mapper_for(doc, ("data", key), value), out, problems,
                        where=f"data[{key!r}]: ")
    return out, problems


def data_documents(data: dict[str, str]) -> tuple[list[Document], list[Finding]]:
    """``embedded_documents`` for a ConfigMap's ``data`` on its own (an admission request): each value is
    read the same way, and its key is the path of its documents (positions are inside the value)."""
    out: list[Document] = []
    problems: list[Finding] = []
    for key, value in data.items():
        _read_value(key, value, key, None, out, problems, where="")  # the path already names the key
    return out, problems


def _read_value(key: str, value: str, path: str, mapper: PositionMapper | None,
                out: list[Document], problems: list[Finding], *, where: str) -> None:
    reading = read_stream(value, path, None, is_json=key.endswith(".json"), embedded_key=key, mapper=mapper)
    if (exc := reading.error) is not None:
        if key.endswith(CONFIG_KEY_SUFFIXES) and (key in KIND_BY_EMBEDDED_KEY or mentions_a_known_format(value)):
            line, col = mapper(exc.line, exc.column) if mapper else (exc.line, exc.column)
            problems.append(Finding(path, line, col, exc.code, Severity.ERROR, f"{where}{exc.message}"))
        return
    problems.extend(reading.findings)
    out.extend(reading.documents)


def _mapper_for(doc: Document, pointer: Pointer, value: str) -> PositionMapper:
    """Positions inside ``value`` -> positions in the file: the value's own document coordinates are found
    first (a ConfigMap inside another one's value has them relative to that value) and ``doc.map`` then
    takes them the rest of the way out."""
    spot = doc.spots.get(tuple(pointer))
    if spot is None:
        line, col = doc.locate(pointer)
        return lambda il, ic: (line, col)
    line, col = spot.line, spot.column
    lines = doc.text.splitlines()
    header = lines[line - 1][col - 1:] if 0 < line <= len(lines) and 0 < col <= len(lines[line - 1]) else ""
    indicator = header[:1]
    if indicator == "|":
        indent = _block_indent(header, spot.key_column, lines[line:])
        return lambda il, ic: doc.map(line + il, ic + indent)
    if "\n" not in value.rstrip("\n") and indicator != ">":
        shift = 1 if indicator and indicator in "'\"" else 0
        return lambda il, ic: doc.map(line, col + shift + ic - 1)
    return lambda il, ic: doc.map(line, col)


def _block_indent(header: str, key_column: int, body: list[str]) -> int:
    """The content indentation of a literal block scalar: an explicit indentation indicator (``|2``, ``|-2``)
    counts from the mapping that holds the key (as yaml.v2's scanner does); without one, the first line
    with content sets it."""
    digits = [c for c in header[1:3] if c.isdigit()]
    if digits:
        return key_column - 1 + int(digits[0])
    for text in body:
        if text.strip():
            return len(text) - len(text.lstrip(" "))
    return 0
