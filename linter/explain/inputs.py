"""Reading explain's inputs: the cluster dump (STATE) and the pending pod (POD).

STATE is what ``kubectl get nodes,pods -A -o yaml|json`` prints (a ``v1/List``), a
``NodeList``/``PodList``, or a multi-document YAML stream of Nodes and Pods; other kinds are
ignored. Every problem becomes an :class:`ExplainInputError` whose message is one line
naming the file, the object and the field.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import yaml

from linter import textfile
from linter.scoring.quantity import QuantityError
from linter.scoring.requests import actual_request, fit_score_request, volcano_request

__all__ = ["ExplainInputError", "describe", "load_pod", "load_state", "read_text"]

MAX_INPUT_BYTES = 256 * 1024 * 1024


class ExplainInputError(Exception):
    """Bad STATE/POD/usage: exit code 2 with this one-line message."""


def read_text(path: str, role: str) -> str:
    try:
        return textfile.read_text(path, MAX_INPUT_BYTES)
    except textfile.TextFileError as exc:
        raise ExplainInputError(f"{role} {path}: {exc.reason}") from None


def _documents(text: str, path: str, role: str) -> list[Any]:
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            return [json.loads(text)]
        except ValueError:
            pass  # maybe YAML flow style; let the YAML parser report
    try:
        return [d for d in yaml.safe_load_all(text) if d is not None]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ExplainInputError(f"{role} {path}: not valid YAML/JSON{where}: {problem}") from None


def describe(obj: Mapping[str, Any]) -> str:
    """``Pod ns/name`` or ``Node name`` for messages."""
    meta = obj.get("metadata")
    meta = meta if isinstance(meta, Mapping) else {}
    kind = obj.get("kind") or "object"
    name = meta.get("name") or "<unnamed>"
    if kind == "Pod":
        return f"Pod {meta.get('namespace') or 'default'}/{name}"
    return f"{kind} {name}"


def _flatten(doc: Any, path: str, where: str) -> Iterator[tuple[Mapping[str, Any], str]]:
    if isinstance(doc, list):
        for i, item in enumerate(doc):
            yield from _flatten(item, path, f"{where}[{i}]")
        return
    if not isinstance(doc, Mapping):
        raise ExplainInputError(f"STATE {path}: {where} is not an object (got {type(doc).__name__})")
    kind = doc.get("kind")
    items = doc.get("items")
    if isinstance(kind, str) and kind.endswith("List") and "items" in doc:
        if not isinstance(items, list):
            raise ExplainInputError(f"STATE {path}: {where}.items must be a list")
        item_kind = kind[: -len("List")] if kind != "List" else None
        for i, item in enumerate(items):
            if isinstance(item, Mapping) and item_kind and "kind" not in item:
                item = {**item, "kind": item_kind}  # typed lists omit the items' kind
            yield from _flatten(item, path, f"{where}.items[{i}]")
        return
    yield doc, where


def _check_name(obj: Mapping[str, Any], path: str, role: str, where: str) -> None:
    meta = obj.get("metadata")
    if not isinstance(meta, Mapping) or not isinstance(meta.get("name"), str) or not meta["name"]:
        raise ExplainInputError(f"{role} {path}: {obj.get('kind')} at {where}: metadata.name is missing")


def _check_pod(pod: Mapping[str, Any], path: str, role: str) -> None:
    """Validate what scoring reads, so bad quantities fail here with a clear message."""
    spec = pod.get("spec")
    if not isinstance(spec, Mapping):
        raise ExplainInputError(f"{role} {path}: {describe(pod)}: spec is missing")
    containers = spec.get("containers")
    if not isinstance(containers, list) or not containers:
        raise ExplainInputError(f"{role} {path}: {describe(pod)}: spec.containers is missing or empty")
    try:
        fit_score_request(pod)
        actual_request(pod)
        volcano_request(pod)
    except QuantityError as exc:
        raise ExplainInputError(f"{role} {path}: {describe(pod)}: {exc}") from None


def load_state(text: str, path: str) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """(nodes, pods) from the cluster dump; pods of every phase (callers filter)."""
    nodes: list[Mapping[str, Any]] = []
    pods: list[Mapping[str, Any]] = []
    for i, doc in enumerate(_documents(text, path, "STATE")):
        for obj, where in _flatten(doc, path, f"document {i + 1}"):
            if obj.get("kind") == "Node":
                _check_name(obj, path, "STATE", where)
                nodes.append(obj)
            elif obj.get("kind") == "Pod":
                _check_name(obj, path, "STATE", where)
                _check_pod(obj, path, "STATE")
                pods.append(obj)
    if not nodes:
        raise ExplainInputError(f"STATE {path}: no Node objects found (use: kubectl get nodes,pods -A -o yaml)")
    return nodes, pods


def load_pod(text: str, path: str) -> Mapping[str, Any]:
    docs = _documents(text, path, "POD")
    if len(docs) != 1:
        raise ExplainInputError(f"POD {path}: expected exactly one Pod, found {len(docs)} documents")
    pod = docs[0]
    if not isinstance(pod, Mapping):
        raise ExplainInputError(f"POD {path}: not a Pod (got {type(pod).__name__})")
    if pod.get("kind") != "Pod":
        raise ExplainInputError(f"POD {path}: not a Pod (kind: {pod.get('kind')!r}); give the pending Pod object")
    _check_name(pod, path, "POD", "document 1")
    _check_pod(pod, path, "POD")
    return pod
