"""Which nodes Volcano's allocate action finds a pending task fits on, with Volcano's reason texts (ed72c7c).

For one task against a static cluster (no Pipelined task, no node sharding, no hyperNodes), in order:

1. ``Session.PrePredicateFn``: with the ``predicates`` plugin called and its NodeAffinity on, NodeAffinity's
   PreFilter fails when the required terms pin the pod to node names that intersect to nothing. Every node
   then gets the plain error :data:`REASON_AFFINITY_CONFLICT` and nothing else runs. (The names it pins
   the pod to are not used: the NodeAffinity filter rejects the other nodes itself.)
2. ``Action.predicate``: ``task.InitResreq.LessEqualWithResourcesName(node.FutureIdle(), Zero)``. Each
   amount passes when ``l < r`` or ``|l - r| < 0.1`` (``minResource``), in Volcano's units; an amount the
   node lacks is 0. FutureIdle is Idle + Releasing: allocatable minus what every non-terminal pod on the
   node requests, given back for the Releasing ones (Running or Pending with a ``deletionTimestamp``).
   A failing node gets one reason, ``Insufficient <first short name>``: cpu, then memory, then the task's
   scalar resources (``pods`` among them) in Go's map order, which is random; here they are taken by name
   and every short name is kept in :attr:`VolcanoVerdict.insufficient`.
3. The ``predicates`` plugin (``PredicatesPlugin.Predicate``), when called: the pod-number check
   (``MaxTaskNum <= len(pods)``, :data:`REASON_POD_NUMBER`, not final), then NodeUnschedulable,
   NodeAffinity and TaintToleration (each UnschedulableAndUnresolvable: the first failure ends the
   check), then NodePorts (Unschedulable). Every status found is one reason of the node, in that order.

Reasons of other plugins' predicate functions and of the filters this tool does not model (InterPodAffinity,
NodeVolumeLimits, VolumeZone, PodTopologySpread, VolumeBinding, DynamicResources) are not produced.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from linter.model import VolcanoPredicateArgs
from linter.scoring.feasibility import (
    REASON_AFFINITY_CONFLICT as _K8S_AFFINITY_CONFLICT,
)
from linter.scoring.feasibility import (
    node_affinity,
    node_affinity_prefilter,
    node_unschedulable,
    taint_toleration,
)
from linter.scoring.hostports import REASON_NODE_PORTS, HostPort, host_ports, ports_conflict

__all__ = [
    "MIN_RESOURCE",
    "PLUGIN_PREDICATES",
    "PLUGIN_RESOURCE_CHECK",
    "REASON_AFFINITY_CONFLICT",
    "REASON_POD_NUMBER",
    "VolcanoVerdict",
    "affinity_conflict",
    "check_volcano_node",
    "fit_errors_message",
    "future_idle",
    "insufficient_resources",
    "is_releasing",
    "resource_order",
]

MIN_RESOURCE = 0.1  # api.minResource
REASON_POD_NUMBER = "node(s) pod number exceeded"  # api.NodePodNumberExceeded
# handleSkipPrePredicatePlugin's error for NodeAffinity's PreFilter status
REASON_AFFINITY_CONFLICT = f"plugin NodeAffinity pre-predicates failed {_K8S_AFFINITY_CONFLICT}"
PLUGIN_PREDICATES = "predicates"  # the Status.Plugin of the pod-number check
PLUGIN_RESOURCE_CHECK = "allocate"  # the allocate action's own check: its Status names no plugin
_FIRST = ("cpu", "memory")


def is_releasing(pod: Mapping[str, Any]) -> bool:
    """``getTaskStatus`` gives Releasing: phase Running or Pending with a ``deletionTimestamp``."""
    status, meta = pod.get("status"), pod.get("metadata")
    phase = status.get("phase") if isinstance(status, Mapping) else None
    deleting = isinstance(meta, Mapping) and meta.get("deletionTimestamp") is not None
    return deleting and phase in ("Running", "Pending")


def keeps_scalars(allocatable: Iterable[str]) -> bool:
    """Whether the node's Idle has a scalar map: ``api.NewResource`` makes one only for a scalar name in the
    allocatable. Without one, ``Resource.sub`` subtracts no pod's scalars, so FutureIdle's scalars are the
    Releasing pods' alone."""
    return any(name not in _FIRST for name in allocatable)


