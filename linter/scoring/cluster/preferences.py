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
from typing import Any

import numpy as np

from linter.model import Profile
from linter.scoring.cluster.filters import _label_groups
from linter.scoring.cluster.store import BoolArray, Int64Array, NodeStore
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


class PreferenceCache:
    """Per-taint-list and per-term results; the store's taint lists only ever grow, so the per-list ones are
    extended, never redone, and the per-row NodeAffinity scores are keyed by ``NodeStore.version``."""

    def __init__(self) -> None:
        self.prefer_counts: list[int] = []  # per taint list id: its PreferNoSchedule taints
        self.prefer_total = 0  # their sum: 0 while no node has ever had such a taint
        # kept tolerations -> (per taint list id: the untolerated PreferNoSchedule taints, their sum)
        self.untolerated: dict[str, tuple[list[int], list[int]]] = {}
        self.affinity: dict[str, tuple[int, Int64Array]] = {}  # terms -> (store version, raw score per row)

    def trim(self) -> None:
        if len(self.untolerated) > _CACHE_LIMIT:
            self.untolerated.clear()
        if len(self.affinity) > _CACHE_LIMIT:
            self.affinity.clear()


def _taint_raw(store: NodeStore, cache: PreferenceCache, pod: Mapping[str, Any]) -> Int64Array | None:
    """TaintToleration's raw score per row, or None when it is 0 on every row."""
    lists = store.taint_lists
    for taints in lists[len(cache.prefer_counts):]:
        count = sum(1 for _, _, effect in taints if effect == PREFER_NO_SCHEDULE)
        cache.prefer_counts.append(count)
        cache.prefer_total += count
    if not cache.prefer_total:
        return None
    tolerations = prefer_no_schedule_tolerations(pod)
    counts, total = cache.untolerated.setdefault(repr(tolerations), ([], [0]))
    for list_id in range(len(counts), len(lists)):
        count = untolerated_prefer_no_schedule(tolerations, lists[list_id]) if cache.prefer_counts[list_id] else 0
        counts.append(count)
        total[0] += count
    if not total[0]:
        return None
    per_list: Int64Array = np.array(counts, np.int64)
    return per_list[store.taint_id[: store.size]]


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


def _labels(store: NodeStore, row: int, keys: list[str]) -> dict[str, str]:
    return {k: v for k, v in store.row_labels[row].items() if k in keys}


def _affinity_raw(store: NodeStore, cache: PreferenceCache, terms: PreferredTerms,
                  feasible: BoolArray) -> Int64Array:
    """NodeAffinity's raw score per row (rows that are no node, and with ``matchFields`` infeasible rows: 0)."""
    keys, uses_fields = _term_keys(terms)
    if uses_fields:  # every node is its own case: only the feasible rows are worth it
        raw: Int64Array = np.zeros(store.size, np.int64)
        names = store.row_names
        for row in np.flatnonzero(feasible & store.present[: store.size]).tolist():
            raw[row] = node_affinity_raw(terms, _labels(store, row, keys), str(names[row]))
        return raw
    key = repr(terms)
    hit = cache.affinity.get(key)
    if hit is None or hit[0] != store.version:
        raw = np.zeros(store.size, np.int64)
        rows = store.present_rows()
        group_of, representatives = _label_groups(store, rows, keys)
        group_raw = np.array([node_affinity_raw(terms, _labels(store, row, keys), "") for row in representatives],
                             np.int64)
        if rows.size:
            raw[rows] = group_raw[group_of]
        hit = cache.affinity[key] = (store.version, raw)
    return hit[1]


def _normalized(raw: Int64Array, feasible: BoolArray, reverse: bool) -> Int64Array | None:
    """``DefaultNormalizeScore`` over the feasible rows; None when it gives every feasible row the same."""
    chosen = raw[feasible]
    if chosen.size == 0:
        return None
    most, least = max(int(chosen.max()), 0), int(chosen.min())
    if most == 0:
        # TaintToleration: 100 everywhere; NodeAffinity: the raw scores, all 0 unless an added term weighs < 0
        return None if reverse or least == 0 else raw
    # floor equals Go's truncation toward zero unless an (added) weight below 0 makes a raw score negative
    scaled = (raw * MAX_NODE_SCORE // most if least >= 0
              else np.abs(raw * MAX_NODE_SCORE) // most * np.sign(raw))
    return MAX_NODE_SCORE - scaled if reverse else scaled


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
        scores = _normalized(raw, feasible, True)
        if scores is not None:
            total = scores * np.int64(tt_weight)
    terms = preferred_terms(pod, profile) if na_weight else None
    if terms:
        feasible = ~infeasible if feasible is None else feasible
        scores = _normalized(_affinity_raw(store, cache, terms, feasible), feasible, False)
        if scores is not None:
            weighted = scores * np.int64(na_weight)
            total = weighted if total is None else total + weighted
    return total
