"""NodeResourcesBalancedAllocation (docs/scoring.md, section 2), float64 exactly where Go uses it.

Scores the fractions requested/allocatable of the configured resources (actual requests, no
non-zero defaults) twice, with and without the incoming pod, and rewards nodes whose
balance the pod improves: ``50 + ⌊(50 + b_with - b_without) / 2⌋``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from linter.goint import wrap_int64
from linter.model import BalancedArgs
from linter.scoring.gomath import go_div
from linter.scoring.requests import gate_resource

__all__ = ["BalancedNodeScore", "BalancedResource", "balanced_allocation", "balanced_score_node"]

MAX_NODE_SCORE = 100


def balanced_allocation(requested: Sequence[int], allocatable: Sequence[int]) -> int:
    """``int64((1 - std) * 100)`` over the non-skipped resources, in float64."""
    fractions: list[float] = []
    total = 0.0
    for r, a in zip(requested, allocatable, strict=True):
        if a == 0:
            continue
        f = min(float(r) / float(a), 1.0)
        total += f
        fractions.append(f)
    std = 0.0
    if len(fractions) == 2:
        std = abs((fractions[0] - fractions[1]) / 2)
    elif len(fractions) > 2:
        mean = total / float(len(fractions))
        acc = 0.0
        for f in fractions:
            acc = acc + (f - mean) * (f - mean)
        std = math.sqrt(acc / float(len(fractions)))
    return int((1 - std) * float(MAX_NODE_SCORE))


@dataclass(frozen=True)
class BalancedResource:
    name: str
    pod_request: int
    requested: int  # with the pod
    allocated: int  # without the pod
    allocatable: int

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "podRequest": self.pod_request,
            "requested": self.requested,
            "allocated": self.allocated,
            "allocatable": self.allocatable,
        }


@dataclass(frozen=True)
class BalancedNodeScore:
    score: int
    skipped: bool
    pod_requests: Mapping[str, int]
    resources: tuple[BalancedResource, ...]
    with_pod: int
    without_pod: int


def balanced_score_node(
    args: BalancedArgs,
    pod_request: Mapping[str, int],
    node_requested: Mapping[str, int],
    node_allocatable: Mapping[str, int],
) -> BalancedNodeScore:
    """BalancedAllocation from :func:`~linter.scoring.requests.actual_request` values.

    ``node_requested`` is the sum of the bound pods' actual requests. When every
    configured resource has pod request 0, PreScore skips the pod: ``skipped`` is true
    and the plugin adds nothing.
    """
    pod_requests = {r.name: pod_request.get(r.name, 0) for r in args.resources}
    if all(v == 0 for v in pod_requests.values()):
        return BalancedNodeScore(0, True, pod_requests, (), 0, 0)
    rows: list[BalancedResource] = []
    with_req: list[int] = []
    without_req: list[int] = []
    alloc: list[int] = []
    for spec in args.resources:
        pod = pod_request.get(spec.name, 0)
        already = node_requested.get(spec.name, 0)
        a, r = gate_resource(spec.name, pod, already, node_allocatable)
        without = wrap_int64(r - pod) if a else 0  # Go's int64: the node's sum without the pod
        with_req.append(r)
        without_req.append(without)
        alloc.append(a)
        rows.append(BalancedResource(spec.name, pod, r, without, a))
    b_with = balanced_allocation(with_req, alloc)
    b_without = balanced_allocation(without_req, alloc)
    score = 50 + go_div(50 + b_with - b_without, 2)
    return BalancedNodeScore(score, False, pod_requests, tuple(rows), b_with, b_without)

