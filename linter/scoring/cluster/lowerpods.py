"""Per node, its pods of lower priority than the preemptor, as ranges of the importance order.

Within one node the importance order puts higher priorities first, so the pods below priority p are
the tail of the node's run of entries, found with one binary search on the order's block keys. Their
count is then a difference per node; only the pods of nodes where evicting could help are read (their
requests first, to add up what evicting frees, then what the dry run needs of the candidates').
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from linter.scoring.cluster.importance import PRIORITY_SPAN, priority_offset, start_keys
from linter.scoring.cluster.podtable import PodTable
from linter.scoring.cluster.reprieve import Entries
from linter.scoring.cluster.store import BoolArray, Int64Array, NodeStore

__all__ = ["LowerPods", "describe", "freed_by_row", "lower_pods"]


@dataclass(frozen=True)
class LowerPods:
    """Per store row, the range ``[begin, end)`` of the importance order holding its lower-priority pods."""

    order: Int64Array  # the table's importance order (slots)
    begin: Int64Array
    end: Int64Array
    own: int  # index in ``order`` of the preemptor's own slot when it is among them, else -1
    own_row: int

    def count(self) -> Int64Array:
        counts = self.end - self.begin
        if self.own >= 0:
            counts[self.own_row] -= 1
        return counts

    def entries(self, rows: Int64Array) -> tuple[Int64Array, Int64Array]:
        """Indexes into ``order`` of the lower-priority pods of ``rows``, grouped by row in the order of
        ``rows``, and each one's row."""
        counts = self.end[rows] - self.begin[rows]
        total = int(counts.sum())
        first = np.cumsum(counts) - counts
        idx = np.arange(total, dtype=np.int64) - np.repeat(first - self.begin[rows], counts)
        entry_rows = np.repeat(rows, counts)
        if self.own >= 0:
            keep = idx != self.own
            idx, entry_rows = idx[keep], entry_rows[keep]
        return idx, entry_rows

    def requests(self, table: PodTable, rows: Int64Array, columns: list[int]
                 ) -> tuple[Int64Array, Int64Array, list[Int64Array]]:
        """The lower-priority pods of ``rows``: their slots, rows and requests of ``columns`` (the checked
        resources' request columns; -1: a resource no pod requests)."""
        idx, entry_rows = self.entries(rows)
        slots = self.order.take(idx)
        inside = table.req.shape[0]
        return slots, entry_rows, [table.req[c].take(slots) if 0 <= c < inside else np.zeros(len(slots), np.int64)
                                   for c in columns]


def describe(table: PodTable, slots: Int64Array, rows: Int64Array, needs: list[Int64Array]) -> Entries:
    """The entries of a dry run, with what it reads of each pod besides its requests."""
    return Entries(slots, rows, table.priority.take(slots), start_keys(table, slots), table.signature.take(slots),
                   needs)


def freed_by_row(rows: Int64Array, needs: list[Int64Array], size: int) -> list[Int64Array]:
    """Per checked resource, what evicting all the pods of ``needs`` frees on each row (``rows``: theirs,
    grouped)."""
    out = [np.zeros(size, np.int64) for _ in needs]
    if len(rows):
        changed = np.ones(len(rows), np.bool_)
        changed[1:] = rows[1:] != rows[:-1]
        heads = np.flatnonzero(changed)
        on = rows[heads]
        for freed, need in zip(out, needs, strict=True):
            freed[on] = np.add.reduceat(need, heads)
    return out


def lower_pods(table: PodTable, store: NodeStore, present: BoolArray, priority: int, own_key: tuple[str, str]
               ) -> LowerPods:
    """The pods with priority < ``priority`` on each present row; the preemptor's own slot (if it is bound
    in the table) is never among them."""
    order = table.importance.current(table)
    blocks = table.importance.blocks
    n = store.size
    ids, by_id = node_ids_of_rows(table, store)
    known = present & (ids >= 0)
    memo = table.importance.memo  # emptied whenever the order changes
    id_key = table.id_cache[0] if table.id_cache else None
    ranges = memo.get(("ranges", id_key, priority))
    if ranges is None:
        rows = by_id[ids[by_id] >= 0]  # rows by node-name id: sorted keys make the searches cache-friendly
        keys = ids[rows] * PRIORITY_SPAN
        begin = np.zeros(n, np.int64)
        end = np.zeros(n, np.int64)
        begin[rows] = np.searchsorted(blocks, keys + priority_offset(priority), "right")
        end[rows] = np.searchsorted(blocks, keys + PRIORITY_SPAN, "left")
        if len(memo) > 64:
            memo.clear()
        ranges = memo[("ranges", id_key, priority)] = (begin, end)
    begin = np.where(known, ranges[0], 0)
    end = np.where(known, ranges[1], 0)
    own, own_row = -1, -1
    slot = table.slot_of.get(own_key)
    if slot is not None and table.name_id[slot] >= 0:
        row = store.row_of.get(table.node_names[int(table.name_id[slot])], -1)
        if 0 <= row < n and known[row] and begin[row] < end[row]:
            at = begin[row] + np.flatnonzero(order[begin[row]:end[row]] == slot)
            if len(at):
                own, own_row = int(at[0]), row
    return LowerPods(order, begin, end, own, own_row)


def node_ids_of_rows(table: PodTable, store: NodeStore) -> tuple[Int64Array, Int64Array]:
    """Per store row, the table's node-name id of that row's name (-1: no pod ever named it); and the
    rows sorted by that id."""
    key = (store.version, len(table.node_names))
    if table.id_cache is None or table.id_cache[0] != key:
        ids = np.full(store.size, -1, np.int64)
        for row in range(store.size):
            name = store.row_names[row]
            if name is not None:
                ids[row] = table.node_ids.get(name, -1)
        table.id_cache = (key, ids, np.argsort(ids, kind="stable"))
    return table.id_cache[1], table.id_cache[2]
