"""NodeResourcesBalancedAllocation over every node row at once, for the ranking's total.

kube-scheduler places a pod on the node with the highest sum of its score plugins' weighted scores, and
BalancedAllocation is one of them in every default profile. So the webhook ranks (and names ``bestNode``)
by the same modelled total as ``binpack-lint explain``: NodeResourcesFit and BalancedAllocation after
their profile weights. The float64 steps are those of :func:`linter.scoring.balanced.balanced_allocation`,
in the same order per row (numpy's float64 division, subtraction and ``sqrt`` round as Python's do).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from linter.model import BalancedArgs
from linter.scoring.cluster.store import Int64Array, NodeStore
from linter.scoring.requests import is_scalar_resource

FloatRows = npt.NDArray[np.float64]
_DIRECT = ("cpu", "memory", "ephemeral-storage")


def _balance(fractions: list[tuple[npt.NDArray[np.bool_], FloatRows]], rows: int) -> Int64Array:
    """``int64((1 - std) * 100)`` per row over the resources counted on that row (``counted``, ``f``)."""
    count = np.zeros(rows, np.int64)
    total = np.zeros(rows, np.float64)
    first, second = np.zeros(rows, np.float64), np.zeros(rows, np.float64)
    for counted, f in fractions:
        total = np.where(counted, total + f, total)
        first = np.where(counted & (count == 0), f, first)
        second = np.where(counted & (count == 1), f, second)
        count = count + counted
    mean = total / np.maximum(count, 1).astype(np.float64)
    acc = np.zeros(rows, np.float64)
    for counted, f in fractions:
        acc = np.where(counted, acc + (f - mean) * (f - mean), acc)
    std = np.where(count == 2, np.abs((first - second) / 2),
                   np.where(count > 2, np.sqrt(acc / np.maximum(count, 1).astype(np.float64)), 0.0))
    result: Int64Array = np.trunc((1 - std) * 100.0).astype(np.int64)
    return result


def balanced_scores(store: NodeStore, args: BalancedArgs, pod_actual: Mapping[str, int]) -> Int64Array | None:
    """BalancedAllocation's 0..100 score per row (``pod_actual``: the pod's actual requests), or None when
    PreScore skips the pod (it requests none of the configured resources) and the plugin adds nothing."""
    if all(pod_actual.get(r.name, 0) == 0 for r in args.resources):
        return None
    rows = store.size
    with_pod: list[tuple[npt.NDArray[np.bool_], FloatRows]] = []
    without_pod: list[tuple[npt.NDArray[np.bool_], FloatRows]] = []
    for spec in args.resources:
        request = pod_actual.get(spec.name, 0)
        column = store.resource_index.get(spec.name)
        if column is None or (request == 0 and is_scalar_resource(spec.name)):
            continue
        if spec.name not in _DIRECT and not is_scalar_resource(spec.name):
            continue
        alloc = store.alloc[column, :rows]
        counted = alloc != 0
        divisor = np.where(counted, alloc, 1).astype(np.float64)
        already = store.act_req[column, :rows]
        with np.errstate(over="ignore"):
            requested = already + np.int64(request)  # Go's int64 sum, wrapping
        with_pod.append((counted, np.minimum(requested.astype(np.float64) / divisor, 1.0)))
        without_pod.append((counted, np.minimum(already.astype(np.float64) / divisor, 1.0)))
    b_with, b_without = _balance(with_pod, rows), _balance(without_pod, rows)
    diff = 50 + b_with - b_without
    half: Int64Array = np.where(diff < 0, -((-diff) // 2), diff // 2)  # Go's division truncates toward zero
    return 50 + half
