"""``StaticClusterView``: an in-memory ``ClusterView`` built from plain object dicts (tests, benchmarks).

The live view is ``webhook.cluster.cache.ClusterCache`` (list+watch); both satisfy the protocol the
decisions read, ``webhook.admission.ports.ClusterView``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from types import MappingProxyType
from typing import Any

from linter.formats.priorityclass.validate import PriorityClassInfo
from linter.scoring.cluster.state import ClusterState


class StaticClusterView:
    """An in-memory ``ClusterView`` built from lists of v1 object dicts (tests, benchmarks).

    The mutators mirror what a watch would deliver, so a test can replay a recorded
    sequence of admission requests against a view that changes along the way.
    """

    def __init__(
        self,
        *,
        nodes: Iterable[Mapping[str, Any]] = (),
        pods: Iterable[Mapping[str, Any]] = (),
        priority_classes: Iterable[Mapping[str, Any]] = (),
        pdbs: Iterable[Mapping[str, Any]] = (),
        synced: bool = True,
        healthy: bool = True,
    ) -> None:
        self._lock = threading.Lock()
        self._state = ClusterState()
        for node in nodes:
            self._state.apply_node(node)
        for pod in pods:
            self._state.apply_pod(pod)
        for pdb in pdbs:
            self._state.apply_pdb(pdb)
        self._classes: dict[str, PriorityClassInfo] = {}
        for obj in priority_classes:
            self.apply_priority_class(obj)
        self.synced = synced
        self.healthy = healthy
        self.watch_restarts = 0

    def apply_priority_class(self, obj: Mapping[str, Any]) -> None:
        info = PriorityClassInfo.from_object(obj)
        with self._lock:
            self._classes[info.name] = info

    def delete_priority_class(self, name: str) -> None:
        with self._lock:
            self._classes.pop(name, None)

    def priority_classes(self) -> Mapping[str, PriorityClassInfo]:
        with self._lock:
            return MappingProxyType(dict(self._classes))

    def read_priority_class(self, name: str, *, until: float | None = None) -> PriorityClassInfo | None:
        """No apiserver behind this view: the live read is what the view holds, at once (``until`` is moot)."""
        with self._lock:
            return self._classes.get(name)

    @contextmanager
    def _locked_state(self) -> Iterator[ClusterState]:
        with self._lock:
            yield self._state

    def scheduling_state(self) -> AbstractContextManager[ClusterState]:
        return self._locked_state()

    def is_synced(self) -> bool:
        return self.synced

    def is_healthy(self) -> bool:
        return self.healthy

    def stats(self) -> Mapping[str, float]:
        with self._lock:
            return {
                "nodes": float(self._state.node_count),
                "pods": float(self._state.pod_count),
                "priorityclasses": float(len(self._classes)),
                "watch_restarts": float(self.watch_restarts),
            }
