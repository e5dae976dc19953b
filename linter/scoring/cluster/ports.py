"""The host ports in use on each node, for the vectorized NodePorts filter (rules: :mod:`linter.scoring.hostports`).

Only pods with a host port are kept: most pods have none, and they cost a dictionary lookup per event and
nothing per node. Per node name (rows move in the :class:`NodeStore`; names do not), each (hostIP,
protocol, port) entry is counted by the pods holding it, so a node's used ports are always those of its
current pods, as a scheduler that built its ``NodeInfo`` from them holds them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

from linter.scoring.cluster.store import BoolArray, NodeStore
from linter.scoring.hostports import HostPort, ports_conflict

__all__ = ["PortUse"]


class PortUse:
    """Host ports per bound pod and per node name."""

    def __init__(self) -> None:
        self._pods: dict[tuple[str, str], tuple[str, tuple[HostPort, ...]]] = {}
        self.by_node: dict[str, Counter[HostPort]] = {}

    def put(self, key: tuple[str, str], node: str, ports: tuple[HostPort, ...]) -> None:
        """The counted pod ``key`` is bound to ``node`` with these host ports (none: it holds nothing)."""
        old = self._pods.get(key)
        if old == (node, ports):
            return
        if old is not None:
            self.drop(key)
        if ports:
            self._pods[key] = (node, ports)
            self.by_node.setdefault(node, Counter()).update(ports)

    def drop(self, key: tuple[str, str]) -> None:
        """The pod no longer counts on a node."""
        old = self._pods.pop(key, None)
        if old is None:
            return
        node, ports = old
        held = self.by_node[node]
        held.subtract(ports)
        for entry in ports:
            if held[entry] <= 0:
                del held[entry]
        if not held:
            del self.by_node[node]

    def ports_of(self, key: tuple[str, str]) -> tuple[HostPort, ...]:
        found = self._pods.get(key)
        return found[1] if found is not None else ()

    def failing_rows(self, store: NodeStore, wanted: Sequence[HostPort],
                     extra: Mapping[int, Sequence[HostPort]] | None = None) -> BoolArray | None:
        """Rows whose used ports (plus ``extra`` per row: nominated pods') conflict with ``wanted``; None when
        no row does."""
        failing: BoolArray | None = None
        rows_seen: set[int] = set()
        for name, held in self.by_node.items():
            row = store.row_of.get(name)
            if row is None or row >= store.size:
                continue
            more = extra.get(row) if extra else None
            if more:
                rows_seen.add(row)
            if ports_conflict(wanted, held.keys()) or (more and ports_conflict(wanted, more)):
                failing = np.zeros(store.size, np.bool_) if failing is None else failing
                failing[row] = True
        for row, more in (extra or {}).items():
            if row not in rows_seen and ports_conflict(wanted, more):
                failing = np.zeros(store.size, np.bool_) if failing is None else failing
                failing[row] = True
        return failing
