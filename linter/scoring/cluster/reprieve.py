"""The fast twin's dry run on all candidate nodes at once: victims by vectorized greedy reprieve
(``linter.scoring.preemption.victims`` is the scalar original; the node choice is in :mod:`.node_choice`).

Only NodeResourcesFit depends on the pods of a node, so on a node whose failure is resolvable the
reprieve is arithmetic over each node's lower-priority pods in their order (PDB-violating first, each
group most important first): the longest prefix that fits back all together is kept at once (running
sums), a pod that does not fit in what is left then never will (room only shrinks), and the pods still
in play are walked step by step -- step k puts back every node's k-th one where it still fits -- until
only a few crowded nodes remain, which are finished pod by pod.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from linter.scoring.cluster.podtable import PodTable
from linter.scoring.cluster.store import BoolArray, Int64Array
from linter.scoring.preemption.choice import OFFSET
from linter.scoring.preemption.pdb import Budget

__all__ = ["BudgetIndex", "DryRun", "Entries", "dry_run"]

FloatArray = np.ndarray[Any, np.dtype[np.float64]]


@dataclass(frozen=True)
class Entries:
    """The pods a dry run considers: the lower-priority pods of the candidate rows, grouped by row,
    importance order within each row, with the columns it reads."""

    slots: Int64Array
    rows: Int64Array
    priority: Int64Array
    start: FloatArray  # +inf: no start time
    signature: Int64Array
    needs: list[Int64Array]  # per resource the Fit filter checks, in ``room``'s order


@dataclass
class DryRun:
    """Per candidate slot order and outcome, and per row the choice keys."""

    order: Int64Array  # candidate slots, importance order within each row
    rows: Int64Array  # per entry of ``order``: its row
    victim: BoolArray  # per entry of ``order``
    violating: BoolArray  # per entry of ``order``
    violations: Int64Array  # per row
    top: Int64Array  # per row: highest victim priority
    total: Int64Array  # per row: Σ (priority + 2^31)
    count: Int64Array  # per row: victims
    earliest: FloatArray  # per row: earliest start among the top-priority victims (NaN = now)


class BudgetIndex:
    """The PDBs of one query, with which PDBs select each pod signature (namespace, labels), memoized.

    Signatures only grow and keep their ids, so the memo stays valid until the PDBs change (callers
    keep one index per PDB version).
    """

    def __init__(self, budgets: Sequence[Budget]) -> None:
        self.budgets = list(budgets)
        self._by_namespace: dict[str, list[int]] = {}
        for i, b in enumerate(self.budgets):
            if not b.selector.nothing:  # nil, empty and unconvertible selectors select nothing
                self._by_namespace.setdefault(b.namespace, []).append(i)
        self._memo: dict[int, tuple[int, ...]] = {}
        self._selected: BoolArray = np.zeros(0, np.bool_)  # per signature id: some PDB selects it

    def selected(self, table: PodTable) -> BoolArray:
        """Per signature id, whether any PDB selects it (extended for signatures seen since the last call)."""
        done = len(self._selected)
        if done < len(table.signatures):
            fresh = [bool(self.matches(table, sig)) for sig in range(done, len(table.signatures))]
            self._selected = np.concatenate([self._selected, np.array(fresh, np.bool_)])
        return self._selected

    def matches(self, table: PodTable, signature: int) -> tuple[int, ...]:
        found = self._memo.get(signature)
        if found is None:
            namespace, labels = table.signatures[signature]
            found = tuple(i for i in self._by_namespace.get(namespace, ())
                          if self.budgets[i].selects_labels(namespace, labels))
            self._memo[signature] = found
        return found


def _starts_of_runs(changed: BoolArray, n: int) -> BoolArray:
    """``changed[i]``: entry i+1 differs from entry i; the result marks each entry that starts a run
    (np.r_ costs more than the rest of this for the arrays here)."""
    out = np.ones(n, np.bool_)
    out[1:] = changed
    return out


def _groups(rows: Int64Array) -> tuple[Int64Array, Int64Array]:
    """For entries grouped by row: each entry's group number and each group's first entry."""
    new = _starts_of_runs(rows[1:] != rows[:-1], len(rows))
    return np.cumsum(new) - 1, np.flatnonzero(new)


def _violating(table: PodTable, e: Entries, group: Int64Array, index: BudgetIndex) -> BoolArray:
    """``filterPodsWithPDBViolation`` per node: walking a node's pods in order, a pod violates when some
    PDB selecting it (and not already counting it as disrupted) has no disruption left for it."""
    out = np.zeros(len(e.slots), np.bool_)
    budgets = index.budgets
    if not budgets:
        return out
    sigs = e.signature
    protected = np.flatnonzero(index.selected(table)[sigs])
    if not len(protected):
        return out
    kinds, kind_of = np.unique(sigs[protected], return_inverse=True)
    matched = [index.matches(table, int(sig)) for sig in kinds.tolist()]
    lengths = np.array([len(m) for m in matched], np.int64)
    flat = np.array([b for m in matched for b in m], np.int64)
    first = np.cumsum(lengths) - lengths
    per_entry = lengths[kind_of]
    # one (entry, budget) pair per PDB that selects the entry
    pair_entry = np.repeat(protected, per_entry)
    offset = np.arange(len(pair_entry)) - np.repeat(np.cumsum(per_entry) - per_entry, per_entry)
    pair_budget = flat[np.repeat(first[kind_of], per_entry) + offset]
    counted = np.ones(len(pair_entry), np.bool_)
    for b in np.unique(pair_budget).tolist():
        if budgets[b].disrupted_pods:  # already in the PDB's DisruptedPods: not counted again
            at = np.flatnonzero(pair_budget == b)
            gone = [table.keys[slot][1] in budgets[b].disrupted_pods for slot in e.slots[pair_entry[at]].tolist()]
            counted[at[np.array(gone, np.bool_)]] = False
    pair_entry, pair_budget = pair_entry[counted], pair_budget[counted]
    # per (budget, node), the running count of the pods it selects, in order
    by = np.lexsort((pair_entry, group[pair_entry], pair_budget))
    at, b, g = pair_entry[by], pair_budget[by], group[pair_entry[by]]
    new = _starts_of_runs((b[1:] != b[:-1]) | (g[1:] != g[:-1]), len(at))
    run_start = np.maximum.accumulate(np.where(new, np.arange(len(at)), 0)) if len(at) else np.zeros(0, np.int64)
    taken = np.arange(len(at)) - run_start + 1
    allowed = np.array([x.disruptions_allowed for x in budgets], np.int64)
    out[at[taken > allowed[b]]] = True
    return out


def _violating_first(e: Entries, group: Int64Array, starts: Int64Array, violating: BoolArray) -> None:
    """Move each node's violating pods ahead of its others, both keeping their order, in place; only the
    nodes that have a violating pod are touched (usually a few)."""
    marked = np.unique(group[violating])
    ends = np.append(starts[1:], len(group))
    counts = ends[marked] - starts[marked]
    offsets = np.cumsum(counts) - counts
    sub = np.arange(int(counts.sum()), dtype=np.int64) + np.repeat(starts[marked] - offsets, counts)
    local = np.repeat(np.arange(len(marked), dtype=np.int64), counts)
    v = violating[sub].astype(np.int64)
    seen = np.cumsum(v) - v  # violating entries before each entry
    before = seen - seen[offsets][local]  # ... within its node
    per_group = np.add.reduceat(v, offsets) if len(offsets) else np.zeros(0, np.int64)
    at = np.arange(len(sub)) - offsets[local]
    target = offsets[local] + np.where(v == 1, before, per_group[local] + at - before)
    source = np.empty(len(sub), np.int64)
    source[target] = sub
    for column in (e.slots, e.priority, e.start, e.signature, violating, *e.needs):
        column[sub] = column[source]


def dry_run(
    table: PodTable, entries: Entries, size: int, budgets: BudgetIndex, room: Sequence[Int64Array],
    pods_room: Int64Array,
) -> DryRun:
    """Victims on every candidate row. ``room[i]``/``pods_room``: what is free per row for the i-th checked
    resource / the pod count once every lower-priority pod is gone (nominated pods and the preemptor
    included)."""
    group, starts = _groups(entries.rows)
    violating = _violating(table, entries, group, budgets)
    if violating.any():
        _violating_first(entries, group, starts, violating)
    rows, needs = entries.rows, entries.needs
    free = [r.copy() for r in room]
    pods_free = pods_room.copy()
    at = np.arange(len(rows)) - starts[group]
    head = _fitting_heads(needs, free, pods_free, rows, group, starts, at)
    victim = np.zeros(len(rows), np.bool_)
    # Room only shrinks from here on, so a pod that does not fit now never will: a victim at once.
    rest = np.flatnonzero(at >= head[group])
    hopeless = pods_free[rows[rest]] < 1
    for i, need in enumerate(needs):
        hopeless |= free[i][rows[rest]] < need[rest]
    victim[rest[hopeless]] = True
    rest = rest[~hopeless]
    # The rest, one position at a time on every row at once: put the pod back where it still fits.
    g = group[rest]  # step k visits each row's k-th pod still in play
    new = _starts_of_runs(g[1:] != g[:-1], len(g))
    step = np.arange(len(g)) - np.maximum.accumulate(np.where(new, np.arange(len(g)), 0))
    _reprieve_in_steps(rest, step, rows, needs, free, pods_free, victim)
    return _stats(entries, victim, violating, size)


# Below this many rows in one vectorized step, numpy's per-call cost exceeds a Python loop's.
_FEW_ROWS = 24


def _reprieve_in_turn(rest: Int64Array, rows: Int64Array, needs: list[Int64Array], free: list[Int64Array],
                      pods_free: Int64Array, victim: BoolArray) -> None:
    """The same walk pod by pod in Python integers; ``rest`` is ascending, so in order within each row."""
    row_list = rows[rest].tolist()
    per_pod = list(zip(*(need[rest].tolist() for need in needs), strict=True)) if needs else [()] * len(rest)
    left: dict[int, list[int]] = {}  # row -> [pods, then each checked resource] still free
    lost = []
    for j, r in enumerate(row_list):
        room = left.get(r)
        if room is None:
            room = left[r] = [int(pods_free[r]), *(int(f[r]) for f in free)]
        fits = room[0] >= 1
        wants = per_pod[j]
        if fits:
            for i, want in enumerate(wants, 1):
                if room[i] < want:
                    fits = False
                    break
        if fits:
            room[0] -= 1
            for i, want in enumerate(wants, 1):
                room[i] -= want
        else:
            lost.append(j)
    victim[rest[np.array(lost, np.int64)]] = True
    for r, room in left.items():
        pods_free[r] = room[0]
        for i, f in enumerate(free):
            f[r] = room[i + 1]


def _reprieve_in_steps(rest: Int64Array, step: Int64Array, rows: Int64Array, needs: list[Int64Array],
                       free: list[Int64Array], pods_free: Int64Array, victim: BoolArray) -> None:
    """Step k puts back the k-th pod in play of every row at once, where it still fits."""
    ranked = np.argsort(step, kind="stable")
    by_step = rest[ranked]
    bounds = np.searchsorted(step[ranked], np.arange(int(step.max()) + 2 if len(step) else 1))
    for k in range(len(bounds) - 1):
        sel = by_step[bounds[k]:bounds[k + 1]]
        if len(sel) < _FEW_ROWS:  # the long tail of a few crowded rows: cheaper pod by pod
            _reprieve_in_turn(np.sort(by_step[bounds[k]:]), rows, needs, free, pods_free, victim)
            return
        r = rows[sel]
        fits = pods_free[r] >= 1
        for i, need in enumerate(needs):
            fits &= free[i][r] >= need[sel]
        kept, kept_r = sel[fits], r[fits]
        pods_free[kept_r] -= 1
        for i, need in enumerate(needs):
            free[i][kept_r] -= need[kept]
        victim[sel[~fits]] = True


def _fitting_heads(
    needs: list[Int64Array], free: list[Int64Array], pods_free: Int64Array, rows: Int64Array, group: Int64Array,
    starts: Int64Array, at: Int64Array,
) -> Int64Array:
    """Per group, how many of its first pods fit back all together; those are reprieved at once (taken
    from ``free``/``pods_free``). Exact because requests are never negative, so the running sums only grow
    and the first pod that does not fit ends the prefix; 0 when the sums could overflow."""
    head = np.zeros(len(starts), np.int64)
    if not len(rows) or any(len(x) and (int(x.min()) < 0 or int(x.max()) > 2**62 // len(rows)) for x in needs):
        return head
    ok = at + 1 <= pods_free[rows]
    sums = []
    for i, need in enumerate(needs):
        total = np.cumsum(need)
        running = total - (total[starts] - need[starts])[group]
        ok &= running <= free[i][rows]
        sums.append(running)
    # ok holds on a prefix of each group: count it
    head = np.add.reduceat(ok, starts, dtype=np.int64)
    full = np.flatnonzero(head > 0)
    last = starts[full] + head[full] - 1
    row_of = rows[starts[full]]
    pods_free[row_of] -= head[full]
    for i, running in enumerate(sums):
        free[i][row_of] -= running[last]
    return head


def _stats(e: Entries, victim: BoolArray, violating: BoolArray, size: int) -> DryRun:
    top = np.full(size, np.iinfo(np.int64).min, np.int64)
    total = np.zeros(size, np.int64)
    count = np.zeros(size, np.int64)
    earliest = np.full(size, math.nan)
    vr, prio, start = e.rows[victim], e.priority[victim], e.start[victim]
    if len(vr):  # victims stay grouped by row: one reduction per row
        heads = np.flatnonzero(_starts_of_runs(vr[1:] != vr[:-1], len(vr)))
        on = vr[heads]
        top[on] = np.maximum.reduceat(prio, heads)
        total[on] = np.add.reduceat(prio + OFFSET, heads)
        count[on] = np.diff(heads, append=len(vr))
        first = np.minimum.reduceat(np.where(prio == top[vr], start, math.inf), heads)
        earliest[on] = np.where(np.isinf(first), math.nan, first)
    violations = np.bincount(e.rows[victim & violating], minlength=size).astype(np.int64)
    return DryRun(e.slots, e.rows, victim, violating, violations, top, total, count, earliest)
