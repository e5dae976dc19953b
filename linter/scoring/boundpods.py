"""The bound pods' namespaces and labels, grouped once for every plugin that matches selectors against them.

PodTopologySpread counts the bound pods its constraints' selectors match, leaving terminating ones out
(``countPodsMatchSelector``: a pod with a ``deletionTimestamp`` never counts, kubernetes#87621; an *empty*
selector, ``labelSelector: {}``, counts nothing at all). InterPodAffinity matches its terms against every
bound pod, terminating or not (the scheduler cache keeps a pod until it is deleted, and the plugin does not
look at the timestamp). Both read the same :class:`BoundPods`: each distinct (namespace, label set) is stored
once and numbered, and a node holds only numbers and counts, kept apart for terminating pods, so replicas
of one workload cost one selector match and the memory grows with the workloads, not with the pods.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from linter.scoring.labelselector import LabelSelector

__all__ = ["BoundPods", "LabelSet", "label_set"]

LabelSet = tuple[tuple[str, str], ...]
Counts = dict[str, dict[int, int]]  # node name -> group number -> pods


def label_set(labels: Mapping[str, str]) -> LabelSet:
    return tuple(sorted((str(k), str(v)) for k, v in labels.items()))


def _bump(counts: Counts, node: str, gid: int, n: int) -> None:
    groups = counts.get(node)
    if groups is None:
        groups = counts[node] = {}
    groups[gid] = groups.get(gid, 0) + n


class BoundPods:
    """The pods bound to each node, by namespace and label set, live and terminating apart."""

    def __init__(self) -> None:
        self._ids: dict[tuple[str, LabelSet], int] = {}
        self._groups: list[tuple[str, LabelSet]] = []
        self._live: Counts = {}
        self._terminating: Counts = {}  # few pods: a second map keeps the common case one lookup

    def add(self, node: str, namespace: str, labels: LabelSet, terminating: bool = False, n: int = 1) -> None:
        key = (namespace, labels)
        gid = self._ids.get(key)
        if gid is None:
            gid = self._ids[key] = len(self._groups)
            self._groups.append(key)
        _bump(self._terminating if terminating else self._live, node, gid, n)

    def absorb(self, other: BoundPods) -> None:
        """Add the pods ``other`` holds (sums: the order pods are added in does not matter)."""
        for counts, terminating in ((other._live, False), (other._terminating, True)):
            for node, groups in counts.items():
                for gid, n in groups.items():
                    namespace, labels = other._groups[gid]
                    self.add(node, namespace, labels, terminating, n)

    def count(self, node: str, selector: LabelSelector, namespace: str, memo: dict[int, bool]) -> int:
        """PodTopologySpread: how many of ``node``'s non-terminating pods in ``namespace`` ``selector``
        matches; ``memo`` caches the verdict per group (one memo per selector and namespace)."""
        if selector.empty:
            return 0
        total = 0
        for gid, n in self._live.get(node, {}).items():
            hit = memo.get(gid)
            if hit is None:
                ns, labels = self._groups[gid]
                hit = memo[gid] = ns == namespace and selector.matches(dict(labels))
            if hit:
                total += n
        return total

    def groups(self) -> Iterator[tuple[str, LabelSet, dict[str, int]]]:
        """InterPodAffinity: each (namespace, label set) with its pods per node name, terminating ones too."""
        by_group: dict[int, dict[str, int]] = {}
        for counts in (self._live, self._terminating):
            for node, groups in counts.items():
                for gid, n in groups.items():
                    nodes = by_group.setdefault(gid, {})
                    nodes[node] = nodes.get(node, 0) + n
        for gid, nodes in by_group.items():
            namespace, labels = self._groups[gid]
            yield namespace, labels, nodes
