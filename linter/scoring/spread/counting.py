"""The bound pods PodTopologySpread counts, grouped so a count is one pass over a node's distinct label sets.

``countPodsMatchSelector``: a pod counts for a constraint when it is not terminating (no
``deletionTimestamp``), is in the namespace of the pod being scheduled and its labels match the
constraint's selector; an *empty* selector (``labelSelector: {}``) counts nothing at all. Pods are
grouped per node by (namespace, label set), so replicas of one workload cost one selector match.
"""

from __future__ import annotations

from collections.abc import Mapping

from linter.scoring.labelselector import LabelSelector

__all__ = ["BoundPods", "LabelSet", "label_set"]

LabelSet = tuple[tuple[str, str], ...]


def label_set(labels: Mapping[str, str]) -> LabelSet:
    return tuple(sorted((str(k), str(v)) for k, v in labels.items()))


class BoundPods:
    """The non-terminating pods bound to each node, by namespace and label set. Each distinct (namespace,
    label set) is stored once and numbered, so a node holds only numbers and counts: the memory grows with
    the workloads, not with the pods."""

    def __init__(self) -> None:
        self._ids: dict[tuple[str, LabelSet], int] = {}
        self._groups: list[tuple[str, LabelSet]] = []
        self._by_node: dict[str, dict[int, int]] = {}

    def add(self, node: str, namespace: str, labels: LabelSet, terminating: bool = False, n: int = 1) -> None:
        if terminating:
            return  # never counted (kubernetes#87621)
        key = (namespace, labels)
        gid = self._ids.get(key)
        if gid is None:
            gid = self._ids[key] = len(self._groups)
            self._groups.append(key)
        groups = self._by_node.get(node)
        if groups is None:
            groups = self._by_node[node] = {}
        groups[gid] = groups.get(gid, 0) + n

    def absorb(self, other: BoundPods) -> None:
        """Add the pods ``other`` holds (sums: the order pods are added in does not matter)."""
        for node, groups in other._by_node.items():
            for gid, n in groups.items():
                namespace, labels = other._groups[gid]
                self.add(node, namespace, labels, False, n)

    def count(self, node: str, selector: LabelSelector, namespace: str, memo: dict[int, bool]) -> int:
        """How many of ``node``'s pods in ``namespace`` ``selector`` matches; ``memo`` caches the verdict per
        (namespace, label set) (one memo per selector and namespace)."""
        if selector.empty:
            return 0
        total = 0
        for gid, n in self._by_node.get(node, {}).items():
            hit = memo.get(gid)
            if hit is None:
                ns, labels = self._groups[gid]
                hit = memo[gid] = ns == namespace and selector.matches(dict(labels))
            if hit:
                total += n
        return total
