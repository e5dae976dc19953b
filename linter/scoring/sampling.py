"""How many feasible nodes a scheduler looks for before it stops filtering, and so how many it scores.

In a big cluster neither scheduler filters every node for a pod. kube-scheduler 1.36
(``numFeasibleNodesToFind`` in ``schedule_one.go``) walks the nodes from where its previous search
stopped and stops once it has found this many feasible nodes; only those are scored, and the best of them
is picked. Volcano's ``PredicateNodes`` (``CalculateNumOfFeasibleNodesToFind``) does the same with its
own command-line settings. The best node of *all* feasible nodes, which explain and the webhook rank,
is therefore the scheduler's pick only when it is among the ones found, which depends on the
scheduler's history and cannot be predicted.

kube-scheduler: fewer than 100 candidate nodes are all searched. Otherwise the percentage is the
profile's ``percentageOfNodesToScore`` when written, else the global one; 0 means adaptive,
``50 - nodes/125`` but at least 5; the count is ``nodes * percentage / 100`` (integer division), at least
100. A profile with no score plugin stops at the first feasible node, unless an extender filters or
scores. The candidates are the nodes
NodeAffinity's PreFilter leaves (a pod pinned to node names), else every node.

Volcano (at ed72c7c), with its defaults ``--minimum-feasible-nodes 100``,
``--percentage-nodes-to-find 0`` and ``--minimum-percentage-nodes-to-find 5`` (they are flags, not part
of the conf): up to 100 nodes are all searched, otherwise the same formula.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from linter.model import Profile
from linter.scoring.feasibility import NODE_AFFINITY_PREFILTER, node_affinity_prefilter

MIN_FEASIBLE_NODES_TO_FIND = 100
MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5
ADAPTIVE_BASE_PERCENTAGE = 50


def _adaptive(nodes: int, percentage: int) -> int:
    """The shared formula, in Go's int32 arithmetic (the counts involved never overflow it)."""
    if percentage <= 0:
        percentage = max(ADAPTIVE_BASE_PERCENTAGE - nodes // 125, MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND)
    return max(nodes * percentage // 100, MIN_FEASIBLE_NODES_TO_FIND)


def kube_scheduler_nodes_to_find(candidates: int, percentage: int, scores: bool = True) -> int:
    """kube-scheduler 1.36: feasible nodes to find among ``candidates`` nodes; ``percentage`` is the
    profile's effective ``percentageOfNodesToScore`` (0 = adaptive); ``scores``: some score plugin runs,
    or an extender filters or scores."""
    if not scores:
        return 1
    if candidates < MIN_FEASIBLE_NODES_TO_FIND:
        return candidates
    return _adaptive(candidates, percentage)


def profile_nodes_to_find(profile: Profile, pod: Mapping[str, Any], filters: Sequence[str], total_nodes: int,
                          is_node: Callable[[str], bool]) -> int:
    """kube-scheduler 1.36 under ``profile``: the candidates are the nodes NodeAffinity's PreFilter pins
    ``pod`` to (names for which ``is_node`` holds), else all ``total_nodes``."""
    pinned = node_affinity_prefilter(pod) if NODE_AFFINITY_PREFILTER in filters else None
    candidates = total_nodes if pinned is None else sum(1 for name in pinned if is_node(name))
    return kube_scheduler_nodes_to_find(candidates, profile.percentage_of_nodes_to_score,
                                        not profile.looks_for_one_node)


def volcano_nodes_to_find(candidates: int) -> int:
    """Volcano with its default flags: feasible nodes to find among ``candidates`` nodes."""
    if candidates <= MIN_FEASIBLE_NODES_TO_FIND:
        return candidates
    return _adaptive(candidates, 0)


def sampled_note(volcano: bool, nodes_to_find: int, feasible: int, best: str) -> str:
    """What explain and the webhook say when the scheduler scores only some of the feasible nodes;
    ``best`` names the node they call best."""
    who = "Volcano" if volcano else "kube-scheduler"
    return (f"{who} stops filtering once it has found {nodes_to_find} of the {feasible} feasible nodes, "
            f"searching from where its previous search stopped, and scores only those: {best} is its pick "
            f"only if it is among the {nodes_to_find} it finds")
