"""Recent rankings and preemption predictions, keyed by what they depend on, for bursts of identical pods.

A Deployment scaled up sends its replicas through admission within milliseconds, all with one pod
shape; while the cluster state has not changed in between, each gets the same ranking (and, when it
fits nowhere, the same preemption prediction). The key is the pod's namespace, spec and status, the
model and profile, and the state's change counter (bumped by every node, pod and PDB event), so any
event makes older entries unreachable. A pod the state itself tracks is never looked up or stored: its
own name then matters (it is left out of the nominated pods).
"""

from __future__ import annotations

import pickle
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, Generic, TypeVar

__all__ = ["KeptResults", "pod_shape_key"]

V = TypeVar("V")


def pod_shape_key(pod: Mapping[str, Any]) -> bytes | None:
    """Everything of the pod that ranking and preemption read except its name; None when not serializable.

    A pickle, not JSON: equal bytes mean equal values of equal types (JSON would write the key ``1`` and
    the key ``"1"`` alike), and it is about 3x cheaper. Two equal pods may still pickle apart (shared
    objects are written once): that only costs a miss."""
    meta = pod.get("metadata")
    namespace = meta.get("namespace") if isinstance(meta, Mapping) else None
    try:
        return pickle.dumps((namespace or "default", pod.get("spec"), pod.get("status")), pickle.HIGHEST_PROTOCOL)
    except (TypeError, ValueError, AttributeError, pickle.PicklingError, RecursionError):
        return None


class KeptResults(Generic[V]):
    """A small LRU map."""

    def __init__(self, limit: int = 32) -> None:
        self._entries: OrderedDict[tuple[Any, ...], V] = OrderedDict()
        self._limit = limit

    def get(self, key: tuple[Any, ...]) -> V | None:
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
        return found

    def put(self, key: tuple[Any, ...], value: V) -> None:
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self._limit:
            self._entries.popitem(last=False)
