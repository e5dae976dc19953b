"""Vectorized plugin scores over every node row at once (docs/scoring.md, section 2).

Each function returns one score per row of a :class:`~linter.scoring.cluster.store.NodeStore`
(rows of absent nodes carry garbage the caller masks out). The arithmetic follows Go:

* NodeResourcesFit is Go's int64 arithmetic. In the normal case (non-negative operands,
  allocatable below 2**46, requested sums below 2**53) the per-resource quotient is computed in
  float64, where it is provably exact and much faster than numpy's int64 division; otherwise
  every division goes through :func:`trunc_div` (Go's ``/`` truncates toward zero, numpy's
  ``//`` floors), with int64 wrap-around as in Go;
* RequestedToCapacityRatio divides in float64 and rounds half away from zero like
  ``math.Round`` (numpy's ``round`` is half-to-even);
* Volcano binpack accumulates float64 terms in the order Volcano does (cpu, memory, then
  the extra resources in the order the arguments list them), each as
  ``((request + used) * weight) / capacity``.

The per-utilization shape value comes from the scalar model
(:func:`linter.scoring.strategies.broken_line`) through a 101-entry lookup table, so the
broken-line interpolation exists in one place only.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

import numpy as np

from linter.model import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    FitArgs,
    ShapePoint,
    VolcanoBinpackArgs,
)
from linter.scoring.cluster.store import BoolArray, Int64Array, NodeStore
from linter.scoring.requests import is_scalar_resource
from linter.scoring.strategies import broken_line, scaled_shape

FloatArray = np.ndarray[tuple[int], np.dtype[np.float64]]

_MAX_NODE_SCORE = 100
_MAX_UTILIZATION = 100
_DIRECT_RESOURCES = ("cpu", "memory", "ephemeral-storage")
# Below this allocatable, x * 100 and allocatable * (quotient + 1) stay below 2**53 (exact float64).
_FLOAT_ALLOC_LIMIT = 2**46
_FLOAT_EXACT_LIMIT = 2**53


def trunc_div(a: Int64Array, b: Int64Array | int) -> Int64Array:
    """Go's int64 ``a / b`` (truncation toward zero); ``b`` must be non-zero."""
    q = np.abs(a) // np.abs(b)
    negative = (a < 0) != (np.asarray(b) < 0)
    return np.where(negative, -q, q).astype(np.int64)


def go_round(x: FloatArray) -> FloatArray:
    """``math.Round``: half away from zero, exact (``x - trunc(x)`` has no rounding error)."""
    t = np.trunc(x)
    frac = x - t
    return t + np.where(np.abs(frac) >= 0.5, np.sign(x), 0.0)


@lru_cache(maxsize=64)
def _shape_lut(shape: tuple[ShapePoint, ...]) -> Int64Array:
    """Scaled shape score for every utilization 0..100 (utilization is always in that range)."""
    points = scaled_shape(shape)
    return np.array([broken_line(points, u) for u in range(_MAX_UTILIZATION + 1)], np.int64)


