"""The per-kind stores the cache's reflectors write into (called with the cache lock held).

Nodes, Pods and PodDisruptionBudgets go into ``ClusterState``, which keeps only what scoring and
preemption need; the stores remember just the keys, which is what a relist needs to find objects deleted
during a watch gap. PriorityClasses become
``PriorityClassInfo`` in a copy-on-write map, so readers take a snapshot without the lock.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from linter.formats.priorityclass.validate import PriorityClassInfo
from linter.scoring.cluster.state import ClusterState


class NodeNameStore:
    """Nodes into ClusterState; remembers names so a relist can delete the ones that vanished."""


    def __init__(self, state: ClusterState) -> None:
        self._state, self._names = state, set[str]()

    def key_of(self, obj: Mapping[str, Any]) -> str:
        return str(obj["metadata"]["name"])

    def keys(self) -> set[str]:
        return set(self._names)

    def upsert(self, key: str, obj: Mapping[str, Any]) -> None:
        self._names.add(key)
        self._state.apply_node(obj)

    def delete(self, key: str) -> None:
        if key in self._names:
            self._names.discard(key)
            self._state.delete_node(key)


class PodKeyStore:
    """Pods into ClusterState; the keys (``namespace/name``) of the pods it has seen.

    The state already holds the key of every pod it counts on a node or remembers as nominated, so
    only the other pods' keys (pending, finished, or refused for a bad quantity) are kept here: a
    second copy of every key would cost about 125 bytes per pod (250 MB at 2,000,000 pods).
    """

    def __init__(self, state: ClusterState) -> None:
        self._state, self._untracked = state, set[str]()

    def key_of(self, obj: Mapping[str, Any]) -> str:
        meta = obj["metadata"]
        return f"{meta.get('namespace') or 'default'}/{meta['name']}"  # the same default ClusterState uses

    def keys(self) -> set[str]:
        return {f"{namespace}/{name}" for namespace, name in self._state.tracked_pod_keys()} | self._untracked

    def count(self) -> int:
        return self._state.tracked_pod_count() + len(self._untracked)

    def upsert(self, key: str, obj: Mapping[str, Any]) -> None:
        namespace, _, name = key.partition("/")
        try:
            self._state.apply_pod(obj)
        finally:  # a refused pod is still a known key, as the apiserver listed it
            if self._state.tracks_pod(namespace, name):
                self._untracked.discard(key)
            else:
                self._untracked.add(key)

    def delete(self, key: str) -> None:
        namespace, _, name = key.partition("/")
        if key in self._untracked:
            self._untracked.discard(key)
        elif not self._state.tracks_pod(namespace, name):
            return
        self._state.delete_pod(namespace, name)


class PriorityClassStore:
    """Copy-on-write map, so readers get an immutable snapshot without taking the lock."""

    def __init__(self) -> None:
        self.current: Mapping[str, PriorityClassInfo] = MappingProxyType({})

    def key_of(self, obj: Mapping[str, Any]) -> str:
        return str(obj["metadata"]["name"])

    def keys(self) -> set[str]:
        return set(self.current)

    def upsert(self, key: str, obj: Mapping[str, Any]) -> None:
        self.current = MappingProxyType({**self.current, key: PriorityClassInfo.from_object(obj)})

    def delete(self, key: str) -> None:
        self.current = MappingProxyType({k: v for k, v in self.current.items() if k != key})


class PdbStore:
    """PodDisruptionBudgets into ClusterState (preemption reads their status); remembers namespace/name keys."""

    def __init__(self, state: ClusterState) -> None:
        self._state, self._keys = state, set[str]()

    def key_of(self, obj: Mapping[str, Any]) -> str:
        meta = obj["metadata"]
        return f"{meta.get('namespace') or 'default'}/{meta['name']}"

    def keys(self) -> set[str]:
        return set(self._keys)

    def upsert(self, key: str, obj: Mapping[str, Any]) -> None:
        self._keys.add(key)
        self._state.apply_pdb(obj)

    def delete(self, key: str) -> None:
        if key in self._keys:
            self._keys.discard(key)
            namespace, _, name = key.partition("/")
            self._state.delete_pdb(namespace, name)