def future_idle(allocatable: Mapping[str, float], used: Mapping[str, float],
                releasing: Mapping[str, float]) -> dict[str, float]:
    """``NodeInfo.FutureIdle()`` (Pipelined is empty in a static cluster), Volcano units; ``used``: every
    counted pod's ``Resreq`` summed (``NodeInfo.Used``), ``releasing``: the Releasing pods' alone."""
    scalars = keeps_scalars(allocatable)
    out: dict[str, float] = {}
    for name in {*_FIRST, *allocatable, *used, *releasing}:
        idle = allocatable.get(name, 0.0) - used.get(name, 0.0) if scalars or name in _FIRST else 0.0
        out[name] = idle + releasing.get(name, 0.0)
    return out


def resource_order(task: Mapping[str, float]) -> list[str]:
    """The amounts the resource check compares, in the order reasons are named: cpu, memory, then the task's
    scalar names sorted (Go iterates a map here, so its order varies)."""
    return [*_FIRST, *sorted(n for n in task if n not in _FIRST)]


def _fits(left: float, right: float) -> bool:
    return left < right or abs(left - right) < MIN_RESOURCE


def insufficient_resources(task: Mapping[str, float], idle: Mapping[str, float]) -> list[str]:
    """The names ``LessEqualWithResourcesName`` reports short, in :func:`resource_order`."""
    return [n for n in resource_order(task) if not _fits(task.get(n, 0.0), idle.get(n, 0.0))]


def affinity_conflict(pod: Mapping[str, Any], predicates: VolcanoPredicateArgs | None) -> bool:
    """NodeAffinity's PreFilter fails the task on every node (step 1 of the module docstring)."""
    return predicates is not None and predicates.node_affinity and node_affinity_prefilter(pod) == frozenset()


@dataclass(frozen=True)
class VolcanoVerdict:
    feasible: bool
    plugin: str | None  # the first status's plugin (see docs/scoring.md); None when feasible
    reasons: tuple[str, ...]
    insufficient: tuple[str, ...] = ()  # every short resource; the reason names the first


_FEASIBLE = VolcanoVerdict(True, None, ())


def check_volcano_node(
    pod: Mapping[str, Any],
    node: Mapping[str, Any],
    *,
    task: Mapping[str, float],
    idle: Mapping[str, float],
    pod_count: int,
    max_task_num: int,
    predicates: VolcanoPredicateArgs | None,
    used_ports: Collection[HostPort] = frozenset(),
    pod_ports: Sequence[HostPort] | None = None,
) -> VolcanoVerdict:
    """The allocate action's verdict on one node (module docstring). ``task``: :func:`volcano_request` of the
    pod; ``idle``: the node's :func:`future_idle`; ``pod_count``: its non-terminal pods; ``max_task_num``: its
    allocatable ``pods``."""
    if affinity_conflict(pod, predicates):
        return VolcanoVerdict(False, "NodeAffinity", (REASON_AFFINITY_CONFLICT,))
    short = insufficient_resources(task, idle)
    if short:
        return VolcanoVerdict(False, PLUGIN_RESOURCE_CHECK, (f"Insufficient {short[0]}",), tuple(short))
    if predicates is None:
        return _FEASIBLE
    found: list[tuple[str, str]] = []
    if max_task_num <= pod_count:
        found.append((PLUGIN_PREDICATES, REASON_POD_NUMBER))
    stable = [("NodeUnschedulable", node_unschedulable)]
    if predicates.node_affinity:
        stable.append(("NodeAffinity", node_affinity))
    if predicates.taint_toleration:
        stable.append(("TaintToleration", taint_toleration))
    for plugin, check in stable:
        reason = check(pod, node)
        if reason is not None:
            found.append((plugin, reason))
            return VolcanoVerdict(False, found[0][0], tuple(r for _, r in found))
    if predicates.node_ports:
        wanted = host_ports(pod) if pod_ports is None else pod_ports
        if wanted and ports_conflict(wanted, used_ports):
            found.append(("NodePorts", REASON_NODE_PORTS))
    if not found:
        return _FEASIBLE
    return VolcanoVerdict(False, found[0][0], tuple(r for _, r in found))


def fit_errors_message(node_count: int, counts: Mapping[str, int]) -> str:
    """``FitErrors.Error()`` when no node fits: each node counts once under each of its reasons, and the
    ``"<count> <reason>"`` strings are sorted as strings."""
    histogram = sorted(f"{count} {reason}" for reason, count in counts.items())
    return f"0/{node_count} nodes are unavailable: {', '.join(histogram)}."
