"""Pods nominated to a node count there while kube-scheduler filters it (reference/preemption.md §9).

``RunFilterPluginsWithNominatedPods`` first adds to a copy of the node every pending pod nominated
to it (``status.nominatedNodeName``, as the scheduler's nominator tracks it) whose priority is
greater than or equal to the filtered pod's, other than the pod itself (``addGENominatedPods``).
When the filters pass with them and at least one was added, they run once more without them; both
must pass, and the first failing run gives the node's reasons. Of the modelled filters NodePorts and
NodeResourcesFit read a node's pods: the nominated pods add their host ports to the node's used ports,
and their actual requests and one pod each to the count. Scoring never adds them.

The nominator holds only pods the running scheduler is responsible for: its informer handlers queue an
unscheduled pod (and so nominate it from ``status.nominatedNodeName``) only when ``responsibleForPod``,
i.e. the pod's ``spec.schedulerName`` is one of the scheduler's profile names. A pod nominated by
another scheduler (Volcano, a second kube-scheduler) therefore reserves nothing and is never among the
nominations cleared on a preemption's chosen node (§8.3). The API server defaults an empty
``schedulerName`` to ``default-scheduler``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from linter.model import DEFAULT_SCHEDULER_NAME
from linter.scoring.feasibility import DEFAULT_FILTERS, Feasibility, check_node
from linter.scoring.hostports import HostPort, host_ports
from linter.scoring.nodes import TERMINAL_PHASES
from linter.scoring.requests import actual_request
from linter.scoring.resize import placed_pod

__all__ = ["DEFAULT_SCHEDULER_NAMES", "Nominee", "check_node_with_nominated", "counts_for", "labels_of",
           "nominated_node_of",
           "nominee_of", "pod_affinity_of", "pod_key", "pod_priority", "scheduler_name_of", "used_ports_with"]

# the profile names of kube-scheduler run without a config file
DEFAULT_SCHEDULER_NAMES = frozenset({DEFAULT_SCHEDULER_NAME})


def nominated_node_of(pod: Mapping[str, Any]) -> str:
    """The node the nominator holds ``pod`` for: its ``status.nominatedNodeName`` while it is not bound
    and not Succeeded/Failed; "" otherwise."""
    spec, status = pod.get("spec"), pod.get("status")
    if not isinstance(status, Mapping) or (isinstance(spec, Mapping) and spec.get("nodeName")):
        return ""
    nominated = status.get("nominatedNodeName")
    if not isinstance(nominated, str) or status.get("phase") in TERMINAL_PHASES:
        return ""
    return nominated


def labels_of(pod: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The pod's labels as (key, value) pairs, in their order."""
    meta = pod.get("metadata")
    labels = meta.get("labels") if isinstance(meta, Mapping) else None
    return tuple((str(k), str(v)) for k, v in labels.items()) if isinstance(labels, Mapping) else ()


