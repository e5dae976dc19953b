"""What a candidate node's victim selection can come to over the orders Go may use (§4.3, §10).

The node's candidate in :mod:`.victims` puts equally important pods in name order. Go's order is
random, and on a node whose equal pods differ (requests, PDBs) another order can give other victims
and so another selection key -- enough, on a node that loses in name order, to make it win. So every
distinct order (:mod:`.orders`) is tried, and the node is ranked by the best and the worst key it can
reach. Past :data:`.orders.ORDER_LIMIT` orders on the node, or once the prediction's
:class:`.orders.OrderBudget` is spent, the node is bounded instead: best as if one victim of its lowest
priority, without PDB violation and started "now"; worst as if all its lower-priority pods were victims,
each protected pod violating.
"""

from __future__ import annotations

from collections.abc import Container, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from linter.scoring.hostports import HostPort, ports_conflict

from . import orders
from .choice import OFFSET, Key, selection_key
from .filters import FilterSetup, NodeState
from .orders import OrderBudget, count_orders, orders_of_groups
from .pdb import Budget
from .pods import PodFacts, posix_seconds
from .victims import NodeVictims, importance_key, victims_in_order

__all__ = ["NodeOutcomes", "OrderOutcome", "bound_keys", "bounded_note", "mixed_fates", "node_outcomes", "order_notes",
           "pod_kind", "tie_note", "varying_note", "violations_note"]


@dataclass(frozen=True)
class NodeOutcomes:
    """``best``/``worst``: the node's selection keys over the orders (bounds when not ``exhaustive``);
    ``notes``: why its victims are not fixed, for when it may be nominated; ``rank_notes``: why its
    key varies though its victims do not, for when it is one of several possible nodes."""

    node: str
    best: Key
    worst: Key
    exhaustive: bool
    notes: tuple[str, ...]
    rank_notes: tuple[str, ...] = ()


class OrderOutcome(Protocol):
    """What :func:`order_notes` reads of a node's outcomes (:class:`NodeOutcomes`, or the webhook twin's
    per-row record)."""

    @property
    def exhaustive(self) -> bool: ...

    @property
    def notes(self) -> tuple[str, ...]: ...

    @property
    def rank_notes(self) -> tuple[str, ...]: ...


def order_notes(possible: Sequence[str], outcomes: Mapping[str, OrderOutcome], keys: Mapping[str, Key],
                best: Mapping[str, Key]) -> list[str]:
    """Per node in name order: on a possible node, why its victims depend on the order of equally
    important pods (and, when it is one of several, why its rank does); on a node ranked by bounds whose
    real key (``keys``) could change the answer, that too. ``best``: each possible node's best key;
    ``keys`` is read for the bounded nodes only."""
    chosen = set(possible)
    notes: list[str] = []
    for name in sorted(outcomes):
        o = outcomes[name]
        if name in chosen:
            notes += o.notes
            if len(chosen) > 1:
                notes += o.rank_notes
        if not o.exhaustive and (name in chosen or any(best[x] > keys[name] for x in chosen)):
            notes.append(bounded_note(name))
    return notes


Kind = tuple[tuple[tuple[str | int, int], ...], tuple[int, ...]]  # requests by name (or column), PDBs by index


def pod_kind(pod: PodFacts, budgets: Sequence[Budget], wanted: Sequence[HostPort] = ()) -> Kind:
    """What an order can tell apart among equally important pods: non-zero requests, whether it holds a host
    port of ``wanted`` (the preemptor's: such a pod is never put back), charging PDBs."""
    charged = tuple(i for i, b in enumerate(budgets) if b.selects(pod) and pod.name not in b.disrupted_pods)
    marker = (("hostPort", 1),) if ports_conflict(wanted, pod.ports) else ()
    return (tuple(sorted((k, v) for k, v in pod.request.items() if v)) + marker, charged)


def tie_note(node: str, keys: Sequence[str]) -> str:
    return (f"on {node}, {', '.join(keys)} are equally important (same priority and start time): "
            "the scheduler orders them at random, so the victims among them may differ")


def varying_note(node: str) -> str:
    return f"on {node}, the order of equally important pods changes which other pods are victims"


def violations_note(node: str) -> str:
    return (f"on {node}, the order of equally important pods changes which of them use up a PodDisruptionBudget's "
            "allowance, and so the node's PDB violation count (its victims stay the same)")


def bounded_note(node: str) -> str:
    return (f"on {node}, not every order of its equally important pods was tried (more than {orders.ORDER_LIMIT} on "
            f"the node, or more than {orders.TOTAL_ORDER_LIMIT} over all candidate nodes): the node is ranked by "
            "bounds (any of its lower-priority pods may be victims)")