def fit_scores(store: NodeStore, args: FitArgs, pod_request: Mapping[str, int]) -> tuple[Int64Array, bool]:
    """NodeResourcesFit plugin score (0..100, before the profile weight) for rows ``0 .. size-1``, and
    whether every score is sure to lie in 0..100 (not so when a resource needed the int64 path, whose
    wrap-around can give anything)."""
    n = store.size
    ordinary = True
    strategy = args.strategy
    if strategy not in (LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO):
        raise ValueError(f"unknown NodeResourcesFit scoring strategy {strategy!r}")
    lut = _shape_lut(args.shape or ()) if strategy == REQUESTED_TO_CAPACITY_RATIO else None
    node_score: Int64Array | None = None
    weight_sum: Int64Array | int = 0  # an int while every node counts the same weights
    for spec in args.resources:
        name = spec.name
        request = pod_request.get(name, 0)
        scalar = is_scalar_resource(name)
        # Gating: a scalar the pod does not request, or a name the scorer cannot look up.
        if (request == 0 and scalar) or not (scalar or name in _DIRECT_RESOURCES):
            continue
        col = store.resource_index.get(name)
        if col is None:
            continue
        column = _alloc_column(store, col)
        exact_in_float = column.fast and request >= 0 and spec.weight >= 0 and not store.fit_negative
        exact_in_float = exact_in_float and store.fit_total[col] + request < _FLOAT_EXACT_LIMIT
        resource_score: Int64Array | None = None
        if exact_in_float:
            resource_score = _float_resource_score(strategy, store.fit_req_f[col, :n], request, column)
        if resource_score is None:  # huge or negative values: Go's int64 arithmetic (wrap-around included)
            ordinary = False
            allocatable = store.alloc[col, :n]
            requested = store.fit_req[col, :n] + request
            resource_score = _exact_resource_score(strategy, requested, allocatable, column.counted, lut)
        elif lut is not None:
            # requested > allocatable already gives exactly 100: min() makes it allocatable * 100 / allocatable
            resource_score = lut[resource_score]
        if lut is not None:
            counted = column.counted & (resource_score > 0)
        elif column.all_counted:
            counted = None
        else:
            counted = column.counted
        weighted = resource_score if counted is None else resource_score * counted
        if spec.weight != 1:
            weighted = weighted * spec.weight
        node_score = weighted if node_score is None else node_score + weighted
        if counted is None and isinstance(weight_sum, int):
            weight_sum += spec.weight
        else:
            weight_sum = weight_sum + (np.ones(n, np.bool_) if counted is None else counted) * spec.weight
    if node_score is None:
        return np.zeros(n, np.int64), True
    # RequestedToCapacityRatio's results lie within its shape's scores (0..100 in a valid config)
    in_range = ordinary and (lut is None or (int(lut.min()) >= 0 and int(lut.max()) <= _MAX_NODE_SCORE))
    return _combined(node_score, weight_sum, lut, ordinary), in_range


def _combined(
    node_score: Int64Array, weight_sum: Int64Array | int, lut: Int64Array | None, ordinary: bool
) -> Int64Array:
    """The weighted per-resource scores divided by each node's weight sum, as Go does; ``ordinary``: every
    per-resource score came from the float path, so ``node_score`` is known to be non-negative."""
    n = node_score.size
    if lut is not None:
        sums = np.broadcast_to(np.asarray(weight_sum, np.int64), (n,))
        has_weight = sums != 0
        ratio = node_score.astype(np.float64) / np.where(has_weight, sums, 1).astype(np.float64)
        return np.where(has_weight, go_round(ratio), 0).astype(np.int64)
    if isinstance(weight_sum, int) or (n and weight_sum.min() == weight_sum.max()):
        divisor = weight_sum if isinstance(weight_sum, int) else int(weight_sum[0])  # one divisor for all nodes
        if divisor == 0:
            return np.zeros(n, np.int64)
        if divisor > 0 and (ordinary or n == 0 or node_score.min() >= 0):
            if divisor & (divisor - 1) == 0:  # a power of two: floor division of non-negatives is a shift
                return node_score >> (divisor.bit_length() - 1)
            return node_score // divisor
        return trunc_div(node_score, divisor)
    has_weight = weight_sum != 0
    return np.where(has_weight, trunc_div(node_score, np.where(has_weight, weight_sum, 1)), 0).astype(np.int64)


class _AllocColumn:
    """One allocatable column prepared for scoring; valid while ``NodeStore.alloc_version`` is unchanged."""

    __slots__ = ("all_counted", "counted", "fast", "safe_f", "values_f")

    def __init__(self, allocatable: Int64Array) -> None:
        self.counted: BoolArray = allocatable != 0
        self.all_counted = bool(self.counted.all())
        # Float64 is exact here: every operand is an integer below 2**53, and floor(x / y) of the
        # correctly rounded quotient is exact while y * (quotient + 1) < 2**53 (quotients are <= 100).
        self.fast = allocatable.size == 0 or (
            int(allocatable.min()) >= 0 and int(allocatable.max()) < _FLOAT_ALLOC_LIMIT
        )
        self.values_f: FloatArray = allocatable.astype(np.float64)
        # max(allocatable, 1) is the divisor; with no zero (and, on the fast path, no negative) it is the column
        self.safe_f: FloatArray = self.values_f if self.all_counted else np.maximum(self.values_f, 1.0)


