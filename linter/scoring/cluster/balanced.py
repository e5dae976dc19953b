"""NodeResourcesBalancedAllocation over many node rows at once, for the ranking's total.

kube-scheduler places a pod on the node with the highest sum of its score plugins' weighted scores, and
BalancedAllocation is one of them in every default profile. So the webhook ranks (and names ``bestNode``)
by the same modelled total as ``binpack-lint explain``: NodeResourcesFit and BalancedAllocation after
their profile weights. The float64 steps are those of :func:`linter.scoring.balanced.balanced_allocation`,
in the same order per row (numpy's float64 division, subtraction and ``sqrt`` round as Python's do).

This runs on every ranking, so it is kept short:
* the allocatable columns come as float64 from the cache NodeResourcesFit's scores keep
  (:func:`linter.scoring.cluster.scores.alloc_column`), and when every row has a resource (no zero to leave
  out, the usual case) the fractions need no masks and two resources need no mean;
* the balance without the pod depends only on the nodes and their bound pods, so it is kept until one of
  them changes (``NodeStore.version``, ``alloc_version``, ``request_version``) and serves every pod of the
  same resource set in between.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from linter.model import BalancedArgs
from linter.scoring.cluster.scores import alloc_column
from linter.scoring.cluster.store import Int64Array, NodeStore
from linter.scoring.requests import is_scalar_resource

FloatRows = npt.NDArray[np.float64]
BoolRows = npt.NDArray[np.bool_]
_DIRECT = ("cpu", "memory", "ephemeral-storage")
# First element of the keys this module gives ``NodeStore.derived`` (the other users' keys are non-negative)
_WITHOUT_POD_KEY = -1
_DERIVED_LIMIT = 64  # as scores.alloc_column: past this many entries the cache starts again


def _fraction(store: NodeStore, col: int, add: int, rows: Int64Array | None) -> tuple[BoolRows | None, FloatRows]:
    """``min((act_req + add) / alloc, 1)`` per row, and which rows count the resource (None: all do)."""
    column = alloc_column(store, col)
    amounts = store.act_req[col, : store.size]
    if rows is not None:
        amounts = amounts[rows]
    if add:
        with np.errstate(over="ignore"):
            amounts = amounts + np.int64(add)  # Go's int64 sum, wrapping
    # int64 / float64 divides in float64, as Go's float64(requested) / float64(allocatable)
    if column.all_counted:  # every allocatable is non-zero: safe_f is the column itself
        divisor = column.safe_f if rows is None else column.safe_f[rows]
        return None, np.minimum(amounts / divisor, 1.0)
    counted = column.counted if rows is None else column.counted[rows]
    alloc = store.alloc[col, : store.size] if rows is None else store.alloc[col, : store.size][rows]
    return counted, np.minimum(amounts / np.where(counted, alloc, 1), 1.0)


def _balance_everywhere(fractions: list[FloatRows], rows: int) -> Int64Array:
    """``int64((1 - std) * 100)`` per row when every row counts every resource."""
    if len(fractions) < 2:
        return np.full(rows, 100, np.int64)  # std 0
    if len(fractions) == 2:
        std = np.abs((fractions[0] - fractions[1]) / 2)
    else:
        total = fractions[0] + fractions[1]
        for f in fractions[2:]:
            total = total + f
        mean = total / float(len(fractions))
        acc = np.zeros(mean.size, np.float64)
        for f in fractions:
            deviation = f - mean
            acc = acc + deviation * deviation
        std = np.sqrt(acc / float(len(fractions)))
    result: Int64Array = ((1 - std) * 100.0).astype(np.int64)  # astype truncates toward zero, as Go's int64()
    return result


def _balance_masked(fractions: list[tuple[BoolRows, FloatRows]], rows: int) -> Int64Array:
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


def _balance(store: NodeStore, amounts: list[tuple[int, int]], rows: Int64Array | None, count: int) -> Int64Array:
    """The balance of the rows with ``add`` more of each ``(column, add)``."""
    fractions = [_fraction(store, col, add, rows) for col, add in amounts]
    if all(counted is None for counted, _ in fractions):
        return _balance_everywhere([f for _, f in fractions], count)
    everywhere = np.ones(count, np.bool_)
    return _balance_masked([(everywhere if c is None else c, f) for c, f in fractions], count)


def _balance_without_pod(store: NodeStore, columns: list[int]) -> Int64Array:
    """The balance of every row as its bound pods leave it, kept until a node or bound pod changes."""
    key = (_WITHOUT_POD_KEY, store.version, store.alloc_version, store.request_version, store.size, *columns)
    hit = store.derived.get(key)
    if isinstance(hit, np.ndarray):
        return hit
    # Only the latest balance per resource set is kept: otherwise every watch event would add an entry, and
    # the full cache would be cleared with Fit's allocatable columns in it.
    for stale in [k for k in store.derived if k[0] == _WITHOUT_POD_KEY and k[5:] == key[5:]]:
        del store.derived[stale]
    if len(store.derived) > _DERIVED_LIMIT:
        store.derived.clear()
    balance = _balance(store, [(col, 0) for col in columns], None, store.size)
    store.derived[key] = balance
    return balance


def balanced_scores(store: NodeStore, args: BalancedArgs, pod_actual: Mapping[str, int],
                    rows: Int64Array | None = None) -> Int64Array | None:
    """BalancedAllocation's 0..100 score per row (``pod_actual``: the pod's actual requests), or None when
    PreScore skips the pod (it requests none of the configured resources) and the plugin adds nothing.
    ``rows`` limits the work to those row numbers (the result then follows their order); None means every
    row of the store."""
    if all(pod_actual.get(r.name, 0) == 0 for r in args.resources):
        return None
    amounts: list[tuple[int, int]] = []  # (column, the pod's request) of the resources counted
    for spec in args.resources:
        request = pod_actual.get(spec.name, 0)
        column = store.resource_index.get(spec.name)
        if column is None or (request == 0 and is_scalar_resource(spec.name)):
            continue
        if spec.name not in _DIRECT and not is_scalar_resource(spec.name):
            continue
        amounts.append((column, request))
    count = store.size if rows is None else rows.size
    b_with = _balance(store, amounts, rows, count)
    if rows is None:
        b_without = _balance_without_pod(store, [col for col, _ in amounts])
    else:
        b_without = _balance(store, [(col, 0) for col, _ in amounts], rows, count)
    diff = 50 + b_with - b_without
    if diff.size and int(diff.min()) < 0:  # cannot happen (each b is 50..100), but Go's division truncates
        half: Int64Array = np.where(diff < 0, -((-diff) // 2), diff // 2)
        return 50 + half
    result: Int64Array = 50 + diff // 2
    return result
