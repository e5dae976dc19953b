"""Vectorized plugin scores over every node row at once (reference/scoring.md §4, §5, §8).

Each function returns one score per row of a :class:`~linter.scoring.cluster_store.NodeStore`
(rows of absent nodes carry garbage the caller masks out). The arithmetic follows Go:

* int64 throughout for NodeResourcesFit; Go's ``/`` truncates toward zero, so every
  division goes through :func:`trunc_div` (numpy's ``//`` floors);
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
from linter.scoring.cluster_store import BoolArray, Int64Array, NodeStore
from linter.scoring.requests import is_scalar_resource
from linter.scoring.strategies import broken_line, scaled_shape

FloatArray = np.ndarray[tuple[int], np.dtype[np.float64]]

_MAX_NODE_SCORE = 100
_MAX_UTILIZATION = 100
_DIRECT_RESOURCES = ("cpu", "memory", "ephemeral-storage")
# Below this allocatable, x * 100 and (quotient + 1) * allocatable stay inside int64.
_FAST_LIMIT = 2**56


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


def small_quotient(x: Int64Array, y: Int64Array) -> Int64Array:
    """Exact ``x / y`` for ``x >= 0``, ``y > 0`` and a quotient of at most a few hundred.

    numpy's int64 division is slow; float64 division is off by at most one here (the
    relative error is ~1e-16 and the quotient tiny), and two integer checks fix that.
    """
    q = (x.astype(np.float64) / y.astype(np.float64)).astype(np.int64)
    q -= q * y > x
    q += (q + 1) * y <= x
    return q


def fit_scores(store: NodeStore, args: FitArgs, pod_request: Mapping[str, int]) -> Int64Array:
    """NodeResourcesFit plugin score (0..100, before the profile weight) for rows ``0 .. size-1``."""
    n = store.size
    node_score = np.zeros(n, np.int64)
    weight_sum = np.zeros(n, np.int64)
    strategy = args.strategy
    if strategy not in (LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO):
        raise ValueError(f"unknown NodeResourcesFit scoring strategy {strategy!r}")
    lut = _shape_lut(args.shape or ()) if strategy == REQUESTED_TO_CAPACITY_RATIO else None
    for spec in args.resources:
        name = spec.name
        request = pod_request.get(name, 0)
        scalar = is_scalar_resource(name)
        # Gating (§4): a scalar the pod does not request, or a name the scorer cannot look up.
        if (request == 0 and scalar) or not (scalar or name in _DIRECT_RESOURCES):
            continue
        col = store.resource_index.get(name)
        if col is None:
            continue
        allocatable = store.alloc[col, :n]
        requested = store.fit_req[col, :n] + request
        counted = allocatable != 0
        if n and (
            allocatable.min() < 0 or allocatable.max() >= _FAST_LIMIT or requested.min() < 0 or spec.weight < 0
        ):  # nonsense data: Go's int64 arithmetic (wrap-around included) step by step
            resource_score = _signed_resource_score(strategy, requested, allocatable, counted, lut)
        else:  # the normal case: every operand non-negative, every quotient in 0..100
            safe_alloc = np.maximum(allocatable, 1)
            if strategy == LEAST_ALLOCATED:
                resource_score = small_quotient(np.maximum(allocatable - requested, 0) * _MAX_NODE_SCORE, safe_alloc)
            else:
                resource_score = small_quotient(np.minimum(requested, allocatable) * _MAX_NODE_SCORE, safe_alloc)
                if lut is not None:
                    resource_score = lut[np.where(requested > allocatable, _MAX_UTILIZATION, resource_score)]
        if lut is not None:
            counted &= resource_score > 0
        node_score += resource_score * counted * spec.weight
        weight_sum += counted * spec.weight
    if lut is not None:
        has_weight = weight_sum != 0
        ratio = node_score.astype(np.float64) / np.where(has_weight, weight_sum, 1).astype(np.float64)
        return np.where(has_weight, go_round(ratio), 0).astype(np.int64)
    if n and weight_sum.min() == weight_sum.max():  # usually one divisor for all nodes: a scalar division
        divisor = int(weight_sum[0])
        if divisor == 0:
            return np.zeros(n, np.int64)
        return node_score // divisor if divisor > 0 and node_score.min() >= 0 else trunc_div(node_score, divisor)
    has_weight = weight_sum != 0
    return np.where(has_weight, trunc_div(node_score, np.where(has_weight, weight_sum, 1)), 0).astype(np.int64)


def _signed_resource_score(
    strategy: str, requested: Int64Array, allocatable: Int64Array, counted: BoolArray, lut: Int64Array | None
) -> Int64Array:
    """Per-resource score with Go's truncating division, for the rare negative operands."""
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
