"""InterPodAffinity's PreScore, Score and NormalizeScore (kube-scheduler 1.36).

PreScore sums weights per topology pair ``(key, value of that key on a bound pod's node)``, for each
bound pod whose node has the key:

* the pending pod's preferred podAffinity terms the bound pod matches: ``+weight``; its preferred
  podAntiAffinity terms: ``-weight`` (their namespaceSelector resolved against the Namespaces first);
* the bound pod's required podAffinity terms the pending pod matches: ``+hardPodAffinityWeight`` (when
  above 0); its preferred podAffinity terms: ``+weight``; its preferred podAntiAffinity terms:
  ``-weight`` (namespaceSelector matched against the labels of the pending pod's Namespace).

PreScore returns Skip (the plugin scores nothing) when ``ignorePreferredTermsOfExistingPods`` is set and
the pending pod has no preferred terms, or when no bound pod added anything. A node's raw score is the
sum, over the keys summed, of the entry for the node's value of that key. NormalizeScore maps raw scores
onto 0..100 over the scored nodes: ``int64(100 * (float64(s - min) / float64(max - min)))``, 0
everywhere when all are equal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .cluster import BoundPods
from .terms import AffinityTerm, PodTerms, WeightedTerm

__all__ = ["ScoreState", "normalize", "prescore", "raw_score"]

MAX_NODE_SCORE = 100

# topology key -> value -> summed weight
TopologyScore = dict[str, dict[str, int]]


@dataclass(frozen=True)
class ScoreState:
    """``topology`` is None when PreScore returned Skip."""

    topology: TopologyScore | None
    needs_namespaces: bool = False


def _spread(topology: TopologyScore, key: str, pods_by_node: Mapping[int, int], weight: int,
            nodes: Sequence[Mapping[str, str]]) -> bool:
    added = False
    for node, n in pods_by_node.items():
        value = nodes[node].get(key)
        if value is not None:
            by_value = topology.setdefault(key, {})
            by_value[value] = by_value.get(value, 0) + weight * n
            added = True
    return added


def _incoming(topology: TopologyScore, terms: Sequence[WeightedTerm], sign: int, pods: BoundPods) -> bool:
    added = False
    for group in pods.label_groups.values():
        for wt in terms:
            if wt.term.matches(group.namespace, group.labels, {}):
                added = _spread(topology, wt.term.topology_key, group.pods_by_node, sign * wt.weight,
                                pods.node_labels) or added
    return added


def _existing(topology: TopologyScore, namespace: str, labels: Mapping[str, str],
              namespace_labels: Mapping[str, str], hard_weight: int, pods: BoundPods) -> tuple[bool, bool]:
    added = by_label = False
    for group in pods.term_groups.values():
        t = group.terms
        weighted: list[tuple[AffinityTerm, int]] = []
        if hard_weight > 0:
            weighted += [(term, hard_weight) for term in t.required_affinity]
        weighted += [(w.term, w.weight) for w in t.preferred_affinity]
        weighted += [(w.term, -w.weight) for w in t.preferred_anti_affinity]
        for term, weight in weighted:
            by_label = by_label or term.selects_namespaces_by_label
            if term.matches(namespace, labels, namespace_labels):
                added = _spread(topology, term.topology_key, group.pods_by_node, weight, pods.node_labels) or added
    return added, by_label


def prescore(namespace: str, labels: Mapping[str, str], terms: PodTerms, pods: BoundPods,
             namespaces: Mapping[str, Mapping[str, str]] | None, *, hard_pod_affinity_weight: int,
             ignore_preferred_terms_of_existing_pods: bool) -> ScoreState:
    """PreScore for a pending pod; ``namespaces`` as for :func:`~.filtering.prefilter`."""
    if ignore_preferred_terms_of_existing_pods and not terms.has_preferred:
        return ScoreState(None)
    known = namespaces or {}
    own = terms.preferred_affinity + terms.preferred_anti_affinity
    needs = namespaces is None and any(w.term.selects_namespaces_by_label for w in own)
    pref = tuple(WeightedTerm(w.term.merged(known), w.weight) for w in terms.preferred_affinity)
    anti = tuple(WeightedTerm(w.term.merged(known), w.weight) for w in terms.preferred_anti_affinity)
    topology: TopologyScore = {}
    added = _incoming(topology, pref, 1, pods)
    added = _incoming(topology, anti, -1, pods) or added
    existing_added, by_label = _existing(topology, namespace, labels, known.get(namespace, {}),
                                         hard_pod_affinity_weight, pods)
    needs = needs or (namespaces is None and by_label)
    return ScoreState(topology if added or existing_added else None, needs)


def raw_score(topology: TopologyScore, node_labels: Mapping[str, str]) -> int:
    """Score: the summed weights of the node's value of each key."""
    total = 0
    for key, by_value in topology.items():
        value = node_labels.get(key)
        if value is not None:
            total += by_value.get(value, 0)
    return total


def normalize(raw: Sequence[int]) -> list[int]:
    """NormalizeScore over the scored nodes' raw scores (float64 as Go computes it, truncated)."""
    if not raw:
        return []
    low, high = min(raw), max(raw)
    diff = high - low
    if diff <= 0:
        return [0] * len(raw)
    return [int(float(MAX_NODE_SCORE) * (float(s - low) / float(diff))) for s in raw]
