"""The fast twin's dry run on all candidate nodes at once: victims by vectorized greedy reprieve,
then the node choice (``linter.scoring.preemption.victims`` / ``choice`` are the scalar originals).

Only NodeResourcesFit depends on the pods of a node, so on a node whose failure is resolvable the
reprieve is arithmetic: step k puts back, on every candidate node at once, that node's k-th pod in
its order (PDB-violating first, each group most important first) and keeps it where the pod still
fits. The number of steps is the largest count of lower-priority pods on one node.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from linter.model import PreemptionArgs
from linter.scoring.cluster.podtable import PodTable
from linter.scoring.cluster.store import BoolArray, Int64Array
from linter.scoring.preemption.choice import CRITERIA, OFFSET, num_candidates
from linter.scoring.preemption.pdb import Budget

__all__ = ["BudgetIndex", "Check", "DryRun", "choose_rows", "dry_run"]

FloatArray = np.ndarray[Any, np.dtype[np.float64]]
# (store column or -1 when the store has none, requested amount): the resources the Fit filter checks
Check = tuple[int, int]


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
    ties: list[tuple[int, list[int]]]  # (row, slots) of equally important pods, slots by name
    tied_victims: set[int]  # the slots of ``ties`` that are victims


def _importance(
    table: PodTable, slots: Int64Array, rows: Int64Array
) -> tuple[Int64Array, Int64Array, list[tuple[int, list[int]]]]:
    """(slots, their rows) sorted by row, then priority desc, start asc (none = now, last), then name; and
    the runs of equally important pods as (row, slots) -- Go leaves those unordered."""
    start = np.where(np.isnan(table.start[slots]), math.inf, table.start[slots])
    idx = np.lexsort((start, -table.priority[slots], rows))
    r, p, s = rows[idx], table.priority[slots][idx], start[idx]
    same = (r[1:] == r[:-1]) & (p[1:] == p[:-1]) & (s[1:] == s[:-1])
    runs: list[tuple[int, list[int]]] = []
    if same.any():  # the scalar model orders equally important pods by namespace/name
        edges = np.diff(np.r_[0, same.astype(np.int8), 0])
        for first, last in zip(np.flatnonzero(edges == 1).tolist(), np.flatnonzero(edges == -1).tolist(),
                               strict=True):
            span = sorted(idx[first:last + 1].tolist(), key=lambda k: "/".join(table.keys[int(slots[k])]))
            idx[first:last + 1] = span
            runs.append((int(r[first]), [int(slots[k]) for k in span]))
    return slots[idx], rows[idx], runs


class BudgetIndex:
    """The PDBs of one query, with which PDBs select each pod signature (namespace, labels), memoized.

    Signatures only grow and keep their ids, so the memo stays valid until the PDBs change (callers
    keep one index per PDB version).
    """

    def __init__(self, budgets: Sequence[Budget]) -> None:
        self.budgets = list(budgets)
        self._by_namespace: dict[str, list[int]] = {}
        for i, b in enumerate(self.budgets):
            if b.requirements:  # nil/empty selectors select nothing here
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


def _violating(table: PodTable, order: Int64Array, rows: Int64Array, index: BudgetIndex) -> BoolArray:
    """``filterPodsWithPDBViolation`` per row, walking the pods that some PDB selects."""
    out = np.zeros(len(order), np.bool_)
    budgets = index.budgets
    if not index.budgets:
        return out
    sigs = table.signature[order]
    protected = np.flatnonzero(index.selected(table)[sigs])
    current, left = -1, [0] * len(budgets)
    for i in protected.tolist():
        if rows[i] != current:
            current, left = int(rows[i]), [b.disruptions_allowed for b in budgets]
        name = table.keys[int(order[i])][1]
        for b in index.matches(table, int(sigs[i])):
            if name in budgets[b].disrupted_pods:
                continue
            left[b] -= 1
            if left[b] < 0:
                out[i] = True
    return out


def dry_run(
    table: PodTable, slots: Int64Array, slot_rows: Int64Array, size: int, budgets: BudgetIndex,
    checks: Sequence[Check], room: Sequence[Int64Array], pods_room: Int64Array,
) -> DryRun:
    """Victims on every candidate row; ``room[i]``/``pods_room`` is what is free per row for check i /
    the pod count once every lower-priority pod is gone (nominated pods and the preemptor included)."""
    order, rows, ties = _importance(table, slots, slot_rows)
    violating = _violating(table, order, rows, budgets)
    # Violating pods first, each group in importance order (a stable sort keeps that order).
    regroup = np.lexsort((np.arange(len(order)), ~violating, rows))
    order, rows, violating = order[regroup], rows[regroup], violating[regroup]
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]]) if len(rows) else np.zeros(0, np.int64)
    run = np.cumsum(np.r_[False, rows[1:] != rows[:-1]]) if len(rows) else np.zeros(0, np.int64)
    pos = np.arange(len(order)) - starts[run] if len(rows) else np.zeros(0, np.int64)
    free = [r.copy() for r in room]
    pods_free = pods_room.copy()
    victim = np.zeros(len(order), np.bool_)
    by_step = np.argsort(pos, kind="stable")
    bounds = np.searchsorted(pos[by_step], np.arange(int(pos.max()) + 2 if len(pos) else 1))
    for k in range(len(bounds) - 1):
        sel = by_step[bounds[k]:bounds[k + 1]]
        r, s = rows[sel], order[sel]
        fits = pods_free[r] >= 1
        for i, (col, _want) in enumerate(checks):
            need = table.req[col, s] if 0 <= col < table.req.shape[0] else np.zeros(len(s), np.int64)
            fits &= free[i][r] >= need
        kept_r, kept_s = r[fits], s[fits]
        pods_free[kept_r] -= 1
        for i, (col, _want) in enumerate(checks):
            if 0 <= col < table.req.shape[0]:
                free[i][kept_r] -= table.req[col, kept_s]
        victim[sel[~fits]] = True
    return _stats(table, order, rows, victim, violating, size, ties)


def _stats(table: PodTable, order: Int64Array, rows: Int64Array, victim: BoolArray, violating: BoolArray,
           size: int, ties: list[tuple[int, list[int]]]) -> DryRun:
    vr, vs = rows[victim], order[victim]
    prio = table.priority[vs]
    top = np.full(size, np.iinfo(np.int64).min, np.int64)
    np.maximum.at(top, vr, prio)
    total = np.zeros(size, np.int64)
    np.add.at(total, vr, prio + OFFSET)
    count = np.bincount(vr, minlength=size).astype(np.int64)
    violations = np.bincount(rows[victim & violating], minlength=size).astype(np.int64)
    earliest = np.full(size, math.nan)
    top_victims = prio == top[vr]
    np.fmin.at(earliest, vr[top_victims], table.start[vs][top_victims])
    victims = {int(x) for x in vs[np.isin(vs, [slot for _, run in ties for slot in run])].tolist()} if ties else set()
    return DryRun(order, rows, victim, violating, violations, top, total, count, earliest, ties, victims)


@dataclass(frozen=True)
class RowChoice:
    rows: tuple[int, ...]  # possible rows
    decided_by: str
    random: tuple[str, ...]


def choose_rows(run: DryRun, cand: Int64Array, potential: int, args: PreemptionArgs) -> RowChoice:
    """``pickOneNodeForPreemption`` on the candidate rows, with the scalar model's random notes."""
    late_cls = np.where(np.isnan(run.earliest[cand]), 0, 1)
    late_val = np.where(np.isnan(run.earliest[cand]), 0.0, -run.earliest[cand])
    keys = [run.violations[cand], run.top[cand], run.total[cand], run.count[cand], late_cls, late_val]
    remaining = np.ones(len(cand), np.bool_)
    decided = "only candidate" if len(cand) == 1 else "tie"
    if len(cand) > 1:
        for i, name in enumerate(CRITERIA):
            values = [keys[i]] if i < 4 else [keys[4], keys[5]]
            for v in values:
                remaining &= v == v[remaining].min()
            if remaining.sum() == 1:
                decided = name
                break
    best = np.flatnonzero(remaining)
    random: list[str] = []
    if decided == "tie":
        random.append(f"{len(best)} nodes tie on all five criteria: the scheduler picks one at random")
    if (late_cls[best] == 0).any() and decided in (CRITERIA[4], "tie"):
        random.append("the deciding victims have no status.startTime: the scheduler compares them with 'now'")
    chosen = set(cand[best].tolist())
    n = num_candidates(potential, args)
    non_violating = keys[0] == 0
    if n < potential and len(cand) >= n and non_violating.any():
        order = np.lexsort(tuple(reversed(keys)))
        stacked = np.stack([k[order].astype(np.float64) for k in keys])
        new_group = np.r_[True, (stacked[:, 1:] != stacked[:, :-1]).any(axis=0)]
        group_start = np.maximum.accumulate(np.where(new_group, np.arange(len(order)), 0))
        at_least = len(cand) - group_start  # candidates whose key is >= this one's
        ok = (at_least >= n) & non_violating[order]
        chosen |= set(cand[order[ok]].tolist())
        if len(chosen) > 1 or decided == "tie":
            random.append(f"{potential} nodes could help but the scheduler tries only about {n} of them, from a "
                          "random offset: the nomination depends on which")
    return RowChoice(tuple(chosen), decided if len(chosen) == 1 else "random", tuple(random))
