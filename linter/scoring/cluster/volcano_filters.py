"""Volcano's allocate-action feasibility over every node row at once, with Volcano's reasons per node.

The same steps as the scalar model (:mod:`linter.scoring.volcano_feasibility`), as column arithmetic and the
cached label and taint filters of :mod:`linter.scoring.cluster.filters`:

1. NodeAffinity's PreFilter conflict (``predicates`` called with NodeAffinity on) rejects every row.
2. The resource check against FutureIdle (``vc_alloc - vc_used + vc_releasing``; a row whose allocatable
   names no scalar keeps only the Releasing pods' scalars): each failing row counts once, under the first
   short name (cpu, memory, then the task's scalars by name).
3. With ``predicates`` called, the rows that pass count under each status ``Predicate`` gives them: the
   pod-number check, then the first of NodeUnschedulable, NodeAffinity, TaintToleration that fails (the
   others are not run), else NodePorts. These texts form one group of :class:`Reasons`, so a node counts
   under each of its reasons, as Volcano's ``FitErrors`` histogram counts it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from linter.model import VolcanoPredicateArgs
from linter.scoring import feasibility
from linter.scoring.cluster.filters import NOT_A_NODE, FilterCache, Reasons, affinity_failure, taint_failures
from linter.scoring.cluster.ports import PortUse
from linter.scoring.cluster.store import BoolArray, NodeStore
from linter.scoring.hostports import REASON_NODE_PORTS, host_ports
from linter.scoring.volcano_feasibility import (
    MIN_RESOURCE,
    REASON_AFFINITY_CONFLICT,
    REASON_POD_NUMBER,
    affinity_conflict,
    resource_order,
)

_PREDICATES = "predicates"  # the group of the predicates plugin's statuses: a node counts under each


def run_volcano_filters(
    store: NodeStore,
    cache: FilterCache,
    pod: Mapping[str, Any],
    task: Mapping[str, float],
    predicates: VolcanoPredicateArgs | None,
    *,
    not_nodes: BoolArray | None = None,
    ports: PortUse | None = None,
) -> Reasons:
    """Each row's reasons (see the module docstring); ``task``: the pod's ``volcano_request``; ``not_nodes``:
    rows that are no node, rejected first as :data:`NOT_A_NODE`; ``ports``: the bound pods' host ports
    (None: NodePorts is not run)."""
    cache.trim()
    reasons = Reasons(store.size)
    if not_nodes is not None:
        reasons.reject(not_nodes, NOT_A_NODE)
    if affinity_conflict(pod, predicates):
        reasons.reject(np.ones(store.size, np.bool_), REASON_AFFINITY_CONFLICT)
        return reasons
    _resources(store, task, reasons)
    if predicates is not None:
        _predicates(store, cache, pod, predicates, reasons, ports)
    return reasons


def _resources(store: NodeStore, task: Mapping[str, float], reasons: Reasons) -> None:
    """``LessEqualWithResourcesName(FutureIdle)``: a row fails when ``want >= free + 0.1`` or so."""
    n = store.size
    for name in resource_order(task):
        want = task.get(name, 0.0)
        col = store.resource_index.get(name)
        if col is None:  # no node has it and no pod uses it: free is 0 everywhere
            free = np.zeros(n, np.float64)
        else:
            free = store.vc_alloc[col, :n] - store.vc_used[col, :n]
            if name not in ("cpu", "memory"):
                free = np.where(store.vc_scalars[:n], free, 0.0)
            free += store.vc_releasing[col, :n]
        failing = ~((want < free) | (np.abs(want - free) < MIN_RESOURCE))
        if np.count_nonzero(failing):
            reasons.reject(failing, f"Insufficient {name}")


def _predicates(store: NodeStore, cache: FilterCache, pod: Mapping[str, Any], predicates: VolcanoPredicateArgs,
                reasons: Reasons, ports: PortUse | None) -> None:
    n = store.size
    found: list[tuple[BoolArray, str]] = []
    col = store.resource_index.get("pods")
    max_tasks = store.vc_alloc[col, :n].astype(np.int64) if col is not None else np.zeros(n, np.int64)
    full = max_tasks <= store.pod_count[:n]
    if np.count_nonzero(full):
        found.append((full, REASON_POD_NUMBER))
    rejected = np.zeros(n, np.bool_)  # rows a stable filter rejected: the later filters do not run there
    cordoned = store.unschedulable[:n]
    if np.count_nonzero(cordoned):
        text = feasibility.node_unschedulable(pod, {"spec": {"unschedulable": True}})
        if text is not None:
            found.append((cordoned.copy(), text))  # a copy: the store may change before the reasons are read
            rejected |= cordoned
    if predicates.node_affinity:
        hit = affinity_failure(store, cache, pod, reasons.feasible & ~rejected)
        if hit is not None:
            failing = hit[0] & ~rejected
            found.append((failing, hit[1]))
            rejected |= failing
    if predicates.taint_toleration:
        for rows, text in taint_failures(store, cache, pod):
            failing = rows & ~rejected
            found.append((failing, text))
            rejected |= failing
    if predicates.node_ports and ports is not None:
        wanted = host_ports(pod)
        conflicts = ports.failing_rows(store, wanted, None) if wanted else None
        if conflicts is not None:
            found.append((conflicts & ~rejected, REASON_NODE_PORTS))
    for rows, text in found:
        reasons.reject(rows, text, _PREDICATES)
