"""Explain's InterPodAffinity: the bound pods' terms read from STATE, the Filter in the filter chain and
the Score in the totals (:mod:`linter.scoring.podaffinity`).

A bound pod's namespace and ``metadata.labels`` come from the grouping PodTopologySpread counts too
(:class:`linter.scoring.boundpods.BoundPods`, filled by explain's readers for every counted pod); this module
reads only what InterPodAffinity alone needs: ``spec.affinity.podAffinity``/``podAntiAffinity`` of the bound
pods, and the Namespaces' labels (``kind: Namespace`` in STATE) for namespaceSelectors.

Per node: ``interPodAffinityRaw`` (the summed weights, every node) and ``interPodAffinityScore`` (0..100
over the feasible nodes, before the weight; feasible nodes only), both None when the profile does not
score with the plugin or its PreScore skips the pod. Per document: ``interPodAffinityWeight``,
``interPodAffinitySkipped`` (None when the plugin does not score) and ``interPodAffinityNeedsNamespaces``
(a namespaceSelector was decided without Namespace objects: STATE has none).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from linter.model import Profile
from linter.scoring.boundpods import BoundPods as LabelledPods
from linter.scoring.feasibility import Feasibility
from linter.scoring.labelselector import object_labels
from linter.scoring.nodes import NodeView
from linter.scoring.nominated import Nominee
from linter.scoring.podaffinity import (
    AddedPod,
    BoundPods,
    FilterState,
    PodTerms,
    filter_node_with_nominated,
    fold_label_keys,
    normalize,
    pod_terms,
    prefilter,
    prescore,
    raw_score,
)

__all__ = ["PLUGIN", "AffinityPods", "Outcome", "apply_filter", "score_fields",
           "wanted"]

Json = dict[str, Any]
PLUGIN = "InterPodAffinity"
_KINDS = ("podAffinity", "podAntiAffinity")


def _meta(pod: Mapping[str, Any]) -> Mapping[str, Any]:
    meta = pod.get("metadata")
    return meta if isinstance(meta, Mapping) else {}


def _pod_affinity(pod: Mapping[str, Any]) -> Mapping[str, Any] | None:
    spec = pod.get("spec")
    affinity = spec.get("affinity") if isinstance(spec, Mapping) else None
    if not isinstance(affinity, Mapping):
        return None
    kept = {k: affinity[k] for k in _KINDS if affinity.get(k) is not None}
    return kept or None


def _pending(pod: Mapping[str, Any]) -> tuple[str, dict[str, str], PodTerms]:
    """The pending pod's namespace, labels and terms, its matchLabelKeys folded in as the API server does at
    creation (a pod already created has them folded: folding twice adds the same requirements again)."""
    meta = _meta(pod)
    namespace = str(meta.get("namespace") or "default")
    labels = object_labels(pod)
    return namespace, labels, pod_terms(namespace, fold_label_keys(_pod_affinity(pod), labels))


@dataclass
class AffinityPods:
    """Bound pods with pod (anti-)affinity by (node name, namespace, affinity), counted while STATE streams."""

    terms: dict[tuple[str, str, str], int] = field(default_factory=dict)
    affinities: dict[str, Mapping[str, Any]] = field(default_factory=dict)

    def note(self, node: str, pod: Mapping[str, Any], namespace: object = None) -> None:
        """One bound (counted) pod on ``node``; its types were checked (fieldtypes.POD_AFFINITY_TYPES).
        ``namespace``: the pod's, when ``pod`` is a text shared by pods (fastyaml lifts the namespace out)."""
        meta = _meta(pod)
        ns = str((namespace if namespace is not None else meta.get("namespace")) or "default")
        spec = pod.get("spec")
        if type(spec) is dict and spec.get("affinity") is None:
            return  # the usual pod: no affinity at all
        affinity = _pod_affinity(pod)
        if affinity is not None:
            text = json.dumps(affinity, sort_keys=True)
            self.affinities.setdefault(text, affinity)
            tkey = (node, ns, text)
            self.terms[tkey] = self.terms.get(tkey, 0) + 1

    def extend(self, later: AffinityPods) -> None:
        for tkey, n in later.terms.items():
            self.terms[tkey] = self.terms.get(tkey, 0) + n
        for text, affinity in later.affinities.items():
            self.affinities.setdefault(text, affinity)

    def bound_pods(self, views: Sequence[NodeView], labelled: LabelledPods) -> BoundPods:
        """The model's view over ``views``: the label groups of ``labelled`` (every counted pod, terminating
        ones too) and the terms counted here; pods on a node that is not among the views are left out."""
        index = {view.name: i for i, view in enumerate(views)}
        out = BoundPods([object_labels(view.node) for view in views])
        for namespace, labels, by_node in labelled.groups():
            for node, n in by_node.items():
                i = index.get(node)
                if i is not None:
                    out.add_labels(i, namespace, dict(labels), n)
        for (node, namespace, text), n in self.terms.items():
            i = index.get(node)
            if i is not None:
                out.add_terms(i, namespace, self.affinities[text], n)
        return out