def pod_affinity_of(pod: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The pod's ``spec.affinity`` when it holds podAffinity or podAntiAffinity, else None."""
    spec = pod.get("spec")
    affinity = spec.get("affinity") if isinstance(spec, Mapping) else None
    if not isinstance(affinity, Mapping) or (affinity.get("podAffinity") is None
                                              and affinity.get("podAntiAffinity") is None):
        return None
    return affinity


def pod_key(pod: Mapping[str, Any]) -> tuple[str, str]:
    """(namespace, name); a missing namespace is "default"."""
    meta = pod.get("metadata")
    meta = meta if isinstance(meta, Mapping) else {}
    return (str(meta.get("namespace") or "default"), str(meta.get("name") or ""))


def scheduler_name_of(pod: Mapping[str, Any]) -> str:
    """``spec.schedulerName``; missing or empty is ``default-scheduler``, as the API server defaults it."""
    spec = pod.get("spec")
    name = spec.get("schedulerName") if isinstance(spec, Mapping) else None
    return name if isinstance(name, str) and name else DEFAULT_SCHEDULER_NAME


def pod_priority(pod: Mapping[str, Any]) -> int:
    """``spec.priority`` as stored (``PodPriority``: missing = 0)."""
    spec = pod.get("spec")
    value = spec.get("priority") if isinstance(spec, Mapping) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


@dataclass(frozen=True)
class Nominee:
    """A pending pod nominated to ``node``, with what filtering reads of it."""

    key: tuple[str, str]
    node: str
    priority: int
    request: Mapping[str, int]  # actual requests (no 100m/200Mi defaults)
    scheduler: str  # spec.schedulerName (defaulted): counted only by a scheduler with that profile
    ports: tuple[HostPort, ...] = ()  # its host ports (NodePorts)
    labels: tuple[tuple[str, str], ...] = ()  # its labels (PodTopologySpread counts it in its node's domain)
    # its spec.affinity when it has pod (anti-)affinity terms (InterPodAffinity's AddPod counts them)
    affinity: Mapping[str, Any] | None = field(default=None, hash=False)


def nominee_of(pod: Mapping[str, Any]) -> Nominee | None:
    """The pod as a nominated pod, or None when it is not a pending pod with a nomination (whether a
    scheduler's nominator holds it depends on ``scheduler``). Raises QuantityError on a bad request
    quantity, as the scoring model does."""
    node = nominated_node_of(pod)
    if not node:
        return None
    # the nominator's pods are added to a node as placed pods (NodeInfo.AddPodInfo)
    return Nominee(pod_key(pod), node, pod_priority(pod), actual_request(placed_pod(pod)), scheduler_name_of(pod),
                   host_ports(pod), labels_of(pod), pod_affinity_of(pod))


def counts_for(nominee_priority: int, nominee_key: tuple[str, str], priority: int, key: tuple[str, str]) -> bool:
    """Whether a pod nominated to a node counts there when the pod ``key`` of ``priority`` is filtered:
    priority >= the filtered pod's, and not the filtered pod itself (matched by namespace and name)."""
    return nominee_priority >= priority and nominee_key != key


def _total(requests: Iterable[Mapping[str, int]], base: Mapping[str, int]) -> dict[str, int]:
    total = dict(base)
    for request in requests:
        for name, value in request.items():
            total[name] = total.get(name, 0) + value
    return total


def check_node_with_nominated(
    pod: Mapping[str, Any],
    node: Mapping[str, Any],
    *,
    pod_request: Mapping[str, int],
    pod_count: int,
    node_requested: Mapping[str, int],
    node_allocatable: Mapping[str, int],
    nominated: Sequence[Mapping[str, int]],
    ignored_resources: Sequence[str] = (),
    ignored_resource_groups: Sequence[str] = (),
    filters: Sequence[str] = DEFAULT_FILTERS,
    used_ports: Collection[HostPort] = frozenset(),
    nominated_ports: Sequence[Sequence[HostPort]] = (),
) -> Feasibility:
    """:func:`~linter.scoring.feasibility.check_node` as ``RunFilterPluginsWithNominatedPods`` runs it;
    ``nominated`` holds the actual requests of the nominated pods that count (see :func:`counts_for`),
    ``nominated_ports`` their host ports, which join the node's ``used_ports`` in the first run."""
    pod_ports = host_ports(pod)

    def run(extra: Sequence[Mapping[str, int]], ports: Collection[HostPort]) -> Feasibility:
        return check_node(pod, node, pod_request=pod_request, pod_count=pod_count + len(extra),
                          node_requested=_total(extra, node_requested), node_allocatable=node_allocatable,
                          ignored_resources=ignored_resources, ignored_resource_groups=ignored_resource_groups,
                          filters=filters, used_ports=ports, pod_ports=pod_ports)

    if not nominated:
        return run((), used_ports)
    with_them = run(nominated, used_ports_with(used_ports, nominated_ports))
    return with_them if not with_them.feasible else run((), used_ports)


def used_ports_with(used: Collection[HostPort], extra: Iterable[Sequence[HostPort]]) -> Collection[HostPort]:
    """``used`` with more pods' host ports added (a new set only when there are some)."""
    more = [p for ports in extra for p in ports]
    return {*used, *more} if more else used
