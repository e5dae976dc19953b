"""The orders Go may give equally important pods (reference/preemption.md §4.3, §10).

``SelectVictimsOnNode`` sorts a node's potential victims with ``sort.Slice`` by ``MoreImportantPod``:
pods of equal priority and equal start time (or none, which each comparison reads as a fresh
"now") come out in no fixed order, and that order decides which of them charge a PDB budget first
and which are put back first. Pods of such a group that are *interchangeable* (same non-zero
requests, charged by the same PDBs) cannot tell one order from another apart from their names, so
only the distinct sequences of interchangeable classes are orders worth trying. Shared by the scalar
model and the webhook's twin so that both count and try the same orders.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from itertools import product
from math import factorial

__all__ = ["ORDER_LIMIT", "TOTAL_ORDER_LIMIT", "OrderBudget", "class_sequences", "count_orders", "orders_of_groups"]

# Per node, at most this many distinct orders are tried (6 pods of 6 kinds tied: 720); a node with
# more is bounded instead. Each order is one more greedy reprieve of the node's pods.
ORDER_LIMIT = 720
# Over all candidate nodes of one prediction, at most this many orders beyond each node's first are
# tried, so a cluster where thousands of nodes hold tied pods stays as fast as one where few do.
TOTAL_ORDER_LIMIT = 5040


class OrderBudget:
    """The orders a prediction may still try. Nodes ask in node-name order (both models do), so the
    same nodes are enumerated, and the same ones bounded, whichever model runs."""

    def __init__(self, total: int | None = None) -> None:
        self.left = TOTAL_ORDER_LIMIT if total is None else total

    def grant(self, count: int) -> bool:
        """Whether a node with ``count`` distinct orders is enumerated (charging ``count - 1``: its first
        order is the one already worked out); False means it is bounded."""
        if count <= 1:
            return True
        if count > ORDER_LIMIT or count - 1 > self.left:
            return False
        self.left -= count - 1
        return True


def _labels(kinds: Sequence[Hashable]) -> list[int]:
    """The kinds as small ints, numbered in order of first appearance."""
    seen: dict[Hashable, int] = {}
    return [seen.setdefault(k, len(seen)) for k in kinds]


def count_orders(groups: Sequence[Sequence[Hashable]]) -> int:
    """How many distinct orders the groups (each a list of its pods' kinds) allow: the product of each
    group's multinomial coefficient, stopping early once it exceeds :data:`ORDER_LIMIT`."""
    total = 1
    for kinds in groups:
        labels = _labels(kinds)
        ways = factorial(len(labels))
        for label in set(labels):
            ways //= factorial(labels.count(label))
        total *= ways
        if total > ORDER_LIMIT:
            return total
    return total


def class_sequences(kinds: Sequence[Hashable]) -> list[tuple[int, ...]]:
    """Every distinct sequence of the group's kinds (as labels), the given one first."""
    labels = _labels(kinds)
    left = {label: labels.count(label) for label in labels}
    out: list[tuple[int, ...]] = []

    def walk(prefix: list[int]) -> None:
        if len(prefix) == len(labels):
            out.append(tuple(prefix))
            return
        for label in sorted(left):
            if left[label]:
                left[label] -= 1
                prefix.append(label)
                walk(prefix)
                prefix.pop()
                left[label] += 1

    walk([])
    given = tuple(labels)
    out.remove(given)
    return [given, *out]


def orders_of_groups(groups: Sequence[Sequence[Hashable]]) -> Iterator[list[list[int]]]:
    """Per distinct order (the given one first): for each group, the positions (indexes into that group)
    in the new order. Pods of one kind keep their given order among themselves."""
    per_group: list[list[list[int]]] = []
    for kinds in groups:
        labels = _labels(kinds)
        by_label: dict[int, list[int]] = {}
        for i, label in enumerate(labels):
            by_label.setdefault(label, []).append(i)
        arrangements = []
        for seq in class_sequences(kinds):
            used = {label: 0 for label in by_label}
            positions = []
            for label in seq:
                positions.append(by_label[label][used[label]])
                used[label] += 1
            arrangements.append(positions)
        per_group.append(arrangements)
    for choice in product(*per_group):
        yield list(choice)
