"""Recent preemption predictions, keyed by what they depend on, for bursts of identical pods.

A Deployment scaled past the cluster's room sends its replicas through admission within milliseconds,
all with one pod shape; while the cluster state has not changed in between, each gets the same
prediction. The key is the pod's namespace, spec and nomination, the profile, and the state's change
counter (bumped by every node, pod and PDB event), so any event makes older entries unreachable.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, Generic, TypeVar

__all__ = ["PredictionCache", "pod_shape_key"]

V = TypeVar("V")


def pod_shape_key(pod: Mapping[str, Any]) -> str | None:
    """Everything of the pod that preemption reads except its name; None when not serializable."""
    meta, status = pod.get("metadata"), pod.get("status")
    namespace = meta.get("namespace") if isinstance(meta, Mapping) else None
    nominated = status.get("nominatedNodeName") if isinstance(status, Mapping) else None
    try:
        return json.dumps([namespace or "default", pod.get("spec"), nominated], sort_keys=True, default=str)
    except (TypeError, ValueError):
        return None


class PredictionCache(Generic[V]):
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
