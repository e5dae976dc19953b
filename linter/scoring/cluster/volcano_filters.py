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

:func:`short_of_idle` gives the rows ``prioritizeNodes`` ranks second: the task fits their FutureIdle only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from linter.model import VolcanoPredicateArgs
from linter.scoring import feasibility
from linter.scoring.cluster.filters import NOT_A_NODE, FilterCache, Reasons, affinity_failure, taint_failures
from linter.scoring.cluster.ports import PortUse
from linter.scoring.cluster.store import BoolArray, Int64Array, NodeStore
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


_WORK_SLOT = 10  # a scratch row array of the store's no other ranking step uses


def _resources(store: NodeStore, task: Mapping[str, float], reasons: Reasons) -> None:
    """``LessEqualWithResourcesName(FutureIdle)`` on the store's ``vc_future``. Go's ``l < r || |l-r| < 0.1`` is
    ``l - r < 0.1``: for finite amounts ``l < r`` exactly when ``l - r < 0``, and ``|l - r|`` is ``l - r``
    otherwise."""
    n = store.size
    work = store.work_rows(_WORK_SLOT)
    for name in resource_order(task):
        want = task.get(name, 0.0)
        col = store.resource_index.get(name)
        if col is None:  # no node has it and no pod uses it: nothing is free anywhere
            work.fill(want)
        else:
            np.subtract(want, store.vc_future[col, :n], out=work)
        fits = np.less(work, MIN_RESOURCE)  # a new array: Reasons keeps it
        if not fits.all():
            reasons.reject(np.logical_not(fits, out=fits), f"Insufficient {name}")


def short_of_idle(store: NodeStore, task: Mapping[str, float], feasible: Int64Array) -> Int64Array:
    """The ``feasible`` rows whose Idle (FutureIdle without the Releasing pods' room) the task does not fit, as
    ``Resource.LessEqual(n.Idle, Zero)`` decides. Only a row with a Releasing pod can be one: elsewhere Idle
    is FutureIdle, which the task fits."""
    if store.releasing_pods == 0:
        return np.zeros(0, np.int64)
    rows = feasible[store.releasing_count[feasible] > 0]
    if rows.size == 0:
        return rows
    fits = np.ones(rows.size, np.bool_)
    for name in resource_order(task):
        want = task.get(name, 0.0)
        col = store.resource_index.get(name)
        if col is None:
            fits &= want < MIN_RESOURCE  # nothing is idle anywhere
        else:
            fits &= want - store.vc_idle[col, rows] < MIN_RESOURCE
    return rows[~fits]


def _predicates(store: NodeStore, cache: FilterCache, pod: Mapping[str, Any], predicates: VolcanoPredicateArgs,
                reasons: Reasons, ports: PortUse | None) -> None:
    n = store.size
    found: list[tuple[BoolArray, str]] = []
    # MaxTaskNum <= len(pods): MaxTaskNum is int(Value()) of the allocatable pods, which is kube-scheduler's
    # allocatable pods the store keeps pods_full against (0 without one)
    full = store.pods_full[:n]
    if np.count_nonzero(full):
        found.append((full.copy(), REASON_POD_NUMBER))  # a copy: the store may change before it is read
    # rows a stable filter rejected: the later filters do not run there (None: no row yet)
    rejected: BoolArray | None = None

    def add(rows: BoolArray, text: str, stable: bool = True) -> None:
        nonlocal rejected
        failing = rows if rejected is None else rows & ~rejected
        found.append((failing, text))
        if stable:
            rejected = failing if rejected is None else rejected | failing  # never changed in place

    cordoned = store.unschedulable[:n]
    if np.count_nonzero(cordoned):
        text = feasibility.node_unschedulable(pod, {"spec": {"unschedulable": True}})
        if text is not None:
            add(cordoned.copy(), text)  # a copy: the store may change before the reasons are read
    if predicates.node_affinity:
        def still_open() -> BoolArray:
            return reasons.feasible if rejected is None else reasons.feasible & ~rejected

        hit = affinity_failure(store, cache, pod, still_open)
        if hit is not None:
            add(*hit)
    if predicates.taint_toleration:
        for rows, text in taint_failures(store, cache, pod):
            add(rows, text)
    if predicates.node_ports and ports is not None:
        wanted = host_ports(pod)
        conflicts = ports.failing_rows(store, wanted, None) if wanted else None
        if conflicts is not None:
            add(conflicts, REASON_NODE_PORTS, stable=False)
    for rows, text in found:
        reasons.reject(rows, text, _PREDICATES)
