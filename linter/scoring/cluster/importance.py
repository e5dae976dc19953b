"""Every bound pod slot of a :class:`PodTable` in the reprieve's importance order, kept across queries.

Victim selection walks each node's lower-priority pods most important first: priority descending,
then start time ascending (none = "now", last), then -- where Go leaves the order open -- by
``namespace/name`` as the scalar model does. Sorting the 100,000+ candidate pods of a large cluster
cost more than the rest of a prediction, so the order of *all* slots is kept here, grouped by the
slot's node-name id: a node's pods are one range of it and its pods below a priority are that range's
tail (:mod:`.lowerpods`). A pod event moves one entry (the arrays keep spare room at the end); a
burst of changes larger than a sixteenth of the pods is sorted anew.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any, Protocol

import numpy as np

from linter.scoring.cluster.store import Int64Array

__all__ = ["PRIORITY_SPAN", "ImportanceOrder", "block_keys", "equal_runs", "priority_offset", "start_keys"]

PRIORITY_SPAN = 2**33  # room for every priority_offset (0 to 2^32 + 1)


def priority_offset(priority: int) -> int:
    """Within a node's span, higher priorities sort first; priorities are int32 in the API, and values
    beyond it (a hand-written dump) are clamped, which keeps every comparison with an int32 priority."""
    return 2**31 - min(max(priority, -(2**31) - 1), 2**31)


def block_keys(table: PodTable, slots: Int64Array) -> Int64Array:
    """(node-name id, priority descending) as one int64 that sorts like the pair."""
    return table.name_id[slots] * PRIORITY_SPAN + (2**31 - np.clip(table.priority[slots], -(2**31) - 1, 2**31))


FloatArray = np.ndarray[Any, np.dtype[np.float64]]


class PodTable(Protocol):
    """What the order reads of :class:`linter.scoring.cluster.podtable.PodTable` (which owns the order,
    hence no import of it here)."""

    name_id: Int64Array
    priority: Int64Array
    start: FloatArray
    keys: list[tuple[str, str]]
    version: int

    def take_touched(self) -> list[int] | None: ...

    def compact(self, order: Int64Array) -> None: ...


class ImportanceOrder:
    """The slots of bound pods sorted by (node-name id, importance): a node's pods are one contiguous
    range, its lower-priority pods that range's tail; see the module docstring."""

    def __init__(self) -> None:
        # Buffers with room at the end, so that a pod event moves only the entries after its position.
        self._slots: Int64Array = np.zeros(0, np.int64)
        self._blocks: Int64Array = np.zeros(0, np.int64)
        self._size = 0
        self._key_of_slot: Int64Array = np.zeros(0, np.int64)  # the block key a slot is filed under; -1: none
        self._version = -1
        self.memo: dict[Hashable, Any] = {}  # values its users derive from the order; emptied when it changes

    @property
    def slots(self) -> Int64Array:
        return self._slots[:self._size]

    @property
    def blocks(self) -> Int64Array:
        """block_keys of ``slots``, ascending."""
        return self._blocks[:self._size]

    def current(self, table: PodTable) -> Int64Array:
        """The order for the table as it is now (repaired or rebuilt if slots changed since last time)."""
        if self._version != table.version:
            touched = table.take_touched()
            if self._version < 0 or touched is None:
                self._rebuild(table)
                self.memo.clear()
            elif touched:
                self._repair(table, sorted(set(touched)))
                self.memo.clear()
            self._version = table.version
        return self.slots

    def _rebuild(self, table: PodTable) -> None:
        slots = np.flatnonzero(table.name_id >= 0)
        start = start_keys(table, slots)
        blocks = block_keys(table, slots)
        idx = np.lexsort((start, blocks))
        slots, blocks, start = slots[idx], blocks[idx], start[idx]
        same = (blocks[1:] == blocks[:-1]) & (start[1:] == start[:-1])
        for first, last in equal_runs(same):  # equally important pods: by namespace/name
            run = slots[first:last + 1].tolist()
            slots[first:last + 1] = sorted(run, key=lambda s: "/".join(table.keys[s]))
        table.compact(slots)
        slots = np.arange(len(slots), dtype=np.int64)
        room = len(slots) + max(1024, len(slots) // 8)
        self._slots, self._blocks = np.zeros(room, np.int64), np.zeros(room, np.int64)
        self._slots[:len(slots)], self._blocks[:len(slots)] = slots, blocks
        self._size = len(slots)
        self._key_of_slot = np.full(len(table.name_id), -1, np.int64)
        self._key_of_slot[slots] = blocks

    def _repair(self, table: PodTable, touched: list[int]) -> None:
        if len(self._key_of_slot) < len(table.name_id):
            grown = np.full(len(table.name_id), -1, np.int64)
            grown[:len(self._key_of_slot)] = self._key_of_slot
            self._key_of_slot = grown
        # Take every changed slot out first: the ones left then all sort by what the table says now.
        for slot in touched:
            key = int(self._key_of_slot[slot])
            if key >= 0:
                lo = int(np.searchsorted(self.blocks, key, "left"))
                hi = int(np.searchsorted(self.blocks, key, "right"))
                at = lo + int(np.flatnonzero(self._slots[lo:hi] == slot)[0])
                self._move(at + 1, -1)
                self._key_of_slot[slot] = -1
        for slot in touched:
            if table.name_id[slot] < 0:
                continue
            key = int(block_keys(table, np.array([slot], np.int64))[0])
            at = self._position(table, self.slots, self.blocks, slot, key)
            self._move(at, 1)
            self._slots[at], self._blocks[at] = slot, key
            self._key_of_slot[slot] = key

    def _move(self, first: int, by: int) -> None:
        """Shift the entries from ``first`` on by ``by`` (-1: over the one before; 1: opening a gap)."""
        size = self._size
        if size + by > len(self._slots):
            room = size + max(1024, size // 8)
            self._slots = np.concatenate([self._slots, np.zeros(room - len(self._slots), np.int64)])
            self._blocks = np.concatenate([self._blocks, np.zeros(room - len(self._blocks), np.int64)])
        for buffer in (self._slots, self._blocks):
            buffer[first + by:size + by] = buffer[first:size]  # numpy copies overlapping ranges correctly
        self._size = size + by

    @staticmethod
    def _position(table: PodTable, slots: Int64Array, blocks: Int64Array, slot: int, block: int) -> int:
        """Where ``slot`` goes among ``slots``: inside its (node, priority) block, by start then name."""
        lo = int(np.searchsorted(blocks, block, "left"))
        hi = int(np.searchsorted(blocks, block, "right"))
        mine = _importance_key(table, slot)
        while lo < hi:  # blocks are short (one node's pods of one priority): bisect in Python
            mid = (lo + hi) // 2
            if _importance_key(table, int(slots[mid])) < mine:
                lo = mid + 1
            else:
                hi = mid
        return lo


def start_keys(table: PodTable, slots: Int64Array) -> FloatArray:
    """The slots' start times for sorting: no start time (NaN) is +inf, "now", after every real one."""
    start = table.start.take(slots)
    return np.where(np.isnan(start), math.inf, start)


def equal_runs(same: np.ndarray[Any, np.dtype[np.bool_]]) -> list[tuple[int, int]]:
    """``same[i]``: entries i and i+1 are equal; the (first, last) entries of each run of equal ones."""
    if not same.any():
        return []
    edges = np.diff(np.r_[0, same.astype(np.int8), 0])
    return list(zip(np.flatnonzero(edges == 1).tolist(), np.flatnonzero(edges == -1).tolist(), strict=True))


def _importance_key(table: PodTable, slot: int) -> tuple[float, str]:
    """Within one (node, priority) block: start (none last), then namespace/name."""
    start = float(table.start[slot])
    return (math.inf if math.isnan(start) else start, "/".join(table.keys[slot]))
