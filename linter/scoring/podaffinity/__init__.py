"""kube-scheduler 1.36's InterPodAffinity plugin: Filter (required terms, both ways) and Score (preferred
terms both ways, bound pods' required affinity terms x ``hardPodAffinityWeight``). Pure, no I/O.

:mod:`.terms` parses a pod's terms, :mod:`.cluster` groups the bound pods, :mod:`.filtering` holds
PreFilter/Filter and :mod:`.scoring` PreScore/Score/NormalizeScore. docs/scoring.md describes the
behaviour for users.
"""

from .cluster import BoundPods
from .filtering import (
    AddedPod,
    FilterState,
    PreFilterOutcome,
    add_pods,
    filter_node,
    filter_node_with_nominated,
    prefilter,
    update_pods,
)
from .scoring import ScoreState, normalize, prescore, raw_score
from .terms import AffinityTerm, PodTerms, WeightedTerm, fold_label_keys, pod_terms

__all__ = [
    "AddedPod",
    "AffinityTerm",
    "BoundPods",
    "FilterState",
    "PodTerms",
    "PreFilterOutcome",
    "ScoreState",
    "WeightedTerm",
    "add_pods",
    "filter_node",
    "filter_node_with_nominated",
    "fold_label_keys",
    "normalize",
    "pod_terms",
    "prefilter",
    "prescore",
    "raw_score",
    "update_pods",
]
