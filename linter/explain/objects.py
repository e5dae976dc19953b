"""Whole cluster objects, for the preemption section and the webhook's ``--cluster-file`` mode.

Explain's first read of STATE (:class:`~linter.explain.dump.DumpBuilder`) keeps only per-node sums.
Preemption needs the pods themselves (priorities, start times, labels for PDBs), so when a pod fits
nowhere STATE is read a second time by the same streaming readers into an :class:`ObjectCollector`,
which keeps every Node, Pod, PriorityClass and PodDisruptionBudget with the checks the first read
makes, each with the fields the scoring and preemption models read
(:data:`~linter.explain.fields.PREEMPTION_POD_FIELDS` for pods; the readers prune them so as they go).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from linter.scoring.apidefaults import stored_node, stored_pod

from .dump import (
    ExplainInputError,
    check_name,
    describe,
    feed_document,
    pod_shape,
    preemption_field_problem,
    request_fingerprint,
)
from .fields import preemption_spec_for_kind, prune
from .fieldtypes import NODE_TYPES, POD_TYPES, port_problem, type_problem

__all__ = ["ClusterObjects", "ObjectCollector"]

KINDS = ("Node", "Pod", "PriorityClass", "PodDisruptionBudget")


@dataclass(frozen=True)
class ClusterObjects:
    """Nodes, Pods (every phase), PriorityClasses and PodDisruptionBudgets of STATE, in file order."""

    nodes: list[Mapping[str, Any]]
    pods: list[Mapping[str, Any]]
    priority_classes: list[Mapping[str, Any]] = field(default_factory=list)
    pdbs: list[Mapping[str, Any]] = field(default_factory=list)


class ObjectCollector:
    """An :class:`~linter.explain.dump.ObjectSink` that keeps the objects; the first problem wins."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.error: str | None = None
        self._kept: dict[str, list[Mapping[str, Any]]] = {kind: [] for kind in KINDS}
        self._shape_errors: dict[Hashable, str | None] = {}  # by request shape, as DumpBuilder caches shapes

    def add_document(self, doc: Any, number: int) -> None:
        feed_document(self, self.path, doc, number)

    def add(self, obj: Mapping[str, Any], where: str, shape_key: Hashable | None = None) -> None:
        kind = obj.get("kind")
        if self.error is not None or kind not in KINDS:
            return
        try:
            check_name(obj, self.path, "STATE", where)
        except ExplainInputError as exc:
            self.error = str(exc)
            return
        types = {"Node": NODE_TYPES, "Pod": POD_TYPES}.get(str(kind))
        problem = type_problem(obj, types) if types is not None else None
        problem = problem or (port_problem(obj) if kind == "Pod" else None)
        problem = problem or (self._shape_error(obj, shape_key) if kind == "Pod" else None)
        problem = problem or preemption_field_problem(obj)
        if problem is not None:
            self.error = f"STATE {self.path}: {describe(obj)}: {problem}"
            return
        kept = prune(obj, preemption_spec_for_kind(kind))
        # as the API server stores them (the pod's quantities were checked with its shape above)
        if kind == "Pod":
            kept = stored_pod(kept)
        elif kind == "Node":
            kept = stored_node(kept)
        self._kept[str(kind)].append(kept)

    def _shape_error(self, pod: Mapping[str, Any], shape_key: Hashable | None) -> str | None:
        key = shape_key if shape_key is not None else request_fingerprint(pod)
        if key is None:
            return pod_shape(pod).error
        if key not in self._shape_errors:
            self._shape_errors[key] = pod_shape(pod).error
        return self._shape_errors[key]

    def clear_cache(self) -> None:
        self._shape_errors.clear()

    def absorb(self, later: ObjectCollector) -> None:
        """Add what ``later`` kept from the text after this one's (neither has an error)."""
        assert self.error is None and later.error is None
        for kind, kept in later._kept.items():
            self._kept[kind].extend(kept)

    def finish(self) -> ClusterObjects:
        if self.error is not None:
            raise ExplainInputError(self.error)
        if not self._kept["Node"]:
            raise ExplainInputError(f"STATE {self.path}: no Node objects found "
                                    "(use: kubectl get nodes,pods,priorityclasses,pdb -A -o yaml)")
        k = self._kept
        return ClusterObjects(k["Node"], k["Pod"], k["PriorityClass"], k["PodDisruptionBudget"])
