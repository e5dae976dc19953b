"""The fast twin's node choice (``pickOneNodeForPreemption``; :mod:`linter.scoring.preemption.choice` is
the scalar original), over the candidate rows' selection keys as columns.

A row whose key depends on the order of equally important pods comes with its best and worst key
(:mod:`.tie_orders`); every other row's key is fixed. Keys are compared as dense ranks: equal keys get
equal ranks, a better key a smaller one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from linter.model import PreemptionArgs
from linter.scoring.cluster.reprieve import DryRun
from linter.scoring.cluster.store import Int64Array
from linter.scoring.preemption.choice import CRITERIA, Key, capped_note, num_candidates

__all__ = ["RowChoice", "choose_rows", "row_key"]

Columns = list[np.ndarray]  # violations, top, total, count, late class (0 = "now"), late value


@dataclass(frozen=True)
class RowChoice:
    rows: tuple[int, ...]  # possible rows
    decided_by: str
    random: tuple[str, ...]


def _columns(run: DryRun, rows: Int64Array) -> Columns:
    now = np.isnan(run.earliest[rows])
    return [run.violations[rows], run.top[rows], run.total[rows], run.count[rows], np.where(now, 0, 1),
            np.where(now, 0.0, -run.earliest[rows])]


def row_key(run: DryRun, row: int) -> Key:
    """One row's key in the scalar model's form."""
    earliest = float(run.earliest[row])
    late = (0, 0.0) if earliest != earliest else (1, -earliest)
    return (int(run.violations[row]), int(run.top[row]), int(run.total[row]), int(run.count[row]), late)


def _flat(key: Key) -> tuple[float, ...]:
    return (*key[:4], *key[4])


def _dense_ranks(columns: Columns) -> Int64Array:
    """Per entry, the rank of its key (lexicographic over the columns) among the distinct keys."""
    order = np.lexsort(tuple(reversed(columns)))
    new = np.zeros(len(order), np.bool_)
    if len(order):
        new[0] = True
    for col in columns:
        sorted_col = col[order]
        new[1:] |= sorted_col[1:] != sorted_col[:-1]
    ranks = np.empty(len(order), np.int64)
    ranks[order] = np.cumsum(new) - 1
    return ranks


def choose_rows(run: DryRun, cand: Int64Array, potential: int, args: PreemptionArgs,
                ranges: Mapping[int, tuple[Key, Key]] | None = None) -> RowChoice:
    """``pickOneNodeForPreemption`` on the candidate rows, with the scalar model's random notes;
    ``ranges``: per row whose key depends on the order of equally important pods, its best and worst."""
    keys = _columns(run, cand)
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
    if decided == "tie" and (keys[4][best] == 0).any():  # as the scalar choose(): one "now" winner is certain
        random.append("the deciding victims have no status.startTime: the scheduler compares them with 'now'")
    low_rank, high_rank, clean, violating = _ranks(keys, cand, ranges or {})
    chosen = set(cand[_possible(low_rank, high_rank)].tolist())
    n = num_candidates(potential, args)
    # nodes whose worst key is at least as bad as this node's best, itself included
    best_of_n = len(cand) - np.searchsorted(np.sort(high_rank), low_rank, "left") >= n
    if n < potential and len(cand) >= n and clean.any():
        chosen |= set(cand[best_of_n & clean].tolist())
        if len(chosen) > 1 or decided == "tie":
            random.append(f"{potential} nodes could help but the scheduler tries only about {n} of them, from a "
                          "random offset: the nomination depends on which")
    if len(cand) > n and violating.all():
        # every candidate may violate a PDB: the dry run keeps only the first n violating ones it finds
        before = len(chosen)
        chosen |= set(cand[best_of_n].tolist())
        if len(chosen) > before:
            random.append(capped_note(len(cand), n))
    return RowChoice(tuple(chosen), decided if len(chosen) == 1 else "random", tuple(random))


def _ranks(keys: Columns, cand: Int64Array, ranges: Mapping[int, tuple[Key, Key]]
           ) -> tuple[Int64Array, Int64Array, np.ndarray, np.ndarray]:
    """Per candidate: the rank of its best and of its worst key, whether it can be without PDB
    violations, and whether it can be with some."""
    if not ranges:
        rank = _dense_ranks(keys)
        return rank, rank, keys[0] == 0, keys[0] > 0
    at = {int(r): i for i, r in enumerate(cand.tolist())}
    which = np.array([at[row] for row in ranges], np.int64)
    low = [k.astype(np.float64) if i == 5 else k.copy() for i, k in enumerate(keys)]
    high = [k.copy() for k in low]
    for i, (lo, hi) in zip(which.tolist(), ranges.values(), strict=True):
        for col, a, b in zip(range(6), _flat(lo), _flat(hi), strict=True):
            low[col][i], high[col][i] = a, b
    rank = _dense_ranks([np.concatenate([a, b]) for a, b in zip(low, high, strict=True)])
    return rank[:len(cand)], rank[len(cand):], low[0] == 0, high[0] > 0


def _possible(low: Int64Array, high: Int64Array) -> Int64Array:
    """Indexes of the candidates whose best is at least as good as every other one's worst."""
    if len(low) == 1:
        return np.zeros(1, np.int64)
    first, second = np.argsort(high, kind="stable")[:2]
    threshold = np.full(len(low), high[first])
    threshold[first] = high[second]
    return np.flatnonzero(low <= threshold)

