"""TaintToleration's and NodeAffinity's weighted scores over every node row at once.

The scalar model is :mod:`linter.scoring.preferences`; this module evaluates it once per *distinct* case, as
the label and taint filters do (:mod:`.filters`): TaintToleration once per distinct taint list of the store
(for each distinct set of the pod's PreferNoSchedule tolerations), NodeAffinity once per distinct
combination of the values of the label keys the preferred terms read (per node only for terms with
``matchFields``, which read the node name). Both normalise over the feasible rows.

Most pods in most clusters add the same to every node: no node has a PreferNoSchedule taint the pod does
not tolerate (TaintToleration gives 100 everywhere) and neither the pod nor the profile has preferred node
affinity (NodeAffinity skips the pod). :func:`preference_totals` tells that from two cached counters and the
pod's spec, and returns None: the ranking is then the Fit and BalancedAllocation order alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from linter.model import Profile
from linter.scoring.cluster.filters import label_groups, row_labels_for
from linter.scoring.cluster.store import BoolArray, Int64Array, NodeStore
from linter.scoring.gomath import go_div
from linter.scoring.preferences import (
    PREFER_NO_SCHEDULE,
    PreferredTerms,
    node_affinity_raw,
    prefer_no_schedule_tolerations,
    preferred_terms,
    untolerated_prefer_no_schedule,
)
from linter.scoring.strategies import MAX_NODE_SCORE

__all__ = ["PreferenceCache", "preference_totals"]

_CACHE_LIMIT = 1024


@dataclass(frozen=True)
class _Raw:
    """A plugin's raw scores: ``rows`` per row, equal to ``values[case_of_row]``. Normalising and weighting the
    few distinct ``values`` and then picking them per row costs one indexing pass instead of an int64
    division per row. Never written to once made (they are cached)."""

    rows: Int64Array
    values: Int64Array
    case_of_row: npt.NDArray[np.integer[Any]]


class PreferenceCache:
    """Per-taint-list and per-term results. The store's taint lists only ever grow, so the per-list counts are
    extended, never redone; the per-row scores are keyed by ``NodeStore.version`` (labels, taints, nodes)."""

    def __init__(self) -> None:
        self.prefer_counts: list[int] = []  # per taint list id: its PreferNoSchedule taints
        self.prefer_total = 0  # their sum: 0 while no node has ever had such a taint
        # kept tolerations -> (per taint list id: the untolerated PreferNoSchedule taints, their sum)
        self.untolerated: dict[str, tuple[list[int], list[int]]] = {}
        self.taint_rows: dict[str, tuple[int, _Raw]] = {}  # kept tolerations -> (store version, raw scores)
        self.affinity: dict[str, tuple[int, _Raw]] = {}  # terms -> (store version, raw scores)

    def trim(self) -> None:
        if len(self.untolerated) > _CACHE_LIMIT:
            self.untolerated.clear()
        if len(self.affinity) > _CACHE_LIMIT:
            self.affinity.clear()
        if len(self.taint_rows) > _CACHE_LIMIT:
            self.taint_rows.clear()


def _taint_raw(store: NodeStore, cache: PreferenceCache, pod: Mapping[str, Any]) -> _Raw | None:
    """TaintToleration's raw scores, one case per taint list, or None when they are 0 on every row."""
    lists = store.taint_lists
    for taints in lists[len(cache.prefer_counts):]:
        count = sum(1 for _, _, effect in taints if effect == PREFER_NO_SCHEDULE)
        cache.prefer_counts.append(count)
        cache.prefer_total += count
    if not cache.prefer_total:
        return None
    tolerations = prefer_no_schedule_tolerations(pod)
    key = repr(tolerations)
    hit = cache.taint_rows.get(key)
    if hit is not None and hit[0] == store.version:  # a node's taints (and a new node) change the version
        return hit[1]
    counts, total = cache.untolerated.setdefault(key, ([], [0]))
    for list_id in range(len(counts), len(lists)):
        count = untolerated_prefer_no_schedule(tolerations, lists[list_id]) if cache.prefer_counts[list_id] else 0
        counts.append(count)
        total[0] += count
    if not total[0]:
        return None
    per_list: Int64Array = np.array(counts, np.int64)
    ids = store.taint_id[: store.size].copy()  # a copy: the store's column changes with its nodes
    raw = _Raw(per_list[ids], per_list, ids)
    cache.taint_rows[key] = (store.version, raw)
    return raw


