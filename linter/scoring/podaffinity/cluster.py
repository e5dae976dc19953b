"""The bound pods InterPodAffinity reads, grouped so that a selector is matched once per group.

kube-scheduler walks every pod of every node; its results are sums per topology pair
``(topologyKey, value of that key on the pod's node)``. Pods with the same namespace and labels match
the same terms, and pods with the same namespace and affinity carry the same terms, so the model keeps:

* :class:`LabelGroup`: a namespace and label set with how many pods of it each node holds;
* :class:`TermGroup`: a namespace and parsed terms (:class:`~.terms.PodTerms`) with the same counts, for
  pods that have podAffinity or podAntiAffinity terms.

Nodes are indices into ``node_labels`` (snapshot order). A pod whose node is not in the snapshot is not
added: kube-scheduler's snapshot lists only NodeInfos that have a Node. Terminating pods (with a
``deletionTimestamp``) count: the scheduler cache keeps a pod until it is deleted and the plugin does
not look at the timestamp.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .terms import PodTerms, pod_terms

__all__ = ["BoundPods", "LabelGroup", "TermGroup"]


@dataclass
class LabelGroup:
    namespace: str
    labels: Mapping[str, str]
    pods_by_node: dict[int, int] = field(default_factory=dict)


@dataclass
class TermGroup:
    namespace: str
    terms: PodTerms
    pods_by_node: dict[int, int] = field(default_factory=dict)


def _affinity_key(affinity: Mapping[str, Any]) -> str | None:
    kinds = {k: affinity.get(k) for k in ("podAffinity", "podAntiAffinity") if affinity.get(k) is not None}
    return json.dumps(kinds, sort_keys=True, default=str) if kinds else None


@dataclass
class BoundPods:
    """Bound pods by label set and by affinity, over nodes ``node_labels[i]``."""

    node_labels: Sequence[Mapping[str, str]]
    label_groups: dict[tuple[str, tuple[tuple[str, str], ...]], LabelGroup] = field(default_factory=dict)
    term_groups: dict[tuple[str, str], TermGroup] = field(default_factory=dict)

    def add(self, node: int, namespace: str, labels: Mapping[str, str], affinity: object, count: int = 1) -> None:
        """One pod (or ``count`` alike) bound to node index ``node``; ``affinity`` is its ``spec.affinity``."""
        self.add_labels(node, namespace, labels, count)
        self.add_terms(node, namespace, affinity, count)

    def add_labels(self, node: int, namespace: str, labels: Mapping[str, str], count: int = 1) -> None:
        """``count`` pods with these labels on node index ``node`` (matched by the pending pod's terms)."""
        key = (namespace, tuple(sorted(labels.items())))
        group = self.label_groups.get(key)
        if group is None:
            group = self.label_groups[key] = LabelGroup(namespace, dict(labels))
        group.pods_by_node[node] = group.pods_by_node.get(node, 0) + count

    def add_terms(self, node: int, namespace: str, affinity: object, count: int = 1) -> None:
        """``count`` pods with this ``spec.affinity`` on node index ``node`` (their terms match the pending pod)."""
        if not isinstance(affinity, Mapping):
            return
        aff_key = _affinity_key(affinity)
        if aff_key is None:
            return
        tkey = (namespace, aff_key)
        tgroup = self.term_groups.get(tkey)
        if tgroup is None:
            tgroup = self.term_groups[tkey] = TermGroup(namespace, pod_terms(namespace, affinity))
        tgroup.pods_by_node[node] = tgroup.pods_by_node.get(node, 0) + count