def wanted(profile: Profile) -> tuple[bool, int]:
    """(the profile runs the Filter, the Score weight or 0)."""
    runs_filter = profile.filter_plugins is None or PLUGIN in profile.filter_plugins
    return runs_filter, profile.score_plugin_weights.get(PLUGIN, 0)


@dataclass(frozen=True)
class Outcome:
    """What explain keeps of the plugin for one pod: whether its Filter acted (PreFilter did not skip) and
    whether a namespaceSelector lacked the Namespaces."""

    filtered: bool
    needs_namespaces: bool
    # PreFilter's state when it neither failed nor skipped, and the nodes' labels by name (for preemption)
    state: FilterState | None = None
    node_labels: Mapping[str, Mapping[str, str]] = field(default_factory=dict)


def _added(nominees: Sequence[Nominee]) -> list[AddedPod]:
    """The nominated pods as AddPod reads them: namespace, labels and parsed terms (a term that does not
    parse empties its list, as for a bound pod)."""
    return [(n.key[0], dict(n.labels), pod_terms(n.key[0], n.affinity)) for n in nominees]


def apply_filter(pod: Mapping[str, Any], views: Sequence[NodeView], verdicts: list[Feasibility],
                 pods: BoundPods, namespaces: Mapping[str, Mapping[str, str]] | None,
                 prefilter_rejects: Sequence[bool], nominated: Mapping[str, Sequence[Nominee]]) -> Outcome:
    """Run PreFilter and, on each node the earlier filters pass, Filter (it is the last modelled filter in
    kube-scheduler's order) with the pods ``nominated`` to the node (by node name, those that count);
    replaces the verdicts it changes. A PreFilter failure rejects every node whose verdict is not already an
    earlier PreFilter's (``prefilter_rejects``)."""
    namespace, labels, terms = _pending(pod)
    pre = prefilter(namespace, labels, terms, pods, namespaces)
    if pre.status is not None:
        for i, rejected in enumerate(prefilter_rejects):
            if not rejected:
                verdicts[i] = Feasibility(False, PLUGIN, (pre.status[1],))
        return Outcome(True, pre.needs_namespaces)
    if pre.state is None:
        return Outcome(False, pre.needs_namespaces)
    for i in range(len(views)):
        if verdicts[i].feasible:
            here = nominated.get(views[i].name, ())
            found = filter_node_with_nominated(pre.state, pods.node_labels[i], _added(here))
            if found is not None:
                verdicts[i] = Feasibility(False, PLUGIN, (found[1],))
    by_name = {view.name: pods.node_labels[i] for i, view in enumerate(views)}
    return Outcome(True, pre.needs_namespaces, pre.state, by_name)


def score_fields(profile: Profile, pod: Mapping[str, Any], pods: BoundPods | None,
                 namespaces: Mapping[str, Mapping[str, str]] | None, nodes: Sequence[Json]) -> Json:
    """Fill ``interPodAffinityRaw``/``Score`` of ``nodes`` (one per node of ``pods``, same order, with
    ``feasible`` and ``total``), add the weighted scores to the feasible nodes' totals and return the
    document's fields."""
    weight = wanted(profile)[1]
    state = None
    if weight and pods is not None:
        namespace, labels, terms = _pending(pod)
        state = prescore(namespace, labels, terms, pods, namespaces,
                         hard_pod_affinity_weight=profile.interpod_hard_affinity_weight,
                         ignore_preferred_terms_of_existing_pods=profile.interpod_ignore_existing_preferred)
    topology = state.topology if state is not None else None
    raw = [raw_score(topology, labels) for labels in pods.node_labels] if topology is not None and pods else None
    feasible = [i for i, node in enumerate(nodes) if node["feasible"]]
    scores = dict(zip(feasible, normalize([raw[i] for i in feasible]), strict=True)) if raw is not None else {}
    for i, node in enumerate(nodes):
        node["interPodAffinityRaw"] = raw[i] if raw is not None else None
        node["interPodAffinityScore"] = scores.get(i)
        if i in scores:
            node["total"] += scores[i] * weight
    return {
        "interPodAffinityWeight": weight or None,
        "interPodAffinitySkipped": topology is None if weight else None,
        "interPodAffinityNeedsNamespaces": bool(state is not None and state.needs_namespaces),
    }
