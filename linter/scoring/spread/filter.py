"""PodTopologySpread's PreFilter and Filter (kube-scheduler 1.36, filtering.go), for the DoNotSchedule
constraints.

PreFilter counts, per constraint, the matching pods of every *eligible* domain: the topology values of
the nodes (all of the snapshot's, feasible or not) that have every constraint's topology key and pass
the constraint's inclusion policies; a domain whose nodes hold no matching pod counts 0. Filter rejects a
node without one of the topology keys (UnschedulableAndUnresolvable, "... (missing required label)") and
a node where ``matching pods in its domain + 1 if the pod matches its own selector - global minimum``
exceeds ``maxSkew`` (Unschedulable). The global minimum is 0 while fewer than ``minDomains`` domains are
eligible. Pods nominated to the node (the PreFilter extension's AddPod) count in its domain.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from linter.goint import INT32_MAX
from linter.scoring.boundpods import BoundPods, LabelSet

from .constraints import SpreadConstraint
from .nodes import SpreadNode, has_all_keys, included

__all__ = ["REASON_LABEL_MISSING", "REASON_SKEW", "SpreadFilter", "prefilter"]

REASON_SKEW = "node(s) didn't match pod topology spread constraints"
REASON_LABEL_MISSING = REASON_SKEW + " (missing required label)"


@dataclass(frozen=True)
class SpreadFilter:
    """The PreFilter state: constraints and each one's matching pods per eligible topology value."""

    pod: Mapping[str, Any]
    namespace: str
    constraints: tuple[SpreadConstraint, ...]
    counts: tuple[dict[str, int], ...]
    affinity_memo: dict[str, bool]

    def _minimum(self, i: int, counts: Mapping[str, int]) -> int:
        if len(counts) < self.constraints[i].min_domains:
            return 0
        return min(counts.values(), default=INT32_MAX)  # criticalPaths[0]: MaxInt32 with no domain

    def check(self, node: SpreadNode, own_labels: Mapping[str, str],
              nominated: Sequence[tuple[str, LabelSet]] = (),
              removed: Sequence[tuple[str, LabelSet]] = ()) -> tuple[str, str] | None:
        """(code, reason) when the node fails, else None. ``nominated``: (namespace, labels) of the pods
        nominated to this node that count for the pod (AddPod); ``removed``: of this node's bound pods that
        preemption's dry run takes off (RemovePod)."""
        counts = self._updated(node, nominated, removed) if nominated or removed else self.counts
        for i, c in enumerate(self.constraints):
            value = node.labels.get(c.topology_key)
            if value is None:
                return ("UnschedulableAndUnresolvable", REASON_LABEL_MISSING)
            self_match = 1 if c.selector.matches(own_labels) else 0
            if counts[i].get(value, 0) + self_match - self._minimum(i, counts[i]) > c.max_skew:
                return ("Unschedulable", REASON_SKEW)
        return None

    def _updated(self, node: SpreadNode, added: Sequence[tuple[str, LabelSet]],
                 removed: Sequence[tuple[str, LabelSet]]) -> tuple[dict[str, int], ...]:
        """``updateWithPod``: +1 for each pod in ``added``, -1 for each in ``removed`` (only pods of the pod's
        namespace; a terminating pod too, though PreFilter never counted it). The minimum is taken over the
        updated counts: Go keeps it incrementally (two critical paths, or per-count domain tallies in the
        newest filtering.go), and with every update on the node's own domain both hold the true minimum."""
        if not has_all_keys(node.labels, self.constraints):
            return self.counts
        counts = tuple(dict(c) for c in self.counts)
        for pods, delta in ((added, 1), (removed, -1)):
            for namespace, labels in pods:
                if namespace != self.namespace:
                    continue
                as_dict = dict(labels)
                for i, c in enumerate(self.constraints):
                    if c.selector.matches(as_dict) and included(c, self.pod, node, self.affinity_memo):
                        value = node.labels[c.topology_key]
                        counts[i][value] = counts[i].get(value, 0) + delta
        return counts


def prefilter(pod: Mapping[str, Any], namespace: str, constraints: Sequence[SpreadConstraint],
              nodes: Sequence[SpreadNode], pods: BoundPods) -> SpreadFilter | None:
    """The PreFilter state, or None when there is no DoNotSchedule constraint (PreFilter returns Skip and
    the Filter passes every node)."""
    if not constraints:
        return None
    counts: tuple[dict[str, int], ...] = tuple({} for _ in constraints)
    memos: list[dict[int, bool]] = [{} for _ in constraints]
    affinity_memo: dict[str, bool] = {}
    for node in nodes:
        if not has_all_keys(node.labels, constraints):
            continue
        for i, c in enumerate(constraints):
            if not included(c, pod, node, affinity_memo):
                continue
            value = node.labels[c.topology_key]
            counts[i][value] = counts[i].get(value, 0) + pods.count(node.name, c.selector, namespace, memos[i])
    return SpreadFilter(pod, namespace, tuple(constraints), counts, affinity_memo)