def _term_keys(terms: PreferredTerms) -> tuple[list[str], bool]:
    """Label keys the terms read, and whether any reads the node name (``matchFields``)."""
    keys: set[str] = set()
    uses_fields = False
    for _, term in terms:
        exprs = term.get("matchExpressions")
        for expr in exprs if isinstance(exprs, list) else ():
            if isinstance(expr, Mapping) and isinstance(expr.get("key"), str):
                keys.add(expr["key"])
        uses_fields = uses_fields or bool(term.get("matchFields"))
    return sorted(keys), uses_fields


def _affinity_raw(store: NodeStore, cache: PreferenceCache, terms: PreferredTerms, feasible: BoolArray) -> _Raw:
    """NodeAffinity's raw scores (rows that are no node, and with ``matchFields`` infeasible rows: 0), one case
    per distinct combination of the label values the terms read (per row with ``matchFields``)."""
    key = repr(terms)
    hit = cache.affinity.get(key)
    if hit is not None and hit[0] == store.version:
        return hit[1]
    keys, uses_fields = _term_keys(terms)
    if uses_fields:  # every node is its own case: only the feasible rows are worth it (not kept)
        raw: Int64Array = np.zeros(store.size, np.int64)
        names = store.row_names
        for row in np.flatnonzero(feasible & store.present[: store.size]).tolist():
            raw[row] = node_affinity_raw(terms, row_labels_for(store, row, keys), str(names[row]))
        return _Raw(raw, raw, np.arange(store.size))
    rows = store.present_rows()
    group_of, representatives = label_groups(store, rows, keys)
    values = np.array([*(node_affinity_raw(terms, row_labels_for(store, row, keys), "") for row in representatives), 0],
                      np.int64)  # the last case: rows that are no node
    case_of_row = np.full(store.size, len(representatives), np.int64)
    case_of_row[rows] = group_of
    made = _Raw(values[case_of_row], values, case_of_row)
    cache.affinity[key] = (store.version, made)
    return made


def _weighted(raw: _Raw, feasible: BoolArray, reverse: bool, weight: int) -> Int64Array | None:
    """``DefaultNormalizeScore`` over the feasible rows, times ``weight``, per row; None when that gives every
    feasible row the same."""
    # the most over the feasible rows, at least 0 (a product is cheaper than numpy's masked reduction)
    most = int((raw.rows * feasible).max()) if raw.rows.size else 0
    # below 0 only with an addedAffinity term of negative weight: look only when some case is
    least = 0 if int(raw.values.min()) >= 0 else int(np.min(raw.rows, where=feasible, initial=most))
    if most == 0:
        # TaintToleration: 100 everywhere; NodeAffinity: the raw scores, all 0 unless an added term weighs < 0
        if reverse or least == 0:
            return None
        values = raw.values
    else:
        scaled = [go_div(MAX_NODE_SCORE * v, most) for v in raw.values.tolist()]  # Go truncates toward zero
        values = np.array([MAX_NODE_SCORE - v for v in scaled] if reverse else scaled, np.int64)
    weighted: Int64Array = np.take(values * np.int64(weight), raw.case_of_row)
    return weighted


def preference_totals(store: NodeStore, cache: PreferenceCache, pod: Mapping[str, Any], profile: Profile,
                      infeasible: BoolArray) -> Int64Array | None:
    """TaintToleration's and NodeAffinity's scores after their weights, summed per row (infeasible rows: any
    value), or None when together they add the same to every feasible row and so change no order."""
    cache.trim()
    total: Int64Array | None = None
    feasible: BoolArray | None = None  # worked out only when a plugin's raw scores differ somewhere
    tt_weight, na_weight = profile.taint_toleration_weight, profile.node_affinity_weight
    raw = _taint_raw(store, cache, pod) if tt_weight else None
    if raw is not None:
        feasible = ~infeasible
        total = _weighted(raw, feasible, True, tt_weight)
    terms = preferred_terms(pod, profile) if na_weight else None
    if terms:
        feasible = ~infeasible if feasible is None else feasible
        weighted = _weighted(_affinity_raw(store, cache, terms, feasible), feasible, False, na_weight)
        if weighted is not None:
            total = weighted if total is None else total + weighted
    return total
