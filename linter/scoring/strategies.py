"""NodeResourcesFit strategies per node, in Go's arithmetic (BalancedAllocation re-exported).

See docs/scoring.md (section 2). Scorers take parallel sequences of (requested, allocatable,
weight) after gating; an entry with allocatable 0 is a skipped resource. Integer maths is
Go's int64 arithmetic (truncating division, and wrap-around wherever a product or a sum leaves
int64, e.g. ``allocatable * 100`` for memory above about 82Pi), RequestedToCapacityRatio and
BalancedAllocation use float64 exactly where Go does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from linter.goint import wrap_int64
from linter.model import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    FitArgs,
    ShapePoint,
)
from linter.scoring.gomath import go_div, go_round
from linter.scoring.requests import gate_resource

__all__ = [
    "MAX_NODE_SCORE",
    "BalancedNodeScore",
    "BalancedResource",
    "FitNodeScore",
    "FitResource",
    "balanced_allocation",
    "balanced_score_node",
    "broken_line",
    "fit_score_node",
    "gate_resource",
    "least_allocated",
    "most_allocated",
    "requested_to_capacity_ratio",
    "scaled_shape",
]

MAX_NODE_SCORE = 100
MAX_UTILIZATION = 100
MAX_CUSTOM_PRIORITY_SCORE = 10


# ---------------------------------------------------------------- per-resource scores


def scaled(amount: int, factor: int, allocatable: int) -> int:
    """Go's int64 ``(amount * factor) / allocatable``: the product wraps around, the quotient truncates."""
    return go_div(wrap_int64(amount * factor), allocatable)


def least_requested_score(requested: int, allocatable: int) -> int:
    if allocatable == 0 or requested > allocatable:
        return 0
    return scaled(wrap_int64(allocatable - requested), MAX_NODE_SCORE, allocatable)


def most_requested_score(requested: int, allocatable: int) -> int:
    if allocatable == 0:
        return 0
    return scaled(min(requested, allocatable), MAX_NODE_SCORE, allocatable)


def rtcr_utilization(requested: int, allocatable: int) -> int:
    """Utilization fed to the shape: capped at 100 when requested exceeds allocatable."""
    if allocatable == 0 or requested > allocatable:
        return MAX_UTILIZATION
    return scaled(requested, MAX_UTILIZATION, allocatable)


def scaled_shape(shape: Sequence[ShapePoint]) -> tuple[tuple[int, int], ...]:
    """Shape points with scores scaled from 0..10 to 0..100 (``MaxNodeScore / MaxCustomPriorityScore``)."""
    factor = MAX_NODE_SCORE // MAX_CUSTOM_PRIORITY_SCORE
    return tuple((p.utilization, p.score * factor) for p in shape)


def broken_line(points: Sequence[tuple[int, int]], utilization: int) -> int:
    """``helper.BuildBrokenLinearFunction`` with Go's truncating division on every segment."""
    if not points:
        return 0
    for i, (u, y) in enumerate(points):
        if utilization <= u:
            if i == 0:
                return y
            u0, y0 = points[i - 1]
            return y0 + go_div((y - y0) * (utilization - u0), u - u0)
    return points[-1][1]


# ---------------------------------------------------------------- node scorers


def least_allocated(requested: Sequence[int], allocatable: Sequence[int], weights: Sequence[int]) -> int:
    return _weighted_average(least_requested_score, requested, allocatable, weights)


def most_allocated(requested: Sequence[int], allocatable: Sequence[int], weights: Sequence[int]) -> int:
    return _weighted_average(most_requested_score, requested, allocatable, weights)


def _weighted_average(score: Callable[[int, int], int], requested: Sequence[int], allocatable: Sequence[int],
                      weights: Sequence[int]) -> int:
    """The int64 weighted average both strategies take over the resources not skipped."""
    node_score = weight_sum = 0
    for r, a, w in zip(requested, allocatable, weights, strict=True):
        if a == 0:
            continue
        node_score = wrap_int64(node_score + score(r, a) * w)
        weight_sum = wrap_int64(weight_sum + w)
    return 0 if weight_sum == 0 else go_div(node_score, weight_sum)


