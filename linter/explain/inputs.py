"""Reading explain's inputs: the cluster dump (STATE) and the pending pod (POD).

STATE is what ``kubectl get nodes,pods,priorityclasses,pdb -A -o yaml|json`` prints (a
``v1/List``), typed lists, or a multi-document YAML stream of Nodes, Pods, PriorityClasses,
PodDisruptionBudgets (these two are optional and used by the preemption section), RuntimeClasses
(optional, for the pending pod's admission) and Services, ReplicaSets, StatefulSets and ReplicationControllers
(optional, PodTopologySpread's default selector); other kinds are ignored. It is streamed, with no size
limit: kubectl's JSON through
:mod:`~linter.explain.jsonstream`, kubectl's YAML through :mod:`~linter.explain.fastyaml`,
anything else (or anything those two do not handle) through the general, bounded
:mod:`~linter.explain.yamlevents` reader. A big kubectl dump is read by two processes
(:mod:`~linter.explain.halves`), with the same result. SCHED and POD are read like lint reads a file (at
most 10 MiB, the same nesting and alias limits). Every problem becomes an
:class:`ExplainInputError` whose message is one line naming the file, the object and the field.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from linter import textfile
from linter.scoring.apidefaults import stored_pod
from linter.scoring.labelselector import SelectorError, selector_from
from linter.scoring.quantity import QuantityError
from linter.scoring.requests import actual_request, fit_score_request, volcano_request

from .dump import ClusterDump, DumpBuilder, ExplainInputError, check_name, describe, negative_request
from .fastyaml import NotKubectlLayout, read_kubectl_yaml
from .fields import KEEP, PREEMPTION_ROOT, Spec, preemption_spec_for_kind, spec_for_kind
from .fieldtypes import POD_TYPES, port_problem, type_problem
from .halves import read_in_halves
from .jsonstream import NotStreamable, read_json_stream
from .objects import ClusterObjects, ObjectCollector
from .yamlevents import ROOT, read_yaml_stream

__all__ = ["ClusterDump", "ClusterObjects", "ExplainInputError", "describe", "load_cluster", "load_cluster_objects",
           "load_pod", "read_text"]

Sink = TypeVar("Sink", DumpBuilder, ObjectCollector)
MAX_INPUT_BYTES = 10 * 1024 * 1024  # SCHED and POD: lint's limit (linter.engine.MAX_FILE_BYTES)


def read_text(path: str, role: str) -> str:
    try:
        return textfile.read_text(path, MAX_INPUT_BYTES)
    except textfile.TextFileError as exc:
        raise ExplainInputError(f"{role} {path}: {exc.reason}") from None


def _stream(path: str) -> textfile.TextStream:
    try:
        return textfile.TextStream(path)
    except textfile.TextFileError as exc:
        raise ExplainInputError(f"STATE {path}: {exc.reason}") from None


def _first_char(path: str) -> str:
    with _stream(path) as stream:
        for chunk in stream.chunks():
            stripped = chunk.lstrip()
            if stripped:
                return stripped[0]
    return ""


def load_cluster(path: str, image_names: frozenset[str] | None = None) -> ClusterDump:
    """The dump at ``path``, streamed, reduced to node sums (see the module docstring); ``image_names``: the
    only image names the Nodes keep (None: all)."""
    return _read(path, lambda deferred: DumpBuilder(path, deferred=deferred, image_names=image_names),
                 spec_for_kind).finish()


def load_cluster_objects(path: str) -> ClusterObjects:
    """The dump at ``path``, streamed, as objects with what preemption reads (:mod:`linter.explain.objects`)."""
    return _read(path, lambda _deferred: ObjectCollector(path), preemption_spec_for_kind).finish()


def _read(path: str, make: Callable[[bool], Sink], specs: Callable[[object], Spec]) -> Sink:
    """A sink (``make(False)``; ``make(True)`` for the second part of a two-process read) fed every
    object of STATE: a big kubectl dump by two processes (:mod:`linter.explain.halves`), else kubectl's
    JSON or YAML through the fast readers, anything else (or what they cannot handle) through the
    general reader into a fresh sink; returns the sink used."""
    try:
        first = _first_char(path)
        halves = read_in_halves(path, first, make, specs)
        if halves is not None:
            return halves
        sink = make(False)
        try:
            with _stream(path) as stream:
                if first in ("{", "["):
                    read_json_stream(stream.chunks(), path, sink)
                else:
                    read_kubectl_yaml(stream.chunks(), sink, specs)
            return sink
        except (NotStreamable, NotKubectlLayout):
            pass
        sink = make(False)
        with _stream(path) as stream:
            read_yaml_stream(stream, path, sink.add_document,
                             root=ROOT if isinstance(sink, DumpBuilder) else PREEMPTION_ROOT)
        return sink
    except textfile.TextFileError as exc:
        raise ExplainInputError(f"STATE {path}: {exc.reason}") from None


def _documents(text: str, path: str, role: str) -> list[Any]:
    if text.lstrip().startswith(("{", "[")):
        try:
            return [json.loads(text)]
        except (ValueError, RecursionError):
            pass  # maybe YAML flow style, or nested too deep for json: the YAML reader reports it
    docs: list[Any] = []
    read_yaml_stream(text, path, lambda doc, _number: docs.append(doc), role=role, root=KEEP)
    return docs


def _check_pod(pod: Mapping[str, Any], path: str, role: str) -> None:
    """Validate what scoring reads, so bad quantities fail here with a clear message."""
    spec = pod.get("spec")
    if not isinstance(spec, Mapping):
        raise ExplainInputError(f"{role} {path}: {describe(pod)}: spec is missing")
    problem = type_problem(pod, POD_TYPES) or port_problem(pod)
    if problem is not None:
        raise ExplainInputError(f"{role} {path}: {describe(pod)}: {problem}")
    containers = spec.get("containers")
    if not isinstance(containers, list) or not containers:
        raise ExplainInputError(f"{role} {path}: {describe(pod)}: spec.containers is missing or empty")
    try:
        pod = stored_pod(pod)
        fit_score_request(pod)
        actual_request(pod)
        volcano_request(pod)
        negative = negative_request(pod)
    except QuantityError as exc:
        raise ExplainInputError(f"{role} {path}: {describe(pod)}: {exc}") from None
    if negative:
        raise ExplainInputError(f"{role} {path}: {describe(pod)}: {negative}")
    spread = spec.get("topologySpreadConstraints")
    for i, constraint in enumerate(spread if isinstance(spread, list) else ()):
        # PodTopologySpread's PreFilter errors on a selector it cannot convert; said here, before STATE is read
        try:
            selector_from(constraint.get("labelSelector") if isinstance(constraint, Mapping) else None)
        except SelectorError as exc:
            raise ExplainInputError(f"{role} {path}: {describe(pod)}: spec.topologySpreadConstraints[{i}]"
                                    f".labelSelector: {exc}") from None


def load_pod(text: str, path: str) -> Mapping[str, Any]:
    docs = _documents(text, path, "POD")
    if len(docs) != 1:
        raise ExplainInputError(f"POD {path}: expected exactly one Pod, found {len(docs)} documents")
    pod = docs[0]
    if not isinstance(pod, Mapping):
        raise ExplainInputError(f"POD {path}: not a Pod (got {type(pod).__name__})")
    if pod.get("kind") != "Pod":
        raise ExplainInputError(f"POD {path}: not a Pod (kind: {pod.get('kind')!r}); give the pending Pod object")
    check_name(pod, path, "POD", "document 1")
    _check_pod(pod, path, "POD")
    return stored_pod(pod)  # what the scheduler will read once the API server has stored it
