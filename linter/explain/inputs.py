"""Reading explain's inputs: the cluster dump (STATE) and the pending pod (POD).

STATE is what ``kubectl get nodes,pods,priorityclasses,pdb -A -o yaml|json`` prints (a
``v1/List``), typed lists, or a multi-document YAML stream of Nodes, Pods, PriorityClasses and
PodDisruptionBudgets (the last two are optional and used by the preemption section); other kinds
are ignored. Every problem becomes an :class:`ExplainInputError` whose message is one line
naming the file, the object and the field.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from linter import textfile
from linter.scoring.preemption.pods import parse_time
from linter.scoring.quantity import QuantityError
from linter.scoring.requests import actual_request, fit_score_request, volcano_request

__all__ = ["ClusterDump", "ExplainInputError", "describe", "load_cluster", "load_pod", "load_state", "read_text"]

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
    if kind in ("Pod", "PodDisruptionBudget"):
        return f"{kind} {meta.get('namespace') or 'default'}/{name}"
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


@dataclass(frozen=True)
class ClusterDump:
    """What explain reads from STATE: Nodes, Pods (every phase), PriorityClasses, PodDisruptionBudgets."""

    nodes: list[Mapping[str, Any]]
    pods: list[Mapping[str, Any]]
    priority_classes: list[Mapping[str, Any]] = field(default_factory=list)
    pdbs: list[Mapping[str, Any]] = field(default_factory=list)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_preemption_fields(obj: Mapping[str, Any], path: str, role: str) -> None:
    """The fields preemption reads, so that a bad one is named instead of silently read as 0."""
    spec = obj.get("spec") if isinstance(obj.get("spec"), Mapping) else {}
    status = obj.get("status") if isinstance(obj.get("status"), Mapping) else {}
    assert isinstance(spec, Mapping) and isinstance(status, Mapping)
    kind = obj.get("kind")
    if kind == "Pod":
        if spec.get("priority") is not None and not _is_int(spec["priority"]):
            raise ExplainInputError(f"{role} {path}: {describe(obj)}: spec.priority must be an integer")
        start = status.get("startTime")
        if start is not None and parse_time(start) is None:
            raise ExplainInputError(f"{role} {path}: {describe(obj)}: status.startTime is not an RFC 3339 time")
    elif kind == "PriorityClass" and not _is_int(obj.get("value")):
        raise ExplainInputError(f"{role} {path}: {describe(obj)}: value must be an integer")
    elif kind == "PodDisruptionBudget":
        allowed = status.get("disruptionsAllowed")
        if allowed is not None and not _is_int(allowed):
            raise ExplainInputError(f"{role} {path}: {describe(obj)}: status.disruptionsAllowed must be an integer")
        if spec.get("selector") is not None and not isinstance(spec["selector"], Mapping):
            raise ExplainInputError(f"{role} {path}: {describe(obj)}: spec.selector must be a mapping")


def load_cluster(text: str, path: str) -> ClusterDump:
    """The cluster dump; other kinds are ignored."""
    dump = ClusterDump([], [])
    for i, doc in enumerate(_documents(text, path, "STATE")):
        for obj, where in _flatten(doc, path, f"document {i + 1}"):
            kind = obj.get("kind")
            if kind not in ("Node", "Pod", "PriorityClass", "PodDisruptionBudget"):
                continue
            _check_name(obj, path, "STATE", where)
            if kind == "Pod":
                _check_pod(obj, path, "STATE")
            _check_preemption_fields(obj, path, "STATE")
            {"Node": dump.nodes, "Pod": dump.pods, "PriorityClass": dump.priority_classes,
             "PodDisruptionBudget": dump.pdbs}[str(kind)].append(obj)
    if not dump.nodes:
        raise ExplainInputError(f"STATE {path}: no Node objects found "
                                "(use: kubectl get nodes,pods,priorityclasses,pdb -A -o yaml)")
    return dump


def load_state(text: str, path: str) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """(nodes, pods) from the cluster dump; pods of every phase (callers filter)."""
    dump = load_cluster(text, path)
    return dump.nodes, dump.pods


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
    _check_preemption_fields(pod, path, "POD")
    return pod