def _groups(potential: Sequence[PodFacts]) -> list[list[int]]:
    """Positions of the runs of >= 2 equally important pods in the (importance-sorted) list."""
    runs: list[list[int]] = []
    for i, pod in enumerate(potential):
        if i and importance_key(pod)[:2] == importance_key(potential[i - 1])[:2]:
            if runs and runs[-1][-1] == i - 1:
                runs[-1].append(i)
            else:
                runs.append([i - 1, i])
    return runs


def bound_keys(prios: Sequence[int], earliest_start: float | None, charged: int) -> tuple[Key, Key]:
    """Keys no order can beat / be worse than (see the module docstring), from the priorities of a node's
    lower-priority pods, the earliest real start among them (POSIX seconds; None: none has one) and how
    many of them a PDB charges. Both models bound a node with this."""
    worst_late = (1, -earliest_start) if earliest_start is not None else (0, 0.0)
    return ((0, min(prios), min(prios) + OFFSET, 1, (0, 0.0)),
            (charged, max(prios), sum(p + OFFSET for p in prios), len(prios), worst_late))


def mixed_fates(members: Sequence[Hashable], kinds: Sequence[Hashable], evicted: Container[Hashable]) -> bool:
    """Interchangeable pods (same kind) with different fates: which of them is evicted is the order's
    choice. ``members`` identify the pods the way ``evicted`` does (keys or slots)."""
    fates: dict[Hashable, set[bool]] = {}
    for member, kind in zip(members, kinds, strict=True):
        fates.setdefault(kind, set()).add(member in evicted)
    return any(len(f) > 1 for f in fates.values())


def _bounds(potential: Sequence[PodFacts], budgets: Sequence[Budget]) -> tuple[Key, Key]:
    starts = [p.start for p in potential if p.start is not None]
    return bound_keys([p.priority for p in potential], posix_seconds(min(starts)) if starts else None,
                      sum(1 for p in potential if pod_kind(p, budgets)[1]))


def node_outcomes(
    preemptor: PodFacts, setup: FilterSetup, node: NodeState, nominated: Sequence[PodFacts],
    budgets: Sequence[Budget], canonical: NodeVictims, allowance: OrderBudget,
) -> NodeOutcomes:
    """Every order's key for a candidate node (``canonical``: its name-ordered result), or its bounds when
    ``allowance`` does not grant its orders (call it for the candidates in node-name order)."""
    potential = sorted((p for p in node.pods if p.priority < preemptor.priority), key=importance_key)
    key = selection_key(canonical)
    groups = _groups(potential)
    if not groups:
        return NodeOutcomes(node.name, key, key, True, ())
    kinds = [[pod_kind(potential[i], budgets, preemptor.ports) for i in g] for g in groups]
    if not allowance.grant(count_orders(kinds)):
        evicted = {v.key for v in canonical.victims}
        notes = [tie_note(node.name, [potential[i].key for i in g]) for g, k in zip(groups, kinds, strict=True)
                 if len(set(k)) > 1 or mixed_fates([potential[i].key for i in g], k, evicted)]
        low, high = _bounds(potential, budgets)
        return NodeOutcomes(node.name, low, high, False, tuple(notes))
    best = worst = key
    seen_sets: set[frozenset[str]] = set()
    flagged = [False] * len(groups)
    per_group: list[set[frozenset[str]]] = [set() for _ in groups]
    for arrangement in orders_of_groups(kinds):
        order = list(potential)
        for g, positions in zip(groups, arrangement, strict=True):
            for at, pos in zip(g, positions, strict=True):
                order[at] = potential[g[pos]]
        result = victims_in_order(preemptor, setup, node, nominated, budgets, order) if seen_sets else canonical
        k = selection_key(result)
        best, worst = min(best, k), max(worst, k)
        evicted = {v.key for v in result.victims}
        seen_sets.add(frozenset(evicted))
        for j, (g, kk) in enumerate(zip(groups, kinds, strict=True)):
            per_group[j].add(frozenset(potential[i].key for i in g if potential[i].key in evicted))
            flagged[j] = flagged[j] or mixed_fates([potential[i].key for i in g], kk, evicted)
    flagged = [f or len(s) > 1 for f, s in zip(flagged, per_group, strict=True)]
    notes = [tie_note(node.name, [potential[i].key for i in g]) for g, f in zip(groups, flagged, strict=True) if f]
    if len(seen_sets) > 1 and not notes:
        notes.append(varying_note(node.name))
    # one victim set, several keys: only the violation count varies (the rest of the key follows the set)
    rank = (violations_note(node.name),) if len(seen_sets) == 1 and best != worst else ()
    return NodeOutcomes(node.name, best, worst, True, tuple(notes), rank)
