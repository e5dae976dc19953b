"""The legacy Policy priority ``RequestedToCapacityRatioPriority`` on its 0..10 scale.

Only for *explaining* what an old (1.16-1.17 era) ``kind: Policy`` file gave; predictions
for a running cluster use the 1.36 plugin in :mod:`linter.scoring.strategies`.

What that code did, per resource: utilization ``100 - ⌊(a - r)·100 / a⌋`` (rounded up),
or 100 when the node lacks the resource or the request exceeds it; the shape evaluated
directly on 0..10 with Go's truncating interpolation; resources scoring 0 left out of the
average; node score ``round½(Σ s·w / Σ w)``; the scheduler then multiplies by the
priority's weight.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from linter.model import LegacyRtcrPriority
from linter.scoring.gomath import go_div, go_round
from linter.scoring.strategies import FitResource, broken_line

__all__ = ["LegacyNodeScore", "LegacyResource", "legacy_rtcr_score_node", "legacy_utilization"]

MAX_UTILIZATION = 100


def legacy_utilization(requested: int, capacity: int) -> int:
    if capacity == 0 or requested > capacity:
        return MAX_UTILIZATION
    return MAX_UTILIZATION - go_div((capacity - requested) * MAX_UTILIZATION, capacity)


@dataclass(frozen=True)
class LegacyResource(FitResource):
    """One resource of one node under the legacy RTCR priority; shown in the same shape as a Fit resource."""

    @property
    def skipped(self) -> bool:
        return False  # the legacy code never skipped: a missing resource counts as full


@dataclass(frozen=True)
class LegacyNodeScore:
    score: int  # 0..10
    weighted_score: int  # score x priority weight
    resources: tuple[LegacyResource, ...]
    weighted_sum: int
    weight_sum: int


def legacy_rtcr_score_node(
    priority: LegacyRtcrPriority,
    pod_request: Mapping[str, int],
    node_requested: Mapping[str, int],
    node_allocatable: Mapping[str, int],
) -> LegacyNodeScore:
    """Score one node the way the 0..10 priority did.

    ``pod_request``/``node_requested`` are the non-zero Fit views
    (:func:`~linter.scoring.requests.fit_score_request`, summed
    :func:`~linter.scoring.requests.fit_node_contribution`).
    """
    points = tuple((p.utilization, p.score) for p in priority.shape)
    rows: list[LegacyResource] = []
    weighted_sum = weight_sum = 0
    weights: dict[str, int] = {}
    for spec in priority.resources:  # the Policy code kept a name -> weight map: the last entry wins
        weights[spec.name] = spec.weight
    for name, weight in weights.items():
        pod = pod_request.get(name, 0)
        requested = node_requested.get(name, 0) + pod
        capacity = node_allocatable.get(name, 0)
        utilization = legacy_utilization(requested, capacity)
        s = broken_line(points, utilization)
        counted = s > 0
        if counted:
            weighted_sum += s * weight
            weight_sum += weight
        rows.append(LegacyResource(name, weight, pod, requested, capacity, utilization, s, counted))
    score = 0 if weight_sum == 0 else go_round(float(weighted_sum) / float(weight_sum))
    return LegacyNodeScore(score, score * priority.weight, tuple(rows), weighted_sum, weight_sum)
