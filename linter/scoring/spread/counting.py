"""The bound pods PodTopologySpread counts, grouped so a count is one pass over a node's distinct label sets.

``countPodsMatchSelector``: a pod counts for a constraint when it is not terminating (no
``deletionTimestamp``), is in the namespace of the pod being scheduled and its labels match the
constraint's selector; an *empty* selector (``labelSelector: {}``) counts nothing at all. Pods are
grouped per node by (namespace, label set), so replicas of one workload cost one selector match.
"""

from __future__ import annotations

from collections.abc import Mapping

from .selectors import Selector

__all__ = ["BoundPods", "LabelSet", "label_set"]

LabelSet = tuple[tuple[str, str], ...]


def label_set(labels: Mapping[str, str]) -> LabelSet:
    return tuple(sorted((str(k), str(v)) for k, v in labels.items()))


class BoundPods:
    """The non-terminating pods bound to each node, by namespace and label set."""

    def __init__(self) -> None:
        self._by_node: dict[str, dict[tuple[str, LabelSet], int]] = {}

    def add(self, node: str, namespace: str, labels: LabelSet, terminating: bool = False) -> None:
        if terminating:
            return  # never counted (kubernetes#87621)
        groups = self._by_node.get(node)
        if groups is None:
            groups = self._by_node[node] = {}
        key = (namespace, labels)
        groups[key] = groups.get(key, 0) + 1

    def absorb(self, other: BoundPods) -> None:
        """Add the pods ``other`` holds (sums: the order pods are added in does not matter)."""
        for node, groups in other._by_node.items():
            mine = self._by_node.setdefault(node, {})
            for key, n in groups.items():
                mine[key] = mine.get(key, 0) + n

    def count(self, node: str, selector: Selector, namespace: str, memo: dict[LabelSet, bool]) -> int:
        """How many of ``node``'s pods in ``namespace`` ``selector`` matches; ``memo`` caches the selector's
        verdict per label set (one memo per selector)."""
        if selector.empty:
            return 0
        total = 0
        for (ns, labels), n in self._by_node.get(node, {}).items():
            if ns != namespace:
                continue
            hit = memo.get(labels)
            if hit is None:
                hit = memo[labels] = selector.matches(dict(labels))
            if hit:
                total += n
        return total
