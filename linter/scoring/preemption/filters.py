"""Filtering one node for the preemptor, with the status codes preemption cares about.

Built on :func:`linter.scoring.feasibility.check_node`. The first rejecting filter decides the
code (reference/preemption.md §3): NodeUnschedulable, NodeName, TaintToleration and NodeAffinity
are UnschedulableAndUnresolvable; NodePorts is plain Unschedulable (evicting the holder frees the
port); NodeResourcesFit is UnschedulableAndUnresolvable when some request exceeds the node's
*allocatable* (removing pods cannot help), otherwise plain Unschedulable (also ``Too many pods``).
The node's used ports are passed as Go's ``NodeInfo.UsedPorts`` set holds them (see
:mod:`linter.scoring.hostports`): by default the union over the present pods.
Nominated pods of priority >= the preemptor's count as present, and the filters run a second time
without them when they passed with them (``RunFilterPluginsWithNominatedPods``, §9).
PodTopologySpread's Filter (when :class:`FilterSetup` carries its PreFilter state) follows the modelled
filters: the node's bound pods missing from the present ones are taken off its counts (RemovePod) and the
present ones that are not bound there are added (AddPod); a skew failure is Unschedulable, a missing
topology label UnschedulableAndUnresolvable. InterPodAffinity's Filter (when its PreFilter state is given)
follows in the same way: anti-affinity either way is Unschedulable, unmet affinity UnschedulableAndUnresolvable.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from linter.scoring.feasibility import DEFAULT_FILTERS, check_node
from linter.scoring.hostports import HostPort, used_ports
from linter.scoring.nominated import counts_for, used_ports_with
from linter.scoring.podaffinity import AddedPod, FilterState, filter_node, pod_terms, update_pods
from linter.scoring.requests import node_allocatable
from linter.scoring.spread import SpreadFilter, SpreadNode, label_set

from .pods import PodFacts

__all__ = ["SUCCESS", "UNRESOLVABLE", "UNSCHEDULABLE", "AffinitySetup", "FilterSetup", "NodeState", "SpreadSetup",
           "Status", "node_state"]

UNSCHEDULABLE = "Unschedulable"
UNRESOLVABLE = "UnschedulableAndUnresolvable"
_INSUFFICIENT = "Insufficient "


@dataclass(frozen=True)
class Status:
    """A filter verdict: ``code`` None = the node passes."""

    code: str | None
    reasons: tuple[str, ...] = ()
    plugin: str | None = None

    @property
    def ok(self) -> bool:
        return self.code is None


SUCCESS = Status(None)


@dataclass(frozen=True)
class SpreadSetup:
    """PodTopologySpread's PreFilter state for the preemptor, the nodes by name and the preemptor's labels."""

    state: SpreadFilter
    nodes: Mapping[str, SpreadNode]
    own_labels: Mapping[str, str]

    def status(self, node: NodeState, present: Sequence[PodFacts]) -> Status:
        here = self.nodes.get(node.name)
        if here is None:
            return SUCCESS
        removed, added = _moved(node, present)
        found = self.state.check(here, self.own_labels, [(p.namespace, label_set(p.labels)) for p in added],
                                 [(p.namespace, label_set(p.labels)) for p in removed])
        return SUCCESS if found is None else Status(found[0], (found[1],), "PodTopologySpread")


def _moved(node: NodeState, present: Sequence[PodFacts]) -> tuple[list[PodFacts], list[PodFacts]]:
    """(the node's bound pods missing from ``present``: RemovePod; the present pods not bound there: AddPod)."""
    bound = {p.key for p in node.pods}
    shown = {p.key for p in present}
    return [p for p in node.pods if p.key not in shown], [p for p in present if p.key not in bound]


def _as_added(pod: PodFacts) -> AddedPod:
    spec = pod.pod.get("spec")
    affinity = spec.get("affinity") if isinstance(spec, Mapping) else None
    return pod.namespace, pod.labels, pod_terms(pod.namespace, affinity)


@dataclass(frozen=True)
class AffinitySetup:
    """InterPodAffinity's PreFilter state for the preemptor and the nodes' labels by node name."""

    state: FilterState
    node_labels: Mapping[str, Mapping[str, str]]
    parsed: dict[str, AddedPod] = field(default_factory=dict, compare=False)  # pods' terms by pod key

    def _added(self, pod: PodFacts) -> AddedPod:
        found = self.parsed.get(pod.key)
        if found is None:
            found = self.parsed[pod.key] = _as_added(pod)
        return found

    def status(self, node: NodeState, present: Sequence[PodFacts]) -> Status:
        labels = self.node_labels.get(node.name)
        if labels is None:
            return SUCCESS
        removed, added = _moved(node, present)
        state = self.state
        if removed or added:
            state = update_pods(state, labels, [self._added(p) for p in added], [self._added(p) for p in removed])
        found = filter_node(state, labels)
        return SUCCESS if found is None else Status(found[0], (found[1],), "InterPodAffinity")


@dataclass(frozen=True)
class FilterSetup:
    """The profile's filter chain and NodeResourcesFit's ignored resources; ``spread`` and ``affinity``:
    PodTopologySpread's and InterPodAffinity's state when their Filter acts on the pod."""

    filters: tuple[str, ...] = DEFAULT_FILTERS
    ignored_resources: tuple[str, ...] = ()
    ignored_resource_groups: tuple[str, ...] = ()
    spread: SpreadSetup | None = None
    affinity: AffinitySetup | None = None


@dataclass
class NodeState:
    """One node and the pods the scheduler's cache holds on it (bound, not Succeeded/Failed)."""

    name: str
    node: Mapping[str, Any]
    allocatable: Mapping[str, int]
    pods: list[PodFacts] = field(default_factory=list)


def node_state(node: Mapping[str, Any]) -> NodeState:
    meta = node.get("metadata") if isinstance(node.get("metadata"), Mapping) else {}
    status = node.get("status") if isinstance(node.get("status"), Mapping) else {}
    assert isinstance(meta, Mapping) and isinstance(status, Mapping)
    name = str(meta.get("name") or "")
    raw = status.get("allocatable")
    return NodeState(name, node, node_allocatable(raw if isinstance(raw, Mapping) else {}, f"node {name}: "
                                                  "status.allocatable"))


def _sum(pods: Iterable[PodFacts]) -> tuple[dict[str, int], int]:
    total: dict[str, int] = {}
    count = 0
    for pod in pods:
        count += 1
        for name, value in pod.request.items():
            total[name] = total.get(name, 0) + value
    return total, count


def run_filters(preemptor: PodFacts, setup: FilterSetup, node: NodeState, present: Sequence[PodFacts],
                ports: Collection[HostPort] | None = None) -> Status:
    """The filter chain once, with ``present`` as the node's pods and ``ports`` as its used ports (None: the
    present pods' host ports)."""
    requested, count = _sum(present)
    if ports is None:
        ports = used_ports(p.ports for p in present)
    verdict = check_node(
        preemptor.pod,
        node.node,
        pod_request=preemptor.request,
        pod_count=count,
        node_requested=requested,
        node_allocatable=node.allocatable,
        ignored_resources=setup.ignored_resources,
        ignored_resource_groups=setup.ignored_resource_groups,
        filters=setup.filters,
        used_ports=ports,
        pod_ports=preemptor.ports,
    )
    if verdict.feasible:
        status = SUCCESS if setup.spread is None else setup.spread.status(node, present)
        if status.ok and setup.affinity is not None:  # InterPodAffinity's Filter follows PodTopologySpread's
            status = setup.affinity.status(node, present)
        return status
    if verdict.plugin == "NodePorts":
        return Status(UNSCHEDULABLE, verdict.reasons, verdict.plugin)
    code = UNRESOLVABLE
    if verdict.plugin == "NodeResourcesFit":
        too_big = any(
            r.startswith(_INSUFFICIENT)
            and preemptor.request.get(r[len(_INSUFFICIENT):], 0) > node.allocatable.get(r[len(_INSUFFICIENT):], 0)
            for r in verdict.reasons
        )
        code = UNRESOLVABLE if too_big else UNSCHEDULABLE
    return Status(code, verdict.reasons, verdict.plugin)


def filter_with_nominated(
    preemptor: PodFacts, setup: FilterSetup, node: NodeState, present: Sequence[PodFacts],
    nominated: Sequence[PodFacts], ports: Collection[HostPort] | None = None,
) -> Status:
    """Filters with the node's nominated pods of priority >= the preemptor's, then (if any) without.
    ``ports``: the node's used ports without the nominated pods (None: the present pods' host ports)."""
    me = (preemptor.namespace, preemptor.name)
    extra = [p for p in nominated if counts_for(p.priority, (p.namespace, p.name), preemptor.priority, me)]
    if ports is None:
        ports = used_ports(p.ports for p in present)
    if not extra:
        return run_filters(preemptor, setup, node, present, ports)
    status = run_filters(preemptor, setup, node, [*present, *extra], used_ports_with(ports, (p.ports for p in extra)))
    if not status.ok:
        return status
    return run_filters(preemptor, setup, node, present, ports)
