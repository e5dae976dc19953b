"""Spread connections evenly over the gunicorn workers.

All workers accept from one listening socket, and whichever wakes first takes the connection. The
apiserver opens a handful of long-lived kept-alive connections at once, so without a rule they often
all end up on one worker while the other idles (measured: 29 of 66 runs at 4+ connections). The rule
here: a worker accepts only while it holds no more open connections than the least-loaded worker that
is serving. The counts live in shared memory created by the master before it forks; each worker writes
only its own slot (no lock needed: readers tolerate a count that is one step old).
"""

from __future__ import annotations

from multiprocessing.sharedctypes import RawArray
from typing import Any

MAX_WORKERS = 64
_SERVING, _COUNT = 0, 1  # per slot: [serving flag, open connections]


class WorkerSlots:
    """Master side: the shared table and which slot each live worker owns."""

    def __init__(self, size: int = MAX_WORKERS) -> None:
        self.table: Any = RawArray("q", 2 * size)
        self.size = size
        self._owner: dict[int, int] = {}  # worker age -> slot

    def assign(self, worker_age: int) -> ConnectionBalance:
        used = set(self._owner.values())
        slot = next(i for i in range(self.size) if i not in used)
        self.table[2 * slot + _SERVING] = 0
        self.table[2 * slot + _COUNT] = 0
        self._owner[worker_age] = slot
        return ConnectionBalance(self.table, self.size, slot)

    def release(self, worker_age: int) -> None:
        slot = self._owner.pop(worker_age, None)
        if slot is not None:
            self.table[2 * slot + _SERVING] = 0
            self.table[2 * slot + _COUNT] = 0


class ConnectionBalance:
    """Worker side: this worker's slot in the shared table."""

    def __init__(self, table: Any, size: int, slot: int) -> None:
        self._table, self._size, self._slot = table, size, slot

    def serving(self, on: bool) -> None:
        self._table[2 * self._slot + _SERVING] = 1 if on else 0

    def opened(self) -> None:
        self._table[2 * self._slot + _COUNT] += 1

    def closed(self) -> None:
        self._table[2 * self._slot + _COUNT] -= 1

    def open_connections(self) -> int:
        return int(self._table[2 * self._slot + _COUNT])

    def may_accept(self) -> bool:
        """True while no serving worker holds fewer connections than this one."""
        table, mine = self._table, self._table[2 * self._slot + _COUNT]
        return all(
            not table[2 * i + _SERVING] or table[2 * i + _COUNT] >= mine for i in range(self._size)
        )
