"""Columnar per-node storage behind :class:`linter.scoring.cluster.state.ClusterState`.

One row per node name, one column per resource name. Every per-node quantity the
filters and scorers read is a numpy array (int64 for kube-scheduler's int64 amounts, float64 for
Volcano's float64 ones), so ranking a pod touches whole columns instead of looping over nodes in Python:

* ``alloc``    node allocatable as kube-scheduler sees it (cpu millicores, others ``Value()``)
* ``vc_alloc`` node allocatable in Volcano units (cpu millicores, memory bytes, ``pods`` plain,
  everything else milli-units), float64 as Volcano's ``api.Resource`` holds it
* ``fit_req``  already-requested for NodeResourcesFit scoring (non-zero cpu/memory, actual others)
* ``act_req``  already-requested actual amounts (Fit filter, BalancedAllocation)
* ``vc_used``  Volcano ``used`` in Volcano units, float64 sums as Volcano's ``NodeInfo.Used`` adds them
* ``vc_releasing`` the part of ``vc_used`` of the pods Volcano counts as Releasing (``NodeInfo.Releasing``)
* ``vc_scalars`` whether the node's allocatable names a scalar resource, so that Volcano's ``Idle`` has a
  scalar map the pods' scalars are taken from (:func:`~linter.scoring.volcano_feasibility.keeps_scalars`)
* ``vc_idle`` Volcano's ``Idle``: ``vc_alloc - vc_used``, 0 for a scalar column of a row without ``vc_scalars``
* ``vc_future`` Volcano's ``FutureIdle``: ``vc_idle + vc_releasing``. Both are recomputed cell by cell from
  the columns they derive from whenever one of those changes, so they equal the whole-column expressions
  exactly
* ``pod_count`` non-terminal pods bound to the node
* ``pods_full`` whether ``pod_count`` has reached the node's allocatable ``pods`` (the Fit filter's
  "Too many pods"; 0 when the node has no ``pods`` allocatable), kept in step with both

Three more are kept in step with those so that ranking a pod makes fewer passes over the rows:
``fit_req100`` is ``fit_req * 100`` and ``fit_free100`` is ``(alloc - fit_req) * 100``, both as
float64 (the scorer reads them only while every value is small enough for that to be exact, see
``fit_peak``), ``act_free`` is ``alloc - act_req`` (the Fit filter's free amount) and ``act_req_f`` is
``act_req`` as float64 (BalancedAllocation's float64 path reads it while every amount is below 2**53, see
``act_peak``).
Rankings also borrow a few scratch row arrays from the store (:meth:`NodeStore.work_rows`,
:meth:`NodeStore.work_int32`, :meth:`NodeStore.work_index`) and read its row of zeros (:meth:`NodeStore.zero_rows`).

A row exists while its Node exists *or* pods are bound to that name, so pods may
arrive before their node and a node deleted and re-created finds its pods again.
Rows are kept dense (rows ``0 .. size-1`` are all in use; a released row is filled by
moving the last one into it), so every vectorized pass works on ``[:size]`` views with no
padding to mask. Labels are stored per label key as an int32
column of value ids (-1 = key absent), taints as an id into a table of distinct
taint lists; both keep the label and taint filters cheap for thousands of nodes.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from linter.goint import wrap_int64
from linter.scoring.cluster.images import NodeImages
from linter.scoring.volcano_feasibility import keeps_scalars

Int64Array = npt.NDArray[np.int64]
Int32Array = npt.NDArray[np.int32]
BoolArray = npt.NDArray[np.bool_]
FloatArray2D = npt.NDArray[np.float64]

# (resource column, fit_req amount, act_req amount, vc_used amount): one bound pod's share.
ContributionEntry = tuple[int, int, int, float]
Contribution = tuple[ContributionEntry, ...]
# (key, value, effect) in the node's own order: the first untolerated one is the reason text.
TaintList = tuple[tuple[str, str, str], ...]

_INITIAL_ROWS = 64
_INITIAL_COLUMNS = 8
# Requested-amount changes remembered for rows_changed_since: a cache further behind recomputes every row.
_CHANGE_LOG_LIMIT = 256


class NodeStore:
    """Rows of per-node numbers; see the module docstring for the meaning of each array."""

    def __init__(self) -> None:
        self.resource_index: dict[str, int] = {}
        self.resource_names: list[str] = []
        self.row_of: dict[str, int] = {}
        self.row_names: list[str | None] = [None] * _INITIAL_ROWS
        self.size = 0  # rows in use
        n, r = _INITIAL_ROWS, _INITIAL_COLUMNS
        self.alloc: Int64Array = np.zeros((r, n), np.int64)
        self.vc_alloc: FloatArray2D = np.zeros((r, n), np.float64)
        self.fit_req: Int64Array = np.zeros((r, n), np.int64)
        self.act_req: Int64Array = np.zeros((r, n), np.int64)
        self.vc_used: FloatArray2D = np.zeros((r, n), np.float64)
        self.vc_releasing: FloatArray2D = np.zeros((r, n), np.float64)
        self.vc_idle: FloatArray2D = np.zeros((r, n), np.float64)
        self.vc_future: FloatArray2D = np.zeros((r, n), np.float64)
        self.releasing_pods = 0  # pods counted in vc_releasing
        self.fit_req100: npt.NDArray[np.float64] = np.zeros((r, n), np.float64)
        self.fit_free100: npt.NDArray[np.float64] = np.zeros((r, n), np.float64)
        self.act_free: Int64Array = np.zeros((r, n), np.int64)
        self.act_req_f: npt.NDArray[np.float64] = np.zeros((r, n), np.float64)
        self.pod_count: Int64Array = np.zeros(n, np.int64)
        self.pods_full: BoolArray = np.zeros(n, np.bool_)
        self.present: BoolArray = np.zeros(n, np.bool_)
        self.unschedulable: BoolArray = np.zeros(n, np.bool_)
        self.vc_scalars: BoolArray = np.zeros(n, np.bool_)
        self.releasing_count: Int64Array = np.zeros(n, np.int64)  # per row, the pods counted in vc_releasing
        self.taint_id: Int32Array = np.zeros(n, np.int32)
        self.taint_lists: list[TaintList] = [()]
        self._taint_ids: dict[TaintList, int] = {(): 0}
        self.label_columns: dict[str, Int32Array] = {}
        self.label_value_ids: dict[str, dict[str, int]] = {}
        self.label_values: dict[str, list[str]] = {}
        self.row_labels: list[Mapping[str, str]] = [{}] * _INITIAL_ROWS
        self.images = NodeImages(_INITIAL_ROWS)  # status.images per row (ImageLocality)
        # Bumped whenever labels, the node set or row positions change, so row-indexed caches can tell.
        self.version = 0
        # Bumped whenever an ``alloc`` value, a row position or the row count changes (allocatable caches).
        self.alloc_version = 0
        # Bumped whenever a bound pod's amounts are added or removed (caches of ``act_req``).
        self.request_version = 0
        # The row of each of the latest request_version steps, oldest first: request_version is always
        # _changes_start + len(_changed_rows) (see rows_changed_since).
        self._changed_rows: list[int] = []
        self._changes_start = 0
        # Per column, the largest fit_req any row has ever held, and whether any pod ever added a negative
        # amount: while none has, every row's fit_req lies in 0 .. fit_peak (no pass over the rows needed).
        self.fit_peak: list[int] = [0] * _INITIAL_COLUMNS
        self.fit_negative = False
        # The same for act_req: every row's amount lies in 0 .. act_peak while act_negative is False.
        self.act_peak: list[int] = [0] * _INITIAL_COLUMNS
        self.act_negative = False
        # Values derived from the columns, owned by their users and keyed by the versions they depend on.
        self.derived: dict[tuple[int, ...], object] = {}
        self._name_order: Int64Array | None = None
        self._name_rank_reversed: npt.NDArray[np.float64] | None = None
        self._name_rank_below: npt.NDArray[np.float64] | None = None
        self._name_array: tuple[int, npt.NDArray[np.object_]] | None = None
        self._work: list[npt.NDArray[np.float64]] = []
        self._work_int32: Int32Array = np.empty(0, np.int32)
        self._work_index: list[Int64Array] = []
        self._zeros: npt.NDArray[np.float64] = np.empty(0, np.float64)
        self._present_count: tuple[int, int] | None = None  # (version, rows whose Node exists)

    # ---------------------------------------------------------------- columns and rows
    @property
    def capacity(self) -> int:
        return int(self.present.shape[0])

    _ROW_ARRAYS_2D = ("alloc", "vc_alloc", "fit_req", "act_req", "vc_used", "vc_releasing", "vc_idle", "vc_future",
                      "fit_req100", "fit_free100", "act_free", "act_req_f")
    _ROW_ARRAYS_1D = ("pod_count", "pods_full", "present", "unschedulable", "vc_scalars", "releasing_count",
                      "taint_id")

    def column(self, resource: str) -> int:
        """Column of ``resource``, created (all zero) on first use."""
        col = self.resource_index.get(resource)
        if col is not None:
            return col
        col = len(self.resource_names)
        self.resource_index[resource] = col
        self.resource_names.append(resource)
        if col >= len(self.fit_peak):
            self.fit_peak.append(0)
            self.act_peak.append(0)
        if col >= self.alloc.shape[0]:
            extra = self.alloc.shape[0]
            for attr in self._ROW_ARRAYS_2D:
                old: npt.NDArray[np.generic] = getattr(self, attr)
                setattr(self, attr, np.vstack([old, np.zeros((extra, old.shape[1]), old.dtype)]))
        return col

    def row(self, name: str) -> int:
        """Row of node ``name``, created (absent node, nothing bound) on first use."""
        row = self.row_of.get(name)
        if row is not None:
            return row
        if self.size == self.capacity:
            self._grow_rows()
        row = self.size
        self.size += 1
        self.row_of[name] = row
        self.row_names[row] = name
        self._update_pods_full(row)
        self._name_order = self._name_rank_reversed = self._name_rank_below = None
        self.version += 1  # row-indexed caches now have the wrong length
        self.alloc_version += 1
        return row

    def _grow_rows(self) -> None:
        old_n = self.capacity
        new_n = old_n * 2
        for attr in self._ROW_ARRAYS_2D:
            old: npt.NDArray[np.generic] = getattr(self, attr)
            grown = np.zeros((old.shape[0], new_n), old.dtype)
            grown[:, :old_n] = old
            setattr(self, attr, grown)
        for attr1 in self._ROW_ARRAYS_1D:
            old1: npt.NDArray[np.generic] = getattr(self, attr1)
            grown1 = np.zeros(new_n, old1.dtype)
            grown1[:old_n] = old1
            setattr(self, attr1, grown1)
        for key, ids in self.label_columns.items():
            grown_ids = np.full(new_n, -1, np.int32)
            grown_ids[:old_n] = ids
            self.label_columns[key] = grown_ids
        self.row_names.extend([None] * (new_n - old_n))
        self.row_labels.extend([{}] * (new_n - old_n))
        self.images.grow(new_n)

    def release_if_unused(self, row: int) -> None:
        """Recycle a row whose node is gone and that has no bound pod left (the last row moves in)."""
        if self.present[row] or self.pod_count[row] != 0:
            return
        name = self.row_names[row]
        if name is not None:
            del self.row_of[name]
        last = self.size - 1
        if row != last:
            self._move_row(last, row)
        self._clear_row(last)
        self.size -= 1
        self._name_order = self._name_rank_reversed = self._name_rank_below = None
        self.version += 1  # rows moved: row-indexed caches are stale
        self.alloc_version += 1

    def _move_row(self, src: int, dst: int) -> None:
        for attr in self._ROW_ARRAYS_2D:
            arr: npt.NDArray[np.generic] = getattr(self, attr)
            arr[:, dst] = arr[:, src]
        for attr1 in self._ROW_ARRAYS_1D:
            arr1: npt.NDArray[np.generic] = getattr(self, attr1)
            arr1[dst] = arr1[src]
        for ids in self.label_columns.values():
            ids[dst] = ids[src]
        name = self.row_names[src]
        self.row_names[dst] = name
        self.row_labels[dst] = self.row_labels[src]
        self.images.move(src, dst)
        if name is not None:
            self.row_of[name] = dst

    def _clear_row(self, row: int) -> None:
        # The int64 sums of a row without pods are zero (Volcano's float64 sums may not be, past 2**53).
        for attr in self._ROW_ARRAYS_2D:
            getattr(self, attr)[:, row] = 0
        for attr1 in self._ROW_ARRAYS_1D:
            getattr(self, attr1)[row] = 0
        for ids in self.label_columns.values():
            ids[row] = -1
        self.row_names[row] = None
        self.row_labels[row] = {}
        self.images.wipe(row)

    # ---------------------------------------------------------------- node attributes
    def set_node(
        self,
        row: int,
        alloc: Mapping[str, int],
        vc_alloc: Mapping[str, float],
        unschedulable: bool,
        taints: TaintList,
        labels: Mapping[str, str],
    ) -> None:
        cols_alloc = [(self.column(k), v) for k, v in alloc.items()]
        cols_vc = [(self.column(k), v) for k, v in vc_alloc.items()]
        before = self.alloc[:, row].copy()
        self.alloc[:, row] = 0
        self.vc_alloc[:, row] = 0
        for col, value in cols_alloc:
            self.alloc[col, row] = value
        for col, amount in cols_vc:
            self.vc_alloc[col, row] = amount
        if not np.array_equal(before, self.alloc[:, row]):  # status heartbeats usually change nothing here
            self.alloc_version += 1
            self._allocatable_changed(row)
        was_present = bool(self.present[row])
        self.present[row] = True
        self.vc_scalars[row] = keeps_scalars(vc_alloc)
        self._future_row(row)
        self.unschedulable[row] = unschedulable
        tid = self._taint_ids.get(taints)
        if tid is None:
            tid = len(self.taint_lists)
            self._taint_ids[taints] = tid
            self.taint_lists.append(taints)
        changed = not was_present or self.taint_id[row] != tid or self.row_labels[row] != labels
        self.taint_id[row] = tid
        self._set_labels(row, labels)
        if changed:
            self.version += 1

    def clear_node(self, row: int) -> None:
        """The Node object is gone: drop its attributes, keep what bound pods added."""
        self.alloc[:, row] = 0
        self.vc_alloc[:, row] = 0
        self._allocatable_changed(row)
        self.present[row] = False
        self.unschedulable[row] = False
        self.vc_scalars[row] = False
        self._future_row(row)
        self.taint_id[row] = 0
        self._set_labels(row, {})
        self.images.clear(row)
        self.version += 1
        self.alloc_version += 1
        self.release_if_unused(row)

    def _set_labels(self, row: int, labels: Mapping[str, str]) -> None:
        for key in self.row_labels[row]:
            self.label_columns[key][row] = -1
        for key, value in labels.items():
            ids = self.label_value_ids.get(key)
            if ids is None:
                ids = self.label_value_ids[key] = {}
                self.label_values[key] = []
                self.label_columns[key] = np.full(self.capacity, -1, np.int32)
            vid = ids.get(value)
            if vid is None:
                vid = ids[value] = len(self.label_values[key])
                self.label_values[key].append(value)
            self.label_columns[key][row] = vid
        self.row_labels[row] = dict(labels)

    # ---------------------------------------------------------------- pod contributions
    def add(self, row: int, contribution: Contribution, sign: int) -> None:
        """Add (sign=1) or remove (sign=-1) one bound pod's remembered contribution."""
        if len(self._changed_rows) >= _CHANGE_LOG_LIMIT:
            self._changed_rows.clear()
            self._changes_start = self.request_version
        self._changed_rows.append(row)
        self.request_version += 1
        for col, fit, act, vc in contribution:
            if fit:
                # Python ints wrapped as Go's int64 sums wrap (numpy's scalar add would warn instead)
                requested = wrap_int64(int(self.fit_req[col, row]) + sign * fit)
                self.fit_req[col, row] = requested
                # Python scalars (cheaper than one-element array operations), with int64 wrap-around as the
                # whole-column formula in set_node has; int -> float rounds as numpy's conversion does
                self.fit_req100[col, row] = requested * 100.0
                self.fit_free100[col, row] = wrap_int64(int(self.alloc[col, row]) - requested) * 100.0
                if requested > self.fit_peak[col]:
                    self.fit_peak[col] = requested
                if fit < 0:
                    self.fit_negative = True
            if act:
                act_requested = wrap_int64(int(self.act_req[col, row]) + sign * act)
                self.act_req[col, row] = act_requested
                self.act_free[col, row] = wrap_int64(int(self.alloc[col, row]) - act_requested)
                self.act_req_f[col, row] = act_requested  # int -> float rounds as numpy's conversion does
                if act_requested > self.act_peak[col]:
                    self.act_peak[col] = act_requested
                elif act_requested < 0:  # a negative amount, or a sum that wrapped
                    self.act_negative = True
            if vc:
                self.vc_used[col, row] += sign * vc
                self._future_cell(col, row)
        self.pod_count[row] += sign
        self._update_pods_full(row)

    def add_releasing(self, row: int, contribution: Contribution, sign: int) -> None:
        """Count (sign=1) or stop counting (sign=-1) a bound pod's Volcano amounts as Releasing; its amounts
        stay in ``vc_used`` either way (:meth:`add`)."""
        self.releasing_pods += sign
        self.releasing_count[row] += sign
        for col, _fit, _act, vc in contribution:
            if vc:
                self.vc_releasing[col, row] += sign * vc
                self._future_cell(col, row)

    def _future_cell(self, col: int, row: int) -> None:
        """Recompute one ``vc_idle`` and ``vc_future`` cell from the columns they derive from."""
        idle = self.vc_alloc[col, row] - self.vc_used[col, row]
        if not self.vc_scalars[row] and self.resource_names[col] not in ("cpu", "memory"):
            idle = 0.0
        self.vc_idle[col, row] = idle
        self.vc_future[col, row] = idle + self.vc_releasing[col, row]

    def _future_row(self, row: int) -> None:
        """Recompute a row's ``vc_idle`` and ``vc_future`` (its allocatable or ``vc_scalars`` changed)."""
        idle = self.vc_alloc[:, row] - self.vc_used[:, row]
        if not self.vc_scalars[row]:
            for col, name in enumerate(self.resource_names):
                if name not in ("cpu", "memory"):
                    idle[col] = 0.0
        self.vc_idle[:, row] = idle
        self.vc_future[:, row] = idle + self.vc_releasing[:, row]

    def rows_changed_since(self, request_version: int) -> list[int] | None:
        """The rows (repeats possible) whose bound pods' amounts changed after ``request_version``, or None when
        that is too long ago to tell. Only :meth:`add` changes amounts without bumping ``version`` or
        ``alloc_version``, so a cache still at those versions can update these rows instead of all of them."""
        if request_version < self._changes_start:
            return None
        return self._changed_rows[request_version - self._changes_start :]

    def _allocatable_changed(self, row: int) -> None:
        """Recompute the row's columns derived from ``alloc`` (the pod updates in :meth:`add` are their
        one-element twins)."""
        self.act_free[:, row] = self.alloc[:, row] - self.act_req[:, row]
        self.fit_free100[:, row] = (self.alloc[:, row] - self.fit_req[:, row]) * 100.0
        self._update_pods_full(row)

    def _update_pods_full(self, row: int) -> None:
        col = self.resource_index.get("pods")
        allowed = int(self.alloc[col, row]) if col is not None else 0
        self.pods_full[row] = int(self.pod_count[row]) >= allowed  # one more pod would exceed it

    # ---------------------------------------------------------------- ordering helpers
    def name_order(self) -> Int64Array:
        """Rank of each row's node name in sorted order (ties in scores are broken by name)."""
        if self._name_order is None:
            names = [(name, row) for row, name in enumerate(self.row_names[: self.size]) if name is not None]
            order = np.zeros(self.size, np.int64)
            for rank, (_, row) in enumerate(sorted(names)):
                order[row] = rank
            self._name_order = order
        return self._name_order

    def name_rank_reversed(self) -> npt.NDArray[np.float64]:
        """``rows - 1 -`` each row's name rank, as float64: larger for names that sort first, so that a
        whole-number score times the row count plus it orders rows by score, then by name."""
        if self._name_rank_reversed is None:
            self._name_rank_reversed = (self.size - 1 - self.name_order()).astype(np.float64)
        return self._name_rank_reversed

    def name_rank_below(self) -> npt.NDArray[np.float64]:
        """:meth:`name_rank_reversed` minus the row count: distinct keys -rows .. -1, below every key of a
        score >= 0, for the rows a ranking leaves out (a partition slows down badly on many equal keys)."""
        if self._name_rank_below is None:
            self._name_rank_below = self.name_rank_reversed() - self.size
        return self._name_rank_below

    def name_array(self) -> npt.NDArray[np.object_]:
        """The rows' node names as an array, to pick many names with one index."""
        if self._name_array is None or self._name_array[0] != self.version:
            self._name_array = (self.version, np.array(self.row_names[: self.size], dtype=object))
        return self._name_array[1]

    def work_rows(self, slot: int) -> npt.NDArray[np.float64]:
        """Scratch float64 row array number ``slot``, with garbage in it. Rankings reuse the same few arrays
        instead of allocating new ones, so the memory they touch stays in the CPU caches between requests.
        The contents last only until the next user of the same slot: no result may keep one."""
        while len(self._work) <= slot:
            self._work.append(np.empty(0, np.float64))
        if self._work[slot].size < self.size:
            self._work[slot] = np.empty(self.capacity, np.float64)
        return self._work[slot][: self.size]

    def work_int32(self) -> Int32Array:
        """One scratch int32 row array, on the same terms as :meth:`work_rows`."""
        if self._work_int32.size < self.size:
            self._work_int32 = np.empty(self.capacity, np.int32)
        return self._work_int32[: self.size]

    def work_index(self, slot: int) -> Int64Array:
        """Scratch int64 row array number ``slot`` (numpy's index type), on the same terms as :meth:`work_rows`."""
        while len(self._work_index) <= slot:
            self._work_index.append(np.empty(0, np.int64))
        if self._work_index[slot].size < self.size:
            self._work_index[slot] = np.empty(self.capacity, np.int64)
        return self._work_index[slot][: self.size]

    def zero_rows(self) -> npt.NDArray[np.float64]:
        """Read-only float64 zeros, one per row: numpy's ``maximum`` against an array runs a vector loop
        that against the scalar 0.0 it does not (about 4 times fewer instructions over 5,000 rows)."""
        if self._zeros.size < self.size:
            self._zeros = np.zeros(self.capacity, np.float64)
            self._zeros.flags.writeable = False
        return self._zeros[: self.size]

    def present_count(self) -> int:
        """Rows whose Node exists (``present`` changes only with ``version``)."""
        if self._present_count is None or self._present_count[0] != self.version:
            self._present_count = (self.version, int(np.count_nonzero(self.present[: self.size])))
        return self._present_count[1]

    def is_present_node(self, name: str) -> bool:
        """A Node of that name exists (not only a row its pods hold)."""
        row = self.row_of.get(name)
        return row is not None and bool(self.present[row])

    def present_rows(self) -> Int64Array:
        return np.flatnonzero(self.present[: self.size]).astype(np.int64)

    def label_value(self, key: str, value_id: int) -> str:
        return self.label_values[key][value_id]
