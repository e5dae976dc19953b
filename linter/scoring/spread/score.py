"""PodTopologySpread's PreScore, Score and NormalizeScore (kube-scheduler 1.36, scoring.go), for the
ScheduleAnyway constraints.

PreScore: with the pod's own constraints, or a List of default ones, every topology key is required:
a feasible node without one is *ignored* (scores 0 after normalising). With the System defaults it is
not, so a node without a zone label still gets hostname spreading (and the feasible nodes without it
form one zone domain, ""). The domains are the topology values of the feasible, non-ignored nodes;
each constraint's weight is Go's ``math.Log(domains + 2)`` (hostname: the feasible nodes that are not ignored).
The matching pods of a domain are summed over every node of the snapshot that passes the constraint's
inclusion policies (and has all keys when they are required).

Score: per constraint whose key the node has, ``matching pods * weight + (maxSkew - 1)`` (hostname:
the node's own matching pods, whatever the policies), summed as float64 and rounded half away from
zero. NormalizeScore: ``100 * (max + min - score) / max`` in int64 over the non-ignored nodes (100 for
all when max is 0), ignored nodes 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from linter.scoring.boundpods import BoundPods
from linter.scoring.gomath import go_log, go_round

from .constraints import HOSTNAME, SpreadConstraint
from .nodes import SpreadNode, has_all_keys, included

__all__ = ["SpreadScores", "spread_scores"]

_MAX_NODE_SCORE = 100


@dataclass(frozen=True)
class SpreadScores:
    raw: dict[str, int]  # Score, per feasible node
    normalized: dict[str, int]  # NormalizeScore, per feasible node (before the plugin weight)
    ignored: frozenset[str]  # feasible nodes without a required topology key
    weights: tuple[float, ...]  # each constraint's topology normalizing weight


def spread_scores(pod: Mapping[str, Any], namespace: str, constraints: Sequence[SpreadConstraint],
                  require_all: bool, nodes: Sequence[SpreadNode], feasible: Sequence[SpreadNode],
                  pods: BoundPods) -> SpreadScores | None:
    """The scores of the ``feasible`` nodes; None when PreScore returns Skip (no ScheduleAnyway
    constraint, or no node at all). ``require_all``: the pod has constraints of its own or the profile's
    defaults are not System."""
    if not nodes or not constraints:
        return None
    ignored: set[str] = set()
    domains: list[dict[str, int]] = [{} for _ in constraints]
    for node in feasible:
        if require_all and not has_all_keys(node.labels, constraints):
            ignored.add(node.name)
            continue
        for i, c in enumerate(constraints):
            if c.topology_key != HOSTNAME:
                domains[i].setdefault(node.labels.get(c.topology_key, ""), 0)
    sizes = [len(feasible) - len(ignored) if c.topology_key == HOSTNAME else len(domains[i])
             for i, c in enumerate(constraints)]
    weights = tuple(go_log(float(size + 2)) for size in sizes)
    memos: list[dict[int, bool]] = [{} for _ in constraints]
    affinity_memo: dict[str, bool] = {}
    for node in nodes:
        if require_all and not has_all_keys(node.labels, constraints):
            continue
        for i, c in enumerate(constraints):
            value = node.labels.get(c.topology_key, "")
            if c.topology_key == HOSTNAME or value not in domains[i] or not included(c, pod, node, affinity_memo):
                continue
            domains[i][value] += pods.count(node.name, c.selector, namespace, memos[i])
    raw: dict[str, int] = {}
    for node in feasible:
        if node.name in ignored:
            raw[node.name] = 0
            continue
        total = 0.0
        for i, c in enumerate(constraints):
            here = node.labels.get(c.topology_key)
            if here is None:
                continue
            count = (pods.count(node.name, c.selector, namespace, memos[i]) if c.topology_key == HOSTNAME
                     else domains[i][here])
            total += float(count) * weights[i] + float(c.max_skew - 1)
        raw[node.name] = go_round(total)
    return SpreadScores(raw, _normalize(raw, ignored), frozenset(ignored), weights)


def _normalize(raw: Mapping[str, int], ignored: set[str]) -> dict[str, int]:
    counted = [s for name, s in raw.items() if name not in ignored]
    low, high = min(counted, default=0), max(counted, default=0)
    out: dict[str, int] = {}
    for name, score in raw.items():
        if name in ignored:
            out[name] = 0
        elif high == 0:
            out[name] = _MAX_NODE_SCORE
        else:
            out[name] = _MAX_NODE_SCORE * (high + low - score) // high  # all terms >= 0: Go's / truncates alike
    return out
