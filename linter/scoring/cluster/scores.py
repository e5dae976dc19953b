"""Vectorized plugin scores over every node row at once (docs/scoring.md, section 2).

Each function returns one score per row of a :class:`~linter.scoring.cluster.store.NodeStore`
(rows of absent nodes carry garbage the caller masks out). The arithmetic follows Go:

* NodeResourcesFit is Go's int64 arithmetic. In the normal case (non-negative operands, every
  allocatable, requested amount and request below 2**46) each per-resource quotient is computed
  in float64, where it is provably exact and much faster than numpy's int64 division, and when
  every node counts every resource with positive weights the whole score (RequestedToCapacityRatio
  included) stays in float64, in the store's reused work buffers; otherwise every division goes
  through :func:`trunc_div` (Go's ``/`` truncates toward zero, numpy's ``//`` floors), with int64
  wrap-around as in Go;
* RequestedToCapacityRatio divides in float64 and rounds half away from zero like
  ``math.Round`` (numpy's ``round`` is half-to-even);
* Volcano binpack accumulates float64 terms in the order Volcano does (cpu, memory, then
  the extra resources in the order the arguments list them), each as
  ``((request + used) * weight) / capacity``.

The per-utilization shape value comes from the scalar model
(:func:`linter.scoring.strategies.broken_line`) through a 101-entry lookup table, so the
broken-line interpolation exists in one place only. On the float path with one or two scored
resources, RequestedToCapacityRatio's whole node score comes from a table of every combination
of utilizations (:mod:`linter.scoring.cluster.ratio_table`), one lookup per node.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

import numpy as np

from linter.goint import wrap_int64
from linter.model import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    FitArgs,
    ShapePoint,
    VolcanoBinpackArgs,
)
from linter.scoring.cluster.ratio_table import MAX_TABLE_RESOURCES, UTILIZATIONS, ratio_score_table
from linter.scoring.cluster.store import BoolArray, Int64Array, NodeStore
from linter.scoring.requests import is_scalar_resource
from linter.scoring.strategies import broken_line, scaled_shape
from linter.scoring.volcano import node_score_factor

FloatArray = np.ndarray[tuple[int], np.dtype[np.float64]]

_MAX_NODE_SCORE = 100
_MAX_UTILIZATION = 100
_DIRECT_RESOURCES = ("cpu", "memory", "ephemeral-storage")
# Below this allocatable (and requested amount), x * 100 and allocatable * (quotient + 1) stay below
# 2**53 (exact float64).
_FLOAT_ALLOC_LIMIT = 2**46


def trunc_div(a: Int64Array, b: Int64Array | int) -> Int64Array:
    """Go's int64 ``a / b`` (truncation toward zero); ``b`` must be non-zero.

    Floor division corrected by one where the signs differ and the division is inexact: unlike
    ``abs(a) // abs(b)`` this is right for ``a`` = -2**63 too (whose ``abs`` is itself); -2**63 / -1
    wraps to -2**63 as in Go."""
    divisor = np.asarray(b, np.int64)
    with np.errstate(over="ignore", divide="ignore"):
        q = np.floor_divide(a, divisor)
        inexact = (a - q * divisor) != 0
    result: Int64Array = (q + (inexact & ((a < 0) != (divisor < 0)))).astype(np.int64)
    return result


def go_round(x: FloatArray) -> FloatArray:
    """``math.Round``: half away from zero, exact (``x - trunc(x)`` has no rounding error)."""
    t = np.trunc(x)
    frac = x - t
    return t + np.where(np.abs(frac) >= 0.5, np.sign(x), 0.0)


def _within_scores(lut: Int64Array) -> bool:
    """Whether every shaped score lies in 0..100 (so RequestedToCapacityRatio's results do too)."""
    return int(lut.min()) >= 0 and int(lut.max()) <= _MAX_NODE_SCORE


@lru_cache(maxsize=64)
def _shape_lut_f(shape: tuple[ShapePoint, ...]) -> FloatArray:
    """:func:`_shape_lut` as float64, for the float path."""
    return _shape_lut(shape).astype(np.float64)


@lru_cache(maxsize=64)
def _shape_lut(shape: tuple[ShapePoint, ...]) -> Int64Array:
    """Scaled shape score for every utilization 0..100 (utilization is always in that range)."""
    points = scaled_shape(shape)
    return np.array([broken_line(points, u) for u in range(_MAX_UTILIZATION + 1)], np.int64)


def fit_scores(
    store: NodeStore, args: FitArgs, pod_request: Mapping[str, int]
) -> tuple[Int64Array | FloatArray, bool]:
    """NodeResourcesFit plugin score (0..100, before the profile weight) for rows ``0 .. size-1``, and
    whether every score is sure to lie in 0..100 (not so when a resource needed the int64 path, whose
    wrap-around can give anything).

    In the usual case (see :func:`_float_terms`) the scores are whole numbers in a float64 array that is
    one of the store's work buffers (:meth:`NodeStore.work_rows`): read them before the next ranking.
    """
    n = store.size
    strategy = args.strategy
    if strategy not in (LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO):
        raise ValueError(f"unknown NodeResourcesFit scoring strategy {strategy!r}")
    terms: list[_Term] = []  # each resource the scorer reads
    for spec in args.resources:
        name = spec.name
        request = pod_request.get(name, 0)
        scalar = is_scalar_resource(name)
        # Gating: a scalar the pod does not request, or a name the scorer cannot look up.
        if (request == 0 and scalar) or not (scalar or name in _DIRECT_RESOURCES):
            continue
        col = store.resource_index.get(name)
        if col is not None:
            terms.append((col, request, spec.weight, alloc_column(store, col)))
    if not terms:
        return np.zeros(n, np.int64), True
    if _float_terms(store, terms):
        if strategy != REQUESTED_TO_CAPACITY_RATIO:
            return _float_fit_scores(store, strategy, terms), True
        shape = args.shape or ()
        if _within_scores(_shape_lut(shape)):  # always, for a valid shape
            if len(terms) <= MAX_TABLE_RESOURCES:
                return _table_ratio_scores(store, terms, ratio_score_table(shape, tuple(t[2] for t in terms))), True
            return _float_ratio_scores(store, terms, _shape_lut_f(shape)), True
    return _general_fit_scores(store, strategy, args.shape, terms)


# (store column, the pod's request, weight, the prepared allocatable column) of one scored resource
_Term = tuple[int, int, int, "AllocColumn"]
# A weight sum this small keeps every weighted sum of scores (at most 100 x the sum) exact in float64.
_FLOAT_WEIGHT_LIMIT = 2**40


def _float_terms(store: NodeStore, terms: list[_Term]) -> bool:
    """Whether all of the score can be worked out in float64 (:func:`_float_fit_scores`): every resource
    on the exact float path (:func:`_float_exact`), every node counting it (no zero allocatable) and
    positive weights of a moderate sum. Anything else takes :func:`_general_fit_scores`."""
    weight_sum = 0
    for col, request, weight, column in terms:
        if weight <= 0 or not (column.all_counted and _float_exact(store, col, request, column)):
            return False
        weight_sum += weight
    return weight_sum < _FLOAT_WEIGHT_LIMIT


def _float_exact(store: NodeStore, col: int, request: int, column: AllocColumn) -> bool:
    """Whether the float64 per-resource score (:func:`_float_resource_score`) is exact for ``col``: every
    allocatable, requested amount (fit_peak, with no negative amounts ever) and the pod's request lie in
    0 .. 2**46, so all the x100 values stay below 2**53."""
    return (
        column.fast
        and 0 <= request < _FLOAT_ALLOC_LIMIT
        and not store.fit_negative
        and store.fit_peak[col] < _FLOAT_ALLOC_LIMIT
    )


def _float_fit_scores(store: NodeStore, strategy: str, terms: list[_Term]) -> FloatArray:
    """The whole NodeResourcesFit score in float64 work buffers, for the case :func:`_float_terms` allows.

    Every per-resource score is a whole number 0..100 and every weight a positive integer, so the
    weighted sum is an exact integer below 2**53; the division by the weight sum is correctly rounded
    and its floor is Go's integer quotient (the quotient is at most 100 and sum x 101 < 2**53)."""
    total = store.work_rows(0)
    part = store.work_rows(1)
    weight_sum = 0
    for i, (col, request, weight, column) in enumerate(terms):
        target = total if i == 0 else part
        _float_resource_score(store, strategy, col, request, column, target)
        if weight != 1:
            target *= weight
        if i:
            total += part
        weight_sum += weight
    if weight_sum != 1:
        if weight_sum & (weight_sum - 1) == 0:  # a power of two: x * 2**-k is the float64 x / 2**k, and cheaper
            total *= 1.0 / weight_sum
        else:
            total /= weight_sum
        np.floor(total, out=total)
    return total


def _float_ratio_scores(store: NodeStore, terms: list[_Term], lut_f: FloatArray) -> FloatArray:
    """RequestedToCapacityRatio in float64 work buffers, for the case :func:`_float_terms` allows and a
    shape whose scores lie in 0..100.

    A resource whose shaped score is 0 drops out of both sums; its product is 0 anyway, so only the weight
    sum needs the mask. Both sums are exact integers, so their quotient is the same float64 Go divides,
    and ``math.Round`` of a non-negative quotient is its floor plus 1 when the fraction (exact:
    ``q - floor(q)`` has no rounding error) is at least one half. A node with no positive score has both
    sums 0: dividing by max(weights, 1) gives Go's 0."""
    total = store.work_rows(0)
    weights = store.work_rows(1)
    utilization = store.work_rows(2)
    shaped = store.work_rows(3)
    for i, (col, request, weight, column) in enumerate(terms):
        _float_resource_score(store, REQUESTED_TO_CAPACITY_RATIO, col, request, column, utilization)
        np.take(lut_f, utilization.astype(np.intp), out=shaped)
        positive = shaped > 0
        if i == 0:
            np.multiply(shaped, weight, out=total)
            np.multiply(positive, float(weight), out=weights)
        else:
            shaped *= weight
            total += shaped
            positive_weight = np.multiply(positive, float(weight), out=shaped)
            weights += positive_weight
    np.maximum(weights, 1.0, out=weights)
    total /= weights
    np.floor(total, out=utilization)
    total -= utilization  # the fraction
    np.add(utilization, total >= 0.5, out=total)
    return total


def _table_ratio_scores(store: NodeStore, terms: list[_Term], table: FloatArray) -> FloatArray:
    """RequestedToCapacityRatio for one or two resources in the case :func:`_float_terms` allows, looked up in
    ``table`` (:func:`~linter.scoring.cluster.ratio_table.ratio_score_table`) at ``u1`` or ``u1 * 101 + u2``."""
    index = store.work_index(0)
    part = store.work_index(1)
    for i, (col, request, _weight, column) in enumerate(terms):
        _utilization_into(store, col, request, column, part if i else index)
        if i:
            index *= UTILIZATIONS
            index += part
    # every index is in range: "clip" only spares numpy the bounds check "raise" makes per element
    scores: FloatArray = np.take(table, index, out=store.work_rows(0), mode="clip")
    return scores


def _utilization_into(store: NodeStore, col: int, request: int, column: AllocColumn, out: Int64Array) -> None:
    """RequestedToCapacityRatio's utilization as int64 in ``out``: :func:`_float_resource_score`'s quotient
    (0..100) converted by the division itself, whose truncation is the floor of a non-negative value."""
    n = store.size
    scratch = store.work_rows(2)
    np.add(store.fit_req100[col, :n], _MAX_NODE_SCORE * request, out=scratch)
    np.minimum(scratch, column.scaled_f, out=scratch)
    np.divide(scratch, column.safe_f, out=out, casting="unsafe")


def _general_fit_scores(
    store: NodeStore, strategy: str, shape: tuple[ShapePoint, ...] | None, terms: list[_Term]
) -> tuple[Int64Array, bool]:
    """NodeResourcesFit in int64, resource by resource: nodes with a zero allocatable, zero or huge
    weights, RequestedToCapacityRatio shapes outside 0..100, and (on Go's int64 path) nonsense quantities."""
    n = store.size
    ordinary = True
    lut = _shape_lut(shape or ()) if strategy == REQUESTED_TO_CAPACITY_RATIO else None
    node_score: Int64Array | None = None
    weight_sum: Int64Array | int = 0  # an int while every node counts the same weights
    for col, request, weight, column in terms:
        resource_score: Int64Array
        if weight >= 0 and _float_exact(store, col, request, column):
            utilization = _float_resource_score(store, strategy, col, request, column, np.empty(n, np.float64))
            # requested > allocatable already gives exactly 100: min() makes it allocatable * 100 / allocatable
            resource_score = lut[utilization.astype(np.intp)] if lut is not None else utilization.astype(np.int64)
        else:  # huge or negative values: Go's int64 arithmetic (wrap-around included)
            ordinary = False
            allocatable = store.alloc[col, :n]
            requested = store.fit_req[col, :n] + request
            resource_score = _exact_resource_score(strategy, requested, allocatable, column.counted, lut)
        if lut is not None:
            counted = column.counted & (resource_score > 0)
        elif column.all_counted:
            counted = None
        else:
            counted = column.counted
        weighted = resource_score if counted is None else resource_score * counted
        if weight != 1:
            weighted = weighted * weight
        node_score = weighted if node_score is None else node_score + weighted
        if counted is None and isinstance(weight_sum, int):
            weight_sum += weight
        else:
            weight_sum = weight_sum + (np.ones(n, np.bool_) if counted is None else counted) * weight
    assert node_score is not None  # the caller passes at least one term
    # RequestedToCapacityRatio's results lie within its shape's scores (0..100 in a valid config)
    in_range = ordinary and (lut is None or _within_scores(lut))
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


class AllocColumn:
    """One allocatable column prepared for scoring; valid while ``NodeStore.alloc_version`` is unchanged."""

    __slots__ = ("all_counted", "counted", "fast", "safe_f", "scaled_f")

    def __init__(self, allocatable: Int64Array) -> None:
        self.counted: BoolArray = allocatable != 0
        self.all_counted = bool(self.counted.all())
        # Float64 is exact here: every operand is an integer below 2**53, and floor(x / y) of the
        # correctly rounded quotient is exact while y * (quotient + 1) < 2**53 (quotients are <= 100).
        self.fast = allocatable.size == 0 or (
            int(allocatable.min()) >= 0 and int(allocatable.max()) < _FLOAT_ALLOC_LIMIT
        )
        values_f: FloatArray = allocatable.astype(np.float64)
        self.scaled_f: FloatArray = values_f * _MAX_NODE_SCORE  # exact on the fast path (below 2**53)
        # max(allocatable, 1) is the divisor; with no zero (and, on the fast path, no negative) it is the column
        self.safe_f: FloatArray = values_f if self.all_counted else np.maximum(values_f, 1.0)


def alloc_column(store: NodeStore, col: int) -> AllocColumn:
    key = (store.alloc_version, store.size, col)
    cache = store.derived
    hit = cache.get(key)
    if isinstance(hit, AllocColumn):
        return hit
    if len(cache) > 64:
        cache.clear()
    column = cache[key] = AllocColumn(store.alloc[col, : store.size])
    return column


def _float_resource_score(
    store: NodeStore, strategy: str, col: int, request: int, column: AllocColumn, out: FloatArray
) -> FloatArray:
    """Per-resource score (RequestedToCapacityRatio: the utilization) as whole numbers in ``out``, for a
    resource :func:`_float_exact` allows.

    Every x100 operand is an exact integer below 2**53. LeastAllocated's ``100 * (free - request)`` may
    round when it is far below zero, but rounding never crosses zero, so the clamp to 0 is right; it is
    exact whenever it is positive (at most 100 x allocatable). MostAllocated's ``100 * (requested +
    request)`` may round only when it is above ``100 * allocatable``, which the ``min`` then returns
    exactly. The floor of the correctly rounded quotient is exact (see :class:`AllocColumn`)."""
    n = store.size
    if strategy == LEAST_ALLOCATED:
        np.subtract(store.fit_free100[col, :n], _MAX_NODE_SCORE * request, out=out)
        np.maximum(out, store.zero_rows(), out=out)
    else:
        np.add(store.fit_req100[col, :n], _MAX_NODE_SCORE * request, out=out)
        np.minimum(out, column.scaled_f, out=out)
    out /= column.safe_f
    np.floor(out, out=out)
    return out


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
    """Volcano binpack score (0..100 x binpack.weight) for every row; 0 where request + used > capacity.

    ``vc_alloc`` and ``vc_used`` are float64 columns, Volcano's own type, so nothing is converted here."""
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
        weight_sum = wrap_int64(weight_sum + weight)  # Go's int sum
        col = store.resource_index.get(name)
        if col is None or weight == 0:
            continue  # capacity 0 (or weight 0): term 0, weight still counted
        capacity = store.vc_alloc[col, :n]
        used_finally = request + store.vc_used[col, :n]
        has_capacity = capacity != 0
        rejected |= has_capacity & (used_finally > capacity)
        term = used_finally * float(weight) / np.where(has_capacity, capacity, 1.0)
        score = score + np.where(has_capacity, term, 0.0)
    if weight_sum > 0:
        score = score / float(weight_sum)
    score = score * node_score_factor(args.weight)
    return np.where(rejected, 0.0, score)
