"""Explain's TaintToleration and NodeAffinity columns (:mod:`linter.scoring.preferences`).

Per node: ``taintTolerationRaw`` / ``nodeAffinityRaw`` (the plugin's score before normalising, every node)
and ``taintTolerationScore`` / ``nodeAffinityScore`` (normalised 0..100 over the feasible nodes, before the
weight; feasible nodes only). All four are None when the plugin does not score in the profile, and the
NodeAffinity ones also when its PreScore skips the pod. The weighted scores go into the node's ``total``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from linter.model import Profile
from linter.scoring.labelselector import object_labels
from linter.scoring.nodes import NodeView
from linter.scoring.preferences import (
    node_affinity_raw,
    normalize,
    prefer_no_schedule_tolerations,
    preferred_terms,
    untolerated_prefer_no_schedule,
)

__all__ = ["add_preference_scores"]

Json = dict[str, Any]


def _taints(view: NodeView) -> list[tuple[str, str, str]]:
    spec = view.node.get("spec")
    raw = spec.get("taints") if isinstance(spec, Mapping) else None
    return [(str(t.get("key") or ""), str(t.get("value") or ""), str(t.get("effect") or ""))
            for t in raw if isinstance(t, Mapping)] if isinstance(raw, list) else []


def _apply(nodes: Sequence[Json], raw: list[int] | None, reverse: bool, weight: int, prefix: str) -> None:
    """Normalise ``raw`` (one per node) over the feasible nodes and add the weighted score to their totals."""
    feasible = [i for i, node in enumerate(nodes) if node["feasible"]]
    scores = dict(zip(feasible, normalize([raw[i] for i in feasible], reverse), strict=True)) if raw else {}
    for i, node in enumerate(nodes):
        node[prefix + "Raw"] = raw[i] if raw is not None else None
        score = scores.get(i)
        node[prefix + "Score"] = score
        if score is not None:
            node["total"] += score * weight


def add_preference_scores(profile: Profile, pod: Mapping[str, Any], views: Sequence[NodeView],
                          nodes: Sequence[Json]) -> Json:
    """Fill the per-node fields of ``nodes`` (one per view, same order, with ``feasible`` and ``total``) and
    return the document-level ones: each plugin's weight (None when it does not score) and whether
    NodeAffinity skips the pod."""
    tt_weight, na_weight = profile.taint_toleration_weight, profile.node_affinity_weight
    tt_raw: list[int] | None = None
    if tt_weight:
        tolerations = prefer_no_schedule_tolerations(pod)
        tt_raw = [untolerated_prefer_no_schedule(tolerations, _taints(v)) for v in views]
    _apply(nodes, tt_raw, True, tt_weight, "taintToleration")
    terms = preferred_terms(pod, profile) if na_weight else None
    na_raw = [node_affinity_raw(terms, object_labels(v.node), v.name) for v in views] if terms is not None else None
    _apply(nodes, na_raw, False, na_weight, "nodeAffinity")
    return {
        "taintTolerationWeight": tt_weight or None,
        "nodeAffinityWeight": na_weight or None,
        "nodeAffinitySkipped": terms is None if na_weight else None,
    }
