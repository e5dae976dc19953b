"""InterPodAffinity's PreFilter and Filter (kube-scheduler 1.36, pkg/scheduler/framework/plugins/interpodaffinity).

PreFilter counts, per topology pair ``(key, value)`` over every node of the snapshot:

* ``affinity``: bound pods matching *all* of the pending pod's required podAffinity terms, once per term
  whose key the pod's node has;
* ``anti_affinity``: bound pods matching each required podAntiAffinity term of the pending pod;
* ``existing_anti``: bound pods whose own required podAntiAffinity terms match the pending pod (their
  namespaceSelector is matched against the labels of the pending pod's Namespace).

The pending pod's terms first get their namespaceSelector resolved against the Namespaces (a ``{}``
selector stays "every namespace"). PreFilter fails with UnschedulableAndUnresolvable ``parsing pod: ...``
when a term of the pod does not convert, and returns Skip (Filter not run) when the pod has no required
terms and no bound pod's required anti-affinity matches it.

Filter, per node, in this order:

1. every affinity term's key must be on the node and its pair counted; otherwise the node passes only if
   nothing was counted for any pair and the pod matches all its own affinity terms (the first pod of a
   group that selects itself): UnschedulableAndUnresolvable "node(s) didn't match pod affinity rules";
2. an anti-affinity term whose pair on the node is counted: Unschedulable
   "node(s) didn't match pod anti-affinity rules";
3. a counted ``existing_anti`` pair among the node's labels: Unschedulable
   "node(s) didn't satisfy existing pods anti-affinity rules".

Pods nominated to a node are added to a copy of the counts while that node is filtered (the PreFilter
extensions' AddPod, :func:`add_pods`), and the Filter runs with and then without them
(:func:`filter_node_with_nominated`). Preemption's dry runs also take pods off (RemovePod,
:func:`update_pods`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from linter.gofmt import aggregate

from .cluster import BoundPods
from .terms import AffinityTerm, PodTerms

__all__ = [
    "AFFINITY_RULES",
    "ANTI_AFFINITY_RULES",
    "EXISTING_ANTI_AFFINITY_RULES",
    "AddedPod",
    "FilterState",
    "PreFilterOutcome",
    "add_pods",
    "filter_node",
    "filter_node_with_nominated",
    "prefilter",
    "update_pods",
]

AFFINITY_RULES = "node(s) didn't match pod affinity rules"
ANTI_AFFINITY_RULES = "node(s) didn't match pod anti-affinity rules"
EXISTING_ANTI_AFFINITY_RULES = "node(s) didn't satisfy existing pods anti-affinity rules"
UNSCHEDULABLE = "Unschedulable"
UNRESOLVABLE = "UnschedulableAndUnresolvable"

# topology key -> value on the node -> count
PairCounts = dict[str, dict[str, int]]


@dataclass(frozen=True)
class FilterState:
    affinity_terms: tuple[AffinityTerm, ...]
    anti_affinity_terms: tuple[AffinityTerm, ...]
    affinity: PairCounts
    anti_affinity: PairCounts
    existing_anti: PairCounts
    matches_own_affinity: bool
    # the pending pod's namespace, labels and its Namespace's labels: what AddPod matches a pod's terms with
    namespace: str = "default"
    labels: Mapping[str, str] = field(default_factory=dict)
    namespace_labels: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PreFilterOutcome:
    """``state`` when Filter runs; ``skip`` when PreFilter returned Skip; ``status`` (code, reason) when it failed.
    ``needs_namespaces``: a namespaceSelector was decided without the Namespaces (none were given)."""

    state: FilterState | None = None
    skip: bool = False
    status: tuple[str, str] | None = None
    needs_namespaces: bool = False


def _add(counts: PairCounts, key: str, value: str, n: int) -> None:
    """Add ``n`` (negative: RemovePod) to a pair; a pair down to 0 is dropped, as Go deletes it from its map
    (the Filter asks whether any affinity pair is counted at all)."""
    by_value = counts.setdefault(key, {})
    total = by_value.get(value, 0) + n
    if total:
        by_value[value] = total
        return
    by_value.pop(value, None)
    if not by_value:
        del counts[key]


def _count_incoming(state_terms: tuple[AffinityTerm, ...], anti_terms: tuple[AffinityTerm, ...],
                    pods: BoundPods) -> tuple[PairCounts, PairCounts]:
    affinity: PairCounts = {}
    anti: PairCounts = {}
    nodes = pods.node_labels
    for group in pods.label_groups.values():
        ns, labels = group.namespace, group.labels
        # the incoming pod's namespaceSelector is merged into its namespaces, hence no namespace labels
        if state_terms and all(t.matches(ns, labels, {}) for t in state_terms):
            for node, n in group.pods_by_node.items():
                node_labels = nodes[node]
                for t in state_terms:
                    value = node_labels.get(t.topology_key)
                    if value is not None:
                        _add(affinity, t.topology_key, value, n)
        for t in anti_terms:
            if t.matches(ns, labels, {}):
                for node, n in group.pods_by_node.items():
                    value = nodes[node].get(t.topology_key)
                    if value is not None:
                        _add(anti, t.topology_key, value, n)
    return affinity, anti


def _count_existing(namespace: str, labels: Mapping[str, str], namespace_labels: Mapping[str, str],
                    pods: BoundPods) -> tuple[PairCounts, bool]:
    counts: PairCounts = {}
    by_label = False
    nodes = pods.node_labels
    for group in pods.term_groups.values():
        for t in group.terms.required_anti_affinity:
            by_label = by_label or t.selects_namespaces_by_label
            if t.matches(namespace, labels, namespace_labels):
                for node, n in group.pods_by_node.items():
                    value = nodes[node].get(t.topology_key)
                    if value is not None:
                        _add(counts, t.topology_key, value, n)
    return counts, by_label


def prefilter(namespace: str, labels: Mapping[str, str], terms: PodTerms, pods: BoundPods,
              namespaces: Mapping[str, Mapping[str, str]] | None) -> PreFilterOutcome:
    """PreFilter for a pending pod (``namespace``, ``labels``, parsed ``terms``) over ``pods``.

    ``namespaces`` maps each Namespace name to its labels; None when they are not known (treated as no
    Namespaces, which is what kube-scheduler would see, and reported through ``needs_namespaces``)."""
    if terms.errors:
        return PreFilterOutcome(status=(UNRESOLVABLE, "parsing pod: " + aggregate(terms.errors)))
    known = namespaces or {}
    wanted = terms.required_affinity + terms.required_anti_affinity
    needs = namespaces is None and any(t.selects_namespaces_by_label for t in wanted)
    aff_terms = tuple(t.merged(known) for t in terms.required_affinity)
    anti_terms = tuple(t.merged(known) for t in terms.required_anti_affinity)
    ns_labels = known.get(namespace, {})
    existing, by_label = _count_existing(namespace, labels, ns_labels, pods)
    needs = needs or (namespaces is None and by_label)
    affinity, anti = _count_incoming(aff_terms, anti_terms, pods) if aff_terms or anti_terms else ({}, {})
    if not existing and not aff_terms and not anti_terms:
        return PreFilterOutcome(skip=True, needs_namespaces=needs)
    own = bool(aff_terms) and all(t.matches(namespace, labels, {}) for t in aff_terms)
    state = FilterState(aff_terms, anti_terms, affinity, anti, existing, own, namespace, labels, ns_labels)
    return PreFilterOutcome(state=state, needs_namespaces=needs)


# a pod added by AddPod: its namespace, labels and parsed terms
AddedPod = tuple[str, Mapping[str, str], PodTerms]


def _copy(counts: PairCounts) -> PairCounts:
    return {key: dict(by_value) for key, by_value in counts.items()}


def add_pods(state: FilterState, node_labels: Mapping[str, str], pods: Sequence[AddedPod]) -> FilterState:
    """The PreFilter extensions' ``AddPod`` (``updateWithPod``) for each of ``pods`` on the node with
    ``node_labels``: their required anti-affinity terms that match the pending pod, and the pending pod's
    required terms they match, count in that node's pairs."""
    return update_pods(state, node_labels, pods, ())


