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
* the balance without the pod depends only on the nodes and their bound pods, so it is kept until a node
  changes (``NodeStore.version``, ``alloc_version``) and serves every pod of the same resource set in
  between; after a few bound pod changes (``request_version``, :meth:`NodeStore.rows_changed_since`) only
  the changed rows are worked out again;
* in the usual case (every balance 50..100: non-negative amounts, positive allocatables) the ranking takes
  :func:`bounded_balanced_scores`, the same steps in float64 work buffers on the store's float64 copy of
  the requested amounts (``NodeStore.act_req_f``, kept in step with every bound pod change), with nothing
  converted to int64 and a range the ranking's sort keys need not scan for.
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
# First elements of the keys this module gives ``NodeStore.derived`` (the other users' keys are non-negative)
_WITHOUT_POD_KEY = -1
_EXACT_LIMIT = 2**53  # every whole number up to this is a float64
_DERIVED_LIMIT = 64  # as scores.alloc_column: past this many entries the cache starts again
# Up to this many bound pod changes, the kept balance is worked out for the changed rows alone (about 16 µs
# for one row of 5,000) rather than for every row (about 50)
_FEW_CHANGED = 32
# A standard deviation of fractions in 0..1 is at most 0.5: int64((1 - std) * 100) is then 50..100
_LEAST_BALANCE, _MOST_BALANCE = 50, 100


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


def _variance(fractions: list[FloatRows]) -> FloatRows:
    """The population variance of three or more fractions per row, summed in Go's order."""
    total = fractions[0] + fractions[1]
    for f in fractions[2:]:
        total = total + f
    mean = total / float(len(fractions))
    acc = np.zeros(mean.size, np.float64)
    for f in fractions:
        deviation = f - mean
        acc = acc + deviation * deviation
    variance: FloatRows = acc / float(len(fractions))
    return variance


def _balance_everywhere(fractions: list[FloatRows], rows: int) -> Int64Array:
    """``int64((1 - std) * 100)`` per row when every row counts every resource."""
    if len(fractions) < 2:
        return np.full(rows, 100, np.int64)  # std 0
    two = len(fractions) == 2
    std = np.abs((fractions[0] - fractions[1]) / 2) if two else np.sqrt(_variance(fractions))
    result: Int64Array = ((1 - std) * 100.0).astype(np.int64)  # astype truncates toward zero, as Go's int64()
    return result


def _balance_everywhere_into(fractions: list[FloatRows], out: FloatRows) -> None:
    """``trunc((1 - std) * 100)`` per row into ``out`` as float64, the steps of :func:`_balance_everywhere`
    (``trunc`` is its ``astype`` while the value lies in int64's range)."""
    if len(fractions) < 2:
        out.fill(100.0)  # std 0
        return
    if len(fractions) == 2:
        np.subtract(fractions[0], fractions[1], out=out)
        out *= 0.5  # the same float64 as / 2
        np.abs(out, out=out)
    else:
        np.sqrt(_variance(fractions), out=out)
    np.subtract(1, out, out=out)
    out *= 100.0
    np.trunc(out, out=out)


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


class _WithoutPod:
    """The balance of every row without the pod, and (when every value is 50..100, the usual case) the float64
    ``150 - balance`` :func:`bounded_balanced_scores` adds, as of ``request_version``."""

    __slots__ = ("balance", "offset", "request_version")

    def __init__(self, balance: Int64Array, request_version: int) -> None:
        self.balance = balance
        self.request_version = request_version
        usual = balance.size == 0 or (int(balance.min()) >= _LEAST_BALANCE and int(balance.max()) <= _MOST_BALANCE)
        self.offset: FloatRows | None = (150 - balance).astype(np.float64) if usual else None

    def refresh(self, store: NodeStore, columns: list[int], changed: list[int]) -> bool:
        """Work out again the ``changed`` rows (the steps are per row, so the values are those of a whole new
        balance); False, changing nothing, when there is no offset to keep up to date."""
        if self.offset is None:
            return False
        rows = np.array(changed, np.int64)
        balance = _balance(store, [(col, 0) for col in columns], rows, rows.size)
        self.balance[rows] = balance
        values = balance.tolist()  # Python scalars: cheaper than numpy calls for a few rows
        if all(_LEAST_BALANCE <= value <= _MOST_BALANCE for value in values):
            for row, value in zip(changed, values, strict=True):
                self.offset[row] = 150 - value  # a small whole number, exact
        else:
            self.offset = None
        self.request_version = store.request_version
        return True


def _changed_rows(store: NodeStore, since: int) -> list[int] | None:
    """The rows whose bound pods changed after request_version ``since``, when they are few enough for a
    cache to update them alone; None: work out every row again."""
    changed = store.rows_changed_since(since)
    return None if changed is None or len(changed) > _FEW_CHANGED else changed


