"""Which nodes a spread constraint counts (``matchNodeInclusionPolicies``) and the node facts it reads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from linter.scoring.feasibility import node_affinity, taint_toleration
from linter.scoring.labelselector import object_labels

from .constraints import SpreadConstraint

__all__ = ["SpreadNode", "has_all_keys", "included"]


@dataclass(frozen=True)
class SpreadNode:
    name: str
    labels: Mapping[str, str]
    node: Mapping[str, Any]  # the Node object: its taints and labels for the inclusion policies

    @classmethod
    def of(cls, node: Mapping[str, Any]) -> SpreadNode:
        meta = node.get("metadata")
        name = meta.get("name") if isinstance(meta, Mapping) else None
        return cls(str(name or ""), object_labels(node), node)


def has_all_keys(labels: Mapping[str, str], constraints: Sequence[SpreadConstraint]) -> bool:
    """``nodeLabelsMatchSpreadConstraints``: the node has every constraint's topology key."""
    return all(c.topology_key in labels for c in constraints)


def included(constraint: SpreadConstraint, pod: Mapping[str, Any], node: SpreadNode,
             affinity_memo: dict[str, bool]) -> bool:
    """nodeAffinityPolicy Honor: the pod's nodeSelector and required node affinity match the node (parse
    errors: no match); nodeTaintsPolicy Honor: the pod tolerates the node's NoSchedule/NoExecute taints.
    ``affinity_memo`` caches the affinity verdict by node name (one memo per pod)."""
    if constraint.honor_node_affinity:
        ok = affinity_memo.get(node.name)
        if ok is None:
            ok = affinity_memo[node.name] = node_affinity(pod, node.node) is None
        if not ok:
            return False
    return not constraint.honor_node_taints or taint_toleration(pod, node.node) is None
