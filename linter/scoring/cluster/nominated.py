"""The pods nominated to each node that kube-scheduler's filters count for one pod, for the vectorized
filters (the rule: :mod:`linter.scoring.nominated`; the pods: :attr:`PodTable.nominated`, which the
preemption twin reads too).

Few nodes have nominated pods, so their load is kept sparse: the rows, and per row the number of pods,
their summed actual requests and their host ports. A pod that no nominated pod counts for (the usual case: none in the
cluster, or none of its priority or higher) gets None after an O(1) check, and the filters then do
exactly what they do without nominations. Only pods whose ``schedulerName`` is one of the model's
profile names count (the scheduler's nominator holds no others).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from linter.scoring.cluster.podtable import PodTable
from linter.scoring.cluster.store import Int64Array, NodeStore
from linter.scoring.hostports import HostPort
from linter.scoring.nominated import DEFAULT_SCHEDULER_NAMES, counts_for, pod_key, pod_priority

__all__ = ["NominatedLoad", "nominated_load"]


@dataclass(frozen=True)
class NominatedLoad:
    """Per node row with counted nominated pods: how many, and their summed actual requests by name."""

    rows: Int64Array
    pods: Int64Array
    requests: Mapping[str, Int64Array]  # aligned with ``rows``; a name no such pod requests is absent
    ports: Mapping[int, tuple[HostPort, ...]] = field(default_factory=dict)  # by row: their host ports, if any


def nominated_load(
    store: NodeStore, table: PodTable, pod: Mapping[str, Any],
    scheduler_names: frozenset[str] = DEFAULT_SCHEDULER_NAMES,
) -> NominatedLoad | None:
    """The nominated pods that count for ``pod`` on the store's present nodes, under a scheduler whose
    profiles are ``scheduler_names``; None when there are none."""
    top = table.nominated_top_priority()
    if top is None:  # the usual case: no pod is nominated anywhere
        return None
    priority = pod_priority(pod)
    if top < priority:
        return None
    key = pod_key(pod)
    counts: dict[int, int] = {}
    ports: dict[int, tuple[HostPort, ...]] = {}
    sums: dict[str, dict[int, int]] = {}
    for nominee_key, nom in table.nominated.items():
        if nom.scheduler not in scheduler_names or not counts_for(nom.facts.priority, nominee_key, priority, key):
            continue
        row = store.row_of.get(nom.node)
        if row is None or row >= store.size or not store.present[row]:
            continue
        counts[row] = counts.get(row, 0) + 1
        if nom.facts.ports:
            ports[row] = ports.get(row, ()) + nom.facts.ports
        for name, value in nom.facts.request.items():
            per_row = sums.setdefault(name, {})
            per_row[row] = per_row.get(row, 0) + value
    if not counts:
        return None
    rows = sorted(counts)
    return NominatedLoad(
        np.array(rows, np.int64), np.array([counts[r] for r in rows], np.int64),
        {name: np.array([per_row.get(r, 0) for r in rows], np.int64) for name, per_row in sums.items()},
        ports,
    )
