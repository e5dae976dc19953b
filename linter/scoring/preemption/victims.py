"""Victims on one node (``SelectVictimsOnNode``, reference/preemption.md §4).

Remove every pod of strictly lower priority, check that the preemptor fits, then put the pods
back most important first -- PDB-violating ones before the others -- keeping each pod whose
return still lets the preemptor fit. Greedy by importance, not the smallest set.

The node's used host ports follow Go's set (``NodeInfo.UsedPorts``): taking a pod off deletes its
entries, also those another pod on the node holds too, and a pod put back and taken off again
deletes them once more.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from linter.scoring.hostports import HostPort, used_ports

from .filters import UNRESOLVABLE, FilterSetup, NodeState, Status, filter_with_nominated
from .pdb import Budget, split_by_violation
from .pods import PodFacts

__all__ = ["NO_VICTIMS", "NodeVictims", "importance_key", "select_victims", "unordered_ties", "victims_in_order"]

NO_VICTIMS = "No preemption victims found for incoming pod"
_NOW = datetime.max  # a missing startTime is "now": later than every recorded start


def importance_key(pod: PodFacts) -> tuple[int, datetime, str]:
    """``MoreImportantPod`` as a sort key: higher priority, then earlier start; the name only
    orders pods the scheduler leaves unordered (see :func:`unordered_ties`)."""
    return (-pod.priority, pod.start if pod.start is not None else _NOW, pod.key)


def unordered_ties(pods: Sequence[PodFacts]) -> list[tuple[str, ...]]:
    """Groups of pods with equal priority and equal (or missing) start times: Go orders them randomly."""
    groups: dict[tuple[int, datetime], list[PodFacts]] = {}
    for pod in pods:
        priority, start, _ = importance_key(pod)
        groups.setdefault((priority, start), []).append(pod)
    return [tuple(p.key for p in group) for group in groups.values() if len(group) > 1]


def _anti_affinity(pod: PodFacts) -> str:
    spec = pod.pod.get("spec")
    affinity = spec.get("affinity") if isinstance(spec, Mapping) else None
    anti = affinity.get("podAntiAffinity") if isinstance(affinity, Mapping) else None
    return json.dumps(anti, sort_keys=True, default=str)


def _order_matters(group: tuple[str, ...], victims: Sequence[PodFacts], potential: Sequence[PodFacts],
                   setup: FilterSetup) -> bool:
    """A tie changes the answer unless its pods are interchangeable and shared one fate. PodTopologySpread
    and InterPodAffinity count pods by namespace, and InterPodAffinity by their own anti-affinity too."""
    members = [p for p in potential if p.key in group]
    evicted = {v.key for v in victims}
    fates = {p.key in evicted for p in members}
    by_namespace = setup.spread is not None or setup.affinity is not None
    shapes = {(tuple(sorted(p.request.items())), tuple(sorted(p.labels.items())), by_namespace and p.namespace,
               setup.affinity is not None and _anti_affinity(p)) for p in members}
    return len(fates) > 1 or len(shapes) > 1


@dataclass(frozen=True)
class NodeVictims:
    """A node where preemption helps: its victims (most important first) and PDB violation count."""

    node: str
    victims: tuple[PodFacts, ...]
    violations: int
    violated_pdbs: dict[str, list[str]] = field(default_factory=dict)  # victim key -> PDBs it violates
    reprieved: tuple[PodFacts, ...] = ()
    potential: int = 0
    unordered: tuple[tuple[str, ...], ...] = ()  # equal-importance groups that touched the result


def select_victims(
    preemptor: PodFacts, setup: FilterSetup, node: NodeState, nominated: Sequence[PodFacts],
    budgets: Sequence[Budget],
) -> NodeVictims | Status:
    """The node's candidate, or the status it fails the dry run with (equally important pods by name)."""
    potential = sorted((p for p in node.pods if p.priority < preemptor.priority), key=importance_key)
    if not potential:
        return Status(UNRESOLVABLE, (NO_VICTIMS,))
    kept = [p for p in node.pods if p.priority >= preemptor.priority]
    status = filter_with_nominated(preemptor, setup, node, kept, nominated, _ports_without(node, potential))
    if not status.ok:
        return status
    result = victims_in_order(preemptor, setup, node, nominated, budgets, potential)
    ties = tuple(t for t in unordered_ties(potential) if _order_matters(t, result.victims, potential, setup))
    return NodeVictims(result.node, result.victims, result.violations, result.violated_pdbs, result.reprieved,
                       result.potential, ties)


def _ports_without(node: NodeState, removed: Sequence[PodFacts]) -> set[HostPort]:
    """The node's used ports once ``removed`` are taken off (Go's set: their entries go, whoever else holds them)."""
    ports = used_ports(p.ports for p in node.pods)
    for pod in removed:
        ports.difference_update(pod.ports)
    return ports


def victims_in_order(
    preemptor: PodFacts, setup: FilterSetup, node: NodeState, nominated: Sequence[PodFacts],
    budgets: Sequence[Budget], potential: Sequence[PodFacts],
) -> NodeVictims:
    """The greedy reprieve with the potential victims in the given order (one Go's sort may produce),
    once the preemptor is known to fit without them."""
    kept = [p for p in node.pods if p.priority >= preemptor.priority]
    ports = _ports_without(node, potential)
    violating, fine, why = split_by_violation(potential, budgets)
    victims: list[PodFacts] = []
    reprieved: list[PodFacts] = []
    violations = 0
    for group, is_violating in ((violating, True), (fine, False)):
        for pod in group:
            kept.append(pod)
            with_pod = ports | set(pod.ports)
            if filter_with_nominated(preemptor, setup, node, kept, nominated, with_pod).ok:
                reprieved.append(pod)
                ports = with_pod
                continue
            kept.pop()
            ports = with_pod - set(pod.ports)
            victims.append(pod)
            violations += is_violating
    victims.sort(key=importance_key)
    return NodeVictims(
        node=node.name,
        victims=tuple(victims),
        violations=violations,
        violated_pdbs={v.key: why[v.key] for v in victims if v.key in why},
        reprieved=tuple(reprieved),
        potential=len(potential),
    )