def _alloc_column(store: NodeStore, col: int) -> _AllocColumn:
    key = (store.alloc_version, store.size, col)
    cache = store.derived
    hit = cache.get(key)
    if isinstance(hit, _AllocColumn):
        return hit
    if len(cache) > 64:
        cache.clear()
    column = cache[key] = _AllocColumn(store.alloc[col, : store.size])
    return column


def _float_resource_score(strategy: str, fit_req_f: FloatArray, request: int, column: _AllocColumn) -> Int64Array:
    """Per-resource score (RequestedToCapacityRatio: the utilization) in float64; the caller has checked
    that every operand is a non-negative integer in the range where that is exact."""
    requested = fit_req_f + float(request)
    if strategy == LEAST_ALLOCATED:
        work = np.subtract(column.values_f, requested, out=requested)
        np.maximum(work, 0.0, out=work)
    else:
        work = np.minimum(requested, column.values_f, out=requested)
    work *= _MAX_NODE_SCORE
    work /= column.safe_f
    return work.astype(np.int64)


def _exact_resource_score(
    strategy: str, requested: Int64Array, allocatable: Int64Array, counted: BoolArray, lut: Int64Array | None
) -> Int64Array:
    """Per-resource score in int64 with Go's truncating division (and wrap-around), for nonsense data."""
    safe_alloc = np.where(counted, allocatable, 1)
    if lut is not None:
        over = (requested > allocatable) | ~counted
        utilization = np.where(over, _MAX_UTILIZATION, trunc_div(requested * _MAX_UTILIZATION, safe_alloc))
        shaped: Int64Array = lut[np.clip(utilization, 0, _MAX_UTILIZATION)]
        return shaped
    if strategy == LEAST_ALLOCATED:
        free = trunc_div((allocatable - requested) * _MAX_NODE_SCORE, safe_alloc)
        return np.where(requested > allocatable, 0, free)
    return trunc_div(np.minimum(requested, allocatable) * _MAX_NODE_SCORE, safe_alloc)


_MIN_VOLCANO_RESOURCE = 0.1  # Resource.ResourceNames() drops amounts below minResource


def binpack_scores(store: NodeStore, args: VolcanoBinpackArgs, task_request: Mapping[str, float]) -> FloatArray:
    """Volcano binpack score (0..100 x binpack.weight) for every row; 0 where request + used > capacity."""
    n = store.size
    score = np.zeros(n, np.float64)
    rejected = np.zeros(n, np.bool_)
    weight_sum = 0
    names = [r for r in ("cpu", "memory") if r in args.resources]
    names += [r for r in args.resources if r not in ("cpu", "memory")]
    for name in names:
        request = task_request.get(name, 0.0)
        if request < _MIN_VOLCANO_RESOURCE:
            continue
        weight = args.resources[name]
        weight_sum += weight
        col = store.resource_index.get(name)
        if col is None or weight == 0:
            continue  # capacity 0 (or weight 0): term 0, weight still counted
        capacity = store.vc_alloc[col, :n].astype(np.float64)
        used_finally = request + store.vc_used[col, :n].astype(np.float64)
        has_capacity = capacity != 0
        rejected |= has_capacity & (used_finally > capacity)
        term = used_finally * float(weight) / np.where(has_capacity, capacity, 1.0)
        score = score + np.where(has_capacity, term, 0.0)
    if weight_sum > 0:
        score = score / float(weight_sum)
    score = score * float(_MAX_NODE_SCORE * args.weight)
    return np.where(rejected, 0.0, score)