def requested_to_capacity_ratio(
    requested: Sequence[int], allocatable: Sequence[int], weights: Sequence[int], shape: Sequence[ShapePoint]
) -> int:
    points = scaled_shape(shape)
    node_score = weight_sum = 0
    for r, a, w in zip(requested, allocatable, weights, strict=True):
        if a == 0:
            continue
        s = broken_line(points, rtcr_utilization(r, a))
        if s > 0:  # a zero score leaves both sums: it does not pull the average down
            node_score = wrap_int64(node_score + s * w)
            weight_sum = wrap_int64(weight_sum + w)
    if weight_sum == 0:
        return 0
    return go_round(float(node_score) / float(weight_sum))


# ---------------------------------------------------------------- gating and breakdowns


@dataclass(frozen=True)
class FitResource:
    """One configured resource of one node; ``skipped`` when requested = allocatable = 0."""

    name: str
    weight: int
    pod_request: int
    requested: int
    allocatable: int
    utilization: int | None
    resource_score: int | None
    counted: bool  # whether it entered the weighted average

    @property
    def skipped(self) -> bool:
        return self.allocatable == 0

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "weight": self.weight,
            "podRequest": self.pod_request,
            "requested": self.requested,
            "allocatable": self.allocatable,
            "skipped": self.skipped,
            "utilization": self.utilization,
            "resourceScore": self.resource_score,
            "counted": self.counted,
        }


@dataclass(frozen=True)
class FitNodeScore:
    strategy: str
    score: int
    resources: tuple[FitResource, ...]
    weighted_sum: int
    weight_sum: int


def _resource_score(args: FitArgs, requested: int, allocatable: int) -> tuple[int, int]:
    """(utilization shown to users, per-resource score) for a non-skipped resource."""
    if args.strategy == LEAST_ALLOCATED:
        return scaled(requested, 100, allocatable), least_requested_score(requested, allocatable)
    if args.strategy == MOST_ALLOCATED:
        return scaled(requested, 100, allocatable), most_requested_score(requested, allocatable)
    utilization = rtcr_utilization(requested, allocatable)
    return utilization, broken_line(scaled_shape(args.shape or ()), utilization)


def fit_score_node(
    args: FitArgs,
    pod_request: Mapping[str, int],
    node_requested: Mapping[str, int],
    node_allocatable: Mapping[str, int],
) -> FitNodeScore:
    """NodeResourcesFit's plugin score (0..100, before the profile weight) with its breakdown.

    ``pod_request`` is :func:`~linter.scoring.requests.fit_score_request`; ``node_requested``
    the sum of :func:`~linter.scoring.requests.fit_node_contribution` over the node's pods.
    """
    if args.strategy not in (LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO):
        raise ValueError(f"unknown scoring strategy {args.strategy!r}")
    rows: list[FitResource] = []
    req: list[int] = []
    alloc: list[int] = []
    weights: list[int] = []
    weighted_sum = weight_sum = 0
    for spec in args.resources:
        pod = pod_request.get(spec.name, 0)
        a, r = gate_resource(spec.name, pod, node_requested.get(spec.name, 0), node_allocatable)
        req.append(r)
        alloc.append(a)
        weights.append(spec.weight)
        if a == 0:
            rows.append(FitResource(spec.name, spec.weight, pod, 0, 0, None, None, False))
            continue
        utilization, s = _resource_score(args, r, a)
        counted = s > 0 if args.strategy == REQUESTED_TO_CAPACITY_RATIO else True
        if counted:
            weighted_sum = wrap_int64(weighted_sum + s * spec.weight)
            weight_sum = wrap_int64(weight_sum + spec.weight)
        rows.append(FitResource(spec.name, spec.weight, pod, r, a, utilization, s, counted))
    if args.strategy == LEAST_ALLOCATED:
        score = least_allocated(req, alloc, weights)
    elif args.strategy == MOST_ALLOCATED:
        score = most_allocated(req, alloc, weights)
    else:
        score = requested_to_capacity_ratio(req, alloc, weights, args.shape or ())
    return FitNodeScore(args.strategy, score, tuple(rows), weighted_sum, weight_sum)


# BalancedAllocation lives in its own module; re-exported here for the API contract.
from linter.scoring.balanced import (  # noqa: E402
    BalancedNodeScore,
    BalancedResource,
    balanced_allocation,
    balanced_score_node,
)