def update_pods(state: FilterState, node_labels: Mapping[str, str], added: Sequence[AddedPod],
                removed: Sequence[AddedPod]) -> FilterState:
    """``updateWithPod`` on the node with ``node_labels``: multiplier 1 for each of ``added`` (AddPod), -1
    for each of ``removed`` (RemovePod, preemption taking a pod off the node)."""
    affinity, anti, existing = _copy(state.affinity), _copy(state.anti_affinity), _copy(state.existing_anti)
    for pods, delta in ((added, 1), (removed, -1)):
        for namespace, labels, terms in pods:
            for t in terms.required_anti_affinity:
                value = node_labels.get(t.topology_key)
                if value is not None and t.matches(state.namespace, state.labels, state.namespace_labels):
                    _add(existing, t.topology_key, value, delta)
            if state.affinity_terms and all(t.matches(namespace, labels, {}) for t in state.affinity_terms):
                for t in state.affinity_terms:
                    value = node_labels.get(t.topology_key)
                    if value is not None:
                        _add(affinity, t.topology_key, value, delta)
            for t in state.anti_affinity_terms:
                value = node_labels.get(t.topology_key)
                if value is not None and t.matches(namespace, labels, {}):
                    _add(anti, t.topology_key, value, delta)
    return replace(state, affinity=affinity, anti_affinity=anti, existing_anti=existing)


def filter_node_with_nominated(state: FilterState, node_labels: Mapping[str, str],
                               nominated: Sequence[AddedPod]) -> tuple[str, str] | None:
    """Filter as ``RunFilterPluginsWithNominatedPods`` runs it: with the pods nominated to the node added
    (:func:`add_pods`), then, when that passes and some were added, without them. InterPodAffinity is the
    last filter explain computes and the ones before it only get stricter with pods added, so running the
    two passes for this plugin alone gives the framework's verdict."""
    if nominated:
        found = filter_node(add_pods(state, node_labels, nominated), node_labels)
        if found is not None:
            return found
    return filter_node(state, node_labels)


def filter_node(state: FilterState, node_labels: Mapping[str, str]) -> tuple[str, str] | None:
    """Filter on one node: None when it passes, else (code, reason)."""
    pods_exist = True
    for t in state.affinity_terms:
        value = node_labels.get(t.topology_key)
        if value is None:
            return UNRESOLVABLE, AFFINITY_RULES
        if state.affinity.get(t.topology_key, {}).get(value, 0) <= 0:
            pods_exist = False
    if not pods_exist and not (not state.affinity and state.matches_own_affinity):
        return UNRESOLVABLE, AFFINITY_RULES
    if state.anti_affinity:
        for t in state.anti_affinity_terms:
            value = node_labels.get(t.topology_key)
            if value is not None and state.anti_affinity.get(t.topology_key, {}).get(value, 0) > 0:
                return UNSCHEDULABLE, ANTI_AFFINITY_RULES
    for key, by_value in state.existing_anti.items():
        value = node_labels.get(key)
        if value is not None and by_value.get(value, 0) > 0:
            return UNSCHEDULABLE, EXISTING_ANTI_AFFINITY_RULES
    return None