def _balance_without_pod(store: NodeStore, columns: list[int]) -> _WithoutPod:
    """The balance of every row as its bound pods leave it, kept until a node changes, and updated row by row
    when bound pods change."""
    key = (_WITHOUT_POD_KEY, store.version, store.alloc_version, store.size, *columns)
    hit = store.derived.get(key)
    if isinstance(hit, _WithoutPod):
        if hit.request_version == store.request_version:
            return hit
        changed = _changed_rows(store, hit.request_version)
        if changed is not None and hit.refresh(store, columns, changed):
            return hit
    # Only the latest balance per resource set is kept: otherwise every node event would add an entry, and
    # the full cache would be cleared with Fit's allocatable columns in it.
    for stale in [k for k in store.derived if k[0] == _WITHOUT_POD_KEY and k[4:] == key[4:]]:
        del store.derived[stale]
    if len(store.derived) > _DERIVED_LIMIT:
        store.derived.clear()
    without = _WithoutPod(_balance(store, [(col, 0) for col in columns], None, store.size), store.request_version)
    store.derived[key] = without
    return without


def _amounts(store: NodeStore, args: BalancedArgs, pod_actual: Mapping[str, int]) -> list[tuple[int, int]] | None:
    """(column, the pod's request) of each resource counted, or None when PreScore skips the pod (it
    requests none of the configured resources) and the plugin adds nothing."""
    if all(pod_actual.get(r.name, 0) == 0 for r in args.resources):
        return None
    amounts: list[tuple[int, int]] = []
    for spec in args.resources:
        request = pod_actual.get(spec.name, 0)
        column = store.resource_index.get(spec.name)
        if column is None or (request == 0 and is_scalar_resource(spec.name)):
            continue
        if spec.name not in _DIRECT and not is_scalar_resource(spec.name):
            continue
        amounts.append((column, request))
    return amounts


def skips_pod(args: BalancedArgs, pod_actual: Mapping[str, int]) -> bool:
    """Whether PreScore skips the pod: it requests none of the configured resources."""
    return all(pod_actual.get(r.name, 0) == 0 for r in args.resources)


def balanced_scores(store: NodeStore, args: BalancedArgs, pod_actual: Mapping[str, int],
                    rows: Int64Array | None = None) -> Int64Array | None:
    """BalancedAllocation's 0..100 score per row (``pod_actual``: the pod's actual requests), or None when
    PreScore skips the pod (it requests none of the configured resources) and the plugin adds nothing.
    ``rows`` limits the work to those row numbers (the result then follows their order); None means every
    row of the store."""
    amounts = _amounts(store, args, pod_actual)
    if amounts is None:
        return None
    count = store.size if rows is None else rows.size
    b_with = _balance(store, amounts, rows, count)
    if rows is None:
        b_without = _balance_without_pod(store, [col for col, _ in amounts]).balance
    else:
        b_without = _balance(store, [(col, 0) for col, _ in amounts], rows, count)
    diff = 50 + b_with - b_without
    if diff.size and int(diff.min()) < 0:  # Go's division truncates toward zero, numpy's floors
        half: Int64Array = np.where(diff < 0, -((-diff) // 2), diff // 2)
        return 50 + half
    result: Int64Array = 50 + diff // 2
    return result


def _bounded_fractions(store: NodeStore, amounts: list[tuple[int, int]]) -> list[FloatRows] | None:
    """:func:`_fraction` of every row in the store's work buffers 6, 7, ..., for the usual case: every row
    counts every resource (no zero allocatable), and every amount with the pod lies in 0 .. 2**53 (the store's
    ``act_peak``, with no negative amount ever), where float64's sum of the store's float64 copy of the
    amounts (``act_req_f``, exact there) and the request is the converted int64 sum. None otherwise."""
    if store.act_negative:
        return None
    n = store.size
    fractions: list[FloatRows] = []
    for i, (col, add) in enumerate(amounts):
        column = alloc_column(store, col)
        if not column.all_counted or not 0 <= add < _EXACT_LIMIT - store.act_peak[col]:
            return None
        f = store.work_rows(6 + i)
        np.add(store.act_req_f[col, :n], float(add), out=f)
        np.divide(f, column.safe_f, out=f)
        np.minimum(f, 1.0, out=f)
        fractions.append(f)
    return fractions


def bounded_balanced_scores(store: NodeStore, args: BalancedArgs, pod_actual: Mapping[str, int]) -> FloatRows | None:
    """:func:`balanced_scores` for every row as float64 whole numbers in the store's work buffer 5, when
    every row's balance with and without the pod is 50..100 (so the score is too); None otherwise (the
    caller then asks :func:`balanced_scores`). The pod must not be one PreScore skips (:func:`skips_pod`).

    That is the usual case: every fraction lies in 0..1 (non-negative amounts, positive allocatables), where
    the standard deviation is at most 0.5. In that range ``trunc`` in float64 is Go's ``int64()``, and
    ``50 + (50 + b_with - b_without) / 2``, whose dividend is non-negative, is
    ``floor((b_with + (150 - b_without)) * 0.5)``: every step is on small whole numbers, exact in float64."""
    amounts = _amounts(store, args, pod_actual)
    if amounts is None:
        return None
    without = _balance_without_pod(store, [col for col, _ in amounts])
    if without.offset is None:
        return None
    fractions = _bounded_fractions(store, amounts)
    if fractions is None:
        return None
    out = store.work_rows(5)
    _balance_everywhere_into(fractions, out)
    if out.size and float(out.min()) < _LEAST_BALANCE:
        return None
    out += without.offset
    out *= 0.5  # the same float64 as / 2: both round the same exact half
    np.floor(out, out=out)
    return out
