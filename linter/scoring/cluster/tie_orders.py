"""The fast twin of :mod:`linter.scoring.preemption.outcomes`: on the candidate rows where equally
important pods differ, every distinct order Go may give them (:mod:`linter.scoring.preemption.orders`),
each as one more *virtual* row of a second vectorized dry run, so all orders of all rows are reprieved
at once; rows the shared :class:`~linter.scoring.preemption.orders.OrderBudget` does not grant (more than
``ORDER_LIMIT`` orders, or the prediction's total spent; asked in node-name order, as the scalar model
does) get the scalar model's bounds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from linter.scoring.cluster.importance import equal_runs
from linter.scoring.cluster.node_choice import row_key
from linter.scoring.cluster.podtable import PodTable
from linter.scoring.cluster.reprieve import BudgetIndex, DryRun, Entries, dry_run
from linter.scoring.cluster.store import Int64Array
from linter.scoring.preemption.choice import Key
from linter.scoring.preemption.orders import OrderBudget, count_orders, orders_of_groups
from linter.scoring.preemption.outcomes import Kind, bound_keys, mixed_fates, tie_note, varying_note, violations_note

__all__ = ["RowOutcomes", "tie_entries", "tie_outcomes"]


@dataclass(frozen=True)
class RowOutcomes:
    """As :class:`linter.scoring.preemption.outcomes.NodeOutcomes`, for one row."""

    best: Key
    worst: Key
    exhaustive: bool
    notes: tuple[str, ...]
    rank_notes: tuple[str, ...] = ()


def _runs(e: Entries) -> list[tuple[int, int]]:
    same = (e.rows[1:] == e.rows[:-1]) & (e.priority[1:] == e.priority[:-1]) & (e.start[1:] == e.start[:-1])
    return equal_runs(same)


def tie_entries(e: Entries) -> Entries | None:
    """A copy of the entries of the rows holding equally important pods (None: no such row); taken
    before the dry run, which reorders the entries in place."""
    runs = _runs(e)
    if not runs:
        return None
    marked = np.zeros(int(e.rows.max()) + 1, np.bool_)
    marked[e.rows[[first for first, _ in runs]]] = True
    keep = marked[e.rows]
    return Entries(e.slots[keep], e.rows[keep], e.priority[keep], e.start[keep], e.signature[keep],
                   [need[keep] for need in e.needs])


def _kind(table: PodTable, budgets: BudgetIndex, slot: int, holds_wanted_port: bool = False) -> Kind:
    """``pod_kind`` of the scalar model: non-zero requests (and whether it holds a wanted host port) and the
    PDBs that charge the pod."""
    req = table.req[:, slot]
    name = table.keys[slot][1]
    charged = tuple(b for b in budgets.matches(table, int(table.signature[slot]))
                    if name not in budgets.budgets[b].disrupted_pods)
    marker = ((-1, 1),) if holds_wanted_port else ()
    return (tuple((int(c), int(req[c])) for c in np.flatnonzero(req)) + marker, charged)


def _bounds(e: Entries, at: slice, kinds: Sequence[Kind]) -> tuple[Key, Key]:
    starts = e.start[at]
    real = starts[np.isfinite(starts)]
    return bound_keys(e.priority[at].tolist(), float(real.min()) if len(real) else None,
                      sum(1 for k in kinds if k[1]))


def tie_outcomes(
    table: PodTable, e: Entries, run: DryRun, budgets: BudgetIndex, room: Sequence[Int64Array],
    pods_room: Int64Array, name_of: Callable[[int], str], conflicting: frozenset[int] = frozenset(),
) -> dict[int, RowOutcomes]:
    """Per row of ``e`` (from :func:`tie_entries`): its keys over the orders and its notes. ``run``:
    the dry run in name order, whose result is each row's first order. ``conflicting``: the slots of pods
    holding a host port the preemptor wants (never put back, so not interchangeable with others)."""
    bounds_of_rows = np.flatnonzero(np.r_[True, e.rows[1:] != e.rows[:-1], True])
    heads = bounds_of_rows[:-1].tolist()
    ends = bounds_of_rows[1:].tolist()
    runs = _runs(e)
    canon_victims: dict[int, set[int]] = {}
    marked = np.zeros(len(run.violations), np.bool_)
    marked[e.rows] = True
    near = run.victim & marked[run.rows]
    for slot, row in zip(run.order[near].tolist(), run.rows[near].tolist(), strict=True):
        canon_victims.setdefault(row, set()).add(slot)
    out: dict[int, RowOutcomes] = {}
    pending: list[tuple[int, list[list[int]], list[list[Kind]]]] = []
    perms: list[Int64Array] = []
    tied_rows: list[tuple[int, int, int, list[list[int]], list[list[Kind]], int]] = []
    kinds_seen: dict[int, Kind] = {}

    def kind_of(slot: int) -> Kind:  # each pod's kind once, though a bounded row reads its pods twice
        found = kinds_seen.get(slot)
        if found is None:
            found = kinds_seen[slot] = _kind(table, budgets, slot, slot in conflicting)
        return found

    r = 0
    for head, end in zip(heads, ends, strict=True):
        groups = []
        while r < len(runs) and runs[r][0] < end:
            groups.append(list(range(runs[r][0], runs[r][1] + 1)))
            r += 1
        kinds = [[kind_of(int(e.slots[i])) for i in g] for g in groups]
        tied_rows.append((int(e.rows[head]), head, end, groups, kinds, count_orders(kinds)))
    allowance = OrderBudget()
    granted = {row for row, *_, count in sorted(tied_rows, key=lambda t: name_of(t[0])) if allowance.grant(count)}
    for row, head, end, groups, kinds, count in tied_rows:
        slots = [[int(e.slots[i]) for i in g] for g in groups]
        canon = canon_victims.get(row, set())
        key = row_key(run, row)
        if count == 1:
            notes = [tie_note(name_of(row), _names(table, s)) for s, k in zip(slots, kinds, strict=True)
                     if mixed_fates(s, k, canon)]
            out[row] = RowOutcomes(key, key, True, tuple(notes))
        elif row not in granted:
            notes = [tie_note(name_of(row), _names(table, s)) for s, k in zip(slots, kinds, strict=True)
                     if len(set(k)) > 1 or mixed_fates(s, k, canon)]
            all_kinds = [kind_of(int(slot)) for slot in e.slots[head:end].tolist()]
            low, high = _bounds(e, slice(head, end), all_kinds)
            out[row] = RowOutcomes(low, high, False, tuple(notes))
        else:
            pending.append((row, slots, kinds))
            for arrangement in orders_of_groups(kinds):
                perm = np.arange(head, end, dtype=np.int64)
                for g, positions in zip(groups, arrangement, strict=True):
                    perm[np.array(g) - head] = np.array(g)[positions]
                perms.append(perm)
    if pending:
        out.update(_enumerated(table, e, budgets, room, pods_room, name_of, pending, perms))
    return out


def _enumerated(
    table: PodTable, e: Entries, budgets: BudgetIndex, room: Sequence[Int64Array], pods_room: Int64Array,
    name_of: Callable[[int], str], pending: list[tuple[int, list[list[int]], list[list[Kind]]]],
    perms: list[Int64Array],
) -> dict[int, RowOutcomes]:
    """One dry run over every order of every pending row, each order a virtual row."""
    perm = np.concatenate(perms)
    real = e.rows[np.array([p[0] for p in perms], np.int64)]  # the real row of each virtual row
    virtual = np.repeat(np.arange(len(perms), dtype=np.int64), [len(p) for p in perms])
    entries = Entries(e.slots[perm], virtual, e.priority[perm], e.start[perm], e.signature[perm],
                      [need[perm] for need in e.needs])
    vrun = dry_run(table, entries, len(perms), budgets, [f[real] for f in room], pods_room[real])
    victims: list[set[int]] = [set() for _ in perms]
    for slot, v in zip(vrun.order[vrun.victim].tolist(), vrun.rows[vrun.victim].tolist(), strict=True):
        victims[v].add(slot)
    out: dict[int, RowOutcomes] = {}
    v = 0
    for row, slots, kinds in pending:
        keys: list[Key] = []
        sets: set[frozenset[int]] = set()
        flagged = [False] * len(slots)
        per_group: list[set[frozenset[int]]] = [set() for _ in slots]
        while v < len(perms) and int(real[v]) == row:
            keys.append(row_key(vrun, v))
            sets.add(frozenset(victims[v]))
            for j, (s, k) in enumerate(zip(slots, kinds, strict=True)):
                per_group[j].add(frozenset(x for x in s if x in victims[v]))
                flagged[j] = flagged[j] or mixed_fates(s, k, victims[v])
            v += 1
        notes = [tie_note(name_of(row), _names(table, s)) for s, f, seen in zip(slots, flagged, per_group, strict=True)
                 if f or len(seen) > 1]
        if len(sets) > 1 and not notes:
            notes.append(varying_note(name_of(row)))
        rank = (violations_note(name_of(row)),) if len(sets) == 1 and min(keys) != max(keys) else ()
        out[row] = RowOutcomes(min(keys), max(keys), True, tuple(notes), rank)
    return out


def _names(table: PodTable, slots: Sequence[int]) -> list[str]:
    return ["/".join(table.keys[s]) for s in slots]
