"""Per-pod columns for the fast preemption twin: every bound pod's node, priority, start time,
actual requests and label signature in numpy slots, the host ports of the pods that have some
(:class:`~linter.scoring.cluster.ports.PortUse`), how many have pod (anti-)affinity terms that act on other
pods (:class:`~linter.scoring.unmodelled.AffinityTally`), plus the pending pods nominated to a node.

Kept by :class:`linter.scoring.cluster.state.ClusterState` next to its node sums (one ``put`` per
Pod ADDED/MODIFIED that counts, one ``drop`` when it stops counting). Node rows move in the
:class:`NodeStore`, so a slot holds a stable node-*name* id that is mapped to rows per query.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from linter.scoring.cluster.importance import ImportanceOrder
from linter.scoring.cluster.ports import PortUse
from linter.scoring.cluster.store import Contribution, Int64Array
from linter.scoring.hostports import host_ports
from linter.scoring.nominated import scheduler_name_of
from linter.scoring.preemption.pods import PodFacts, parse_time, pod_facts, posix_seconds, terminating_by_preemption
from linter.scoring.unmodelled import AffinityTally, affinity_flags

__all__ = ["NominatedPod", "PodTable"]

FloatArray = np.ndarray[Any, np.dtype[np.float64]]
_INITIAL = 1024


@dataclass(frozen=True)
class NominatedPod:
    """A pending pod with ``status.nominatedNodeName``; a scheduler's nominator holds it when one of its
    profiles is named ``scheduler`` (its ``spec.schedulerName``, defaulted)."""

    node: str
    facts: PodFacts
    scheduler: str


class PodTable:
    """Slots of bound pods; see the module docstring."""

    def __init__(self) -> None:
        n = _INITIAL
        self.name_id: Int64Array = np.full(n, -1, np.int64)  # -1 = free slot
        self.priority: Int64Array = np.zeros(n, np.int64)
        self.start: FloatArray = np.full(n, math.nan)  # POSIX seconds; NaN = no startTime ("now")
        self.terminating: np.ndarray[Any, np.dtype[np.bool_]] = np.zeros(n, np.bool_)  # by preemption
        self.signature: Int64Array = np.zeros(n, np.int64)  # (namespace, labels) id
        # actual requests by NodeStore column; rows are added as columns get requested (most pods ask for
        # two or three resources, and each row costs 8 bytes per slot)
        self.req: Int64Array = np.zeros((2, n), np.int64)
        self.keys: list[tuple[str, str]] = [("", "")] * n
        # what each pod adds to its node's sums (interned, shared by a workload's pods): the state reads it
        # back to take a pod off its node, so the table is the only per-pod map the state keeps
        self.contributions: list[Contribution | None] = [None] * n
        self.slot_of: dict[tuple[str, str], int] = {}
        # Free slots: every slot from _unused on, plus the ones given back (a list of ints costs 36 bytes a
        # slot, too much to hold all of them at 2,000,000 pods).
        self._unused = 0
        self._free: list[int] = []
        self.node_names: list[str] = []
        self.node_ids: dict[str, int] = {}
        self.signatures: list[tuple[str, Mapping[str, str]]] = []
        self._signature_ids: dict[tuple[str, frozenset[tuple[str, str]]], int] = {}
        self.nominated: dict[tuple[str, str], NominatedPod] = {}  # change only through the methods below
        self._nominated_top: int | None = None  # highest priority in ``nominated``; None: to be worked out
        self.version = 0  # bumped on every change of slots
        # store row -> node-name id, valid for (NodeStore.version, number of names)
        self.id_cache: tuple[tuple[int, int], Int64Array, Int64Array] | None = None
        # slots changed since the importance order last looked; None: too many, it sorts anew
        self._touched: list[int] | None = []
        self.importance = ImportanceOrder()
        self.ports = PortUse()  # the bound pods' host ports (NodePorts)
        # bound pods whose pod (anti-)affinity terms make InterPodAffinity act on other pods (counts only)
        self.affinity = AffinityTally()

    def _grow(self) -> None:
        old = self.name_id.shape[0]
        extra = old
        self.name_id = np.concatenate([self.name_id, np.full(extra, -1, np.int64)])
        self.priority = np.concatenate([self.priority, np.zeros(extra, np.int64)])
        self.start = np.concatenate([self.start, np.full(extra, math.nan)])
        self.terminating = np.concatenate([self.terminating, np.zeros(extra, np.bool_)])
        self.signature = np.concatenate([self.signature, np.zeros(extra, np.int64)])
        self.req = np.hstack([self.req, np.zeros((self.req.shape[0], extra), np.int64)])
        self.keys.extend([("", "")] * extra)
        self.contributions.extend([None] * extra)

    def _column_room(self, col: int) -> None:
        if col >= self.req.shape[0]:
            self.req = np.vstack([self.req, np.zeros((col + 1 - self.req.shape[0], self.req.shape[1]), np.int64)])

    def node_id(self, name: str) -> int:
        found = self.node_ids.get(name)
        if found is None:
            found = self.node_ids[name] = len(self.node_names)
            self.node_names.append(name)
        return found

    def _signature_id(self, namespace: str, labels: Mapping[str, str]) -> int:
        key = (namespace, frozenset(labels.items()))
        found = self._signature_ids.get(key)
        if found is None:
            found = self._signature_ids[key] = len(self.signatures)
            self.signatures.append((namespace, dict(labels)))
        return found

    def __len__(self) -> int:
        """The bound pods counted on a node."""
        return len(self.slot_of)

    def counted(self, key: tuple[str, str]) -> tuple[str, Contribution] | None:
        """The node name and contribution of a counted pod, or None when the pod is not counted."""
        slot = self.slot_of.get(key)
        if slot is None:
            return None
        contribution = self.contributions[slot]
        assert contribution is not None
        return self.node_names[int(self.name_id[slot])], contribution

    def put(self, key: tuple[str, str], node: str, contribution: Contribution, pod: Mapping[str, Any]) -> None:
        """A bound, counted pod (re)placed; ``contribution`` gives its actual requests by column."""
        self._unnominate(key)
        slot = self.slot_of.get(key)
        before = None
        if slot is None:
            if self._free:
                slot = self._free.pop()
            else:
                if self._unused == len(self.name_id):
                    self._grow()
                slot = self._unused
                self._unused += 1
            self.slot_of[key] = slot
            self.keys[slot] = key
        else:
            before = self._ordering(slot)
        facts = _facts(pod)
        self.ports.put(key, node, host_ports(pod))
        self.affinity.put(key, affinity_flags(pod))
        self.name_id[slot] = self.node_id(node)
        self.priority[slot] = facts.priority
        self.start[slot] = posix_seconds(facts.start) if facts.start is not None else math.nan
        self.terminating[slot] = facts.terminating_by_preemption
        self.signature[slot] = self._signature_id(key[0], facts.labels)
        self.contributions[slot] = contribution
        self.req[:, slot] = 0
        for col, _fit, actual, _volcano in contribution:
            self._column_room(col)
            self.req[col, slot] = actual
        self.version += 1
        if before != self._ordering(slot):  # a status-only update keeps the importance order as it is
            self._touch(slot)

    def _ordering(self, slot: int) -> tuple[int, int, bytes]:
        """What the importance order sorts a slot by (besides its key, which a slot keeps)."""
        return (int(self.name_id[slot]), int(self.priority[slot]), self.start[slot:slot + 1].tobytes())

    def drop(self, key: tuple[str, str]) -> None:
        slot = self.slot_of.pop(key, None)
        if slot is not None:
            self.ports.drop(key)
            self.affinity.drop(key)
            self.name_id[slot] = -1
            self.contributions[slot] = None
            self.req[:, slot] = 0
            self._free.append(slot)
            self.version += 1
            self._touch(slot)

    def _touch(self, slot: int) -> None:
        if self._touched is not None:
            self._touched.append(slot)
            if len(self._touched) > max(256, len(self.slot_of) // 16):
                self._touched = None  # repairing one by one would cost more than one sort

    def compact(self, order: Int64Array) -> None:
        """Renumber the slots so that slot i holds what ``order[i]`` held (``order``: every used slot).

        The importance order calls this when it sorts anew: a node's pods then sit next to each other
        in memory, so reading a node's pods reads one stretch of each column instead of scattered slots.
        """
        capacity = len(self.name_id)
        unused = np.ones(capacity, np.bool_)
        unused[order] = False
        perm = np.concatenate([order, np.flatnonzero(unused)])
        for name in ("name_id", "priority", "start", "terminating", "signature"):
            setattr(self, name, getattr(self, name)[perm])
        self.req = np.ascontiguousarray(self.req[:, perm])  # fancy indexing on axis 1 leaves it column-major
        order_list = perm.tolist()
        self.keys = [self.keys[i] for i in order_list]
        self.contributions = [self.contributions[i] for i in order_list]
        used = len(order)
        self.slot_of = dict(zip(self.keys[:used], range(used), strict=True))
        self._unused, self._free = used, []
        self._touched = []

    def take_touched(self) -> list[int] | None:
        """The slots changed since the last call, or None when there were too many to list."""
        touched, self._touched = self._touched, []
        return touched

    def set_pending(self, key: tuple[str, str], pod: Mapping[str, Any]) -> None:
        """A pod that does not count on a node: remembered only while it is nominated somewhere."""
        self.drop(key)
        status = pod.get("status")
        nominated = status.get("nominatedNodeName") if isinstance(status, Mapping) else None
        phase = status.get("phase") if isinstance(status, Mapping) else None
        spec = pod.get("spec")
        bound = isinstance(spec, Mapping) and bool(spec.get("nodeName"))
        if isinstance(nominated, str) and nominated and not bound and phase not in ("Succeeded", "Failed"):
            self.nominated[key] = NominatedPod(nominated, pod_facts(pod), scheduler_name_of(pod))
            self._nominated_top = None
        else:
            self._unnominate(key)

    def forget(self, key: tuple[str, str]) -> None:
        """Pod DELETED."""
        self.drop(key)
        self._unnominate(key)

    def _unnominate(self, key: tuple[str, str]) -> None:
        if self.nominated.pop(key, None) is not None:
            self._nominated_top = None

    def nominated_top_priority(self) -> int | None:
        """The highest priority of a nominated pod (None: there is none), worked out once per change, so
        that ranking a pod of higher priority can tell in O(1) that no nominated pod counts for it."""
        if self._nominated_top is None and self.nominated:
            self._nominated_top = max(nom.facts.priority for nom in self.nominated.values())
        return self._nominated_top


def _facts(pod: Mapping[str, Any]) -> PodFacts:
    """Only the cheap fields (requests come from the state's memoized contribution)."""
    meta = pod.get("metadata") if isinstance(pod.get("metadata"), Mapping) else {}
    spec = pod.get("spec") if isinstance(pod.get("spec"), Mapping) else {}
    status = pod.get("status") if isinstance(pod.get("status"), Mapping) else {}
    assert isinstance(meta, Mapping) and isinstance(spec, Mapping) and isinstance(status, Mapping)
    labels = meta.get("labels")
    priority = spec.get("priority")
    return PodFacts(
        namespace="", name="", priority=priority if isinstance(priority, int) and not isinstance(priority, bool) else 0,
        start=parse_time(status.get("startTime")),
        labels={str(k): str(v) for k, v in labels.items()} if isinstance(labels, Mapping) else {},
        request={}, node_name="", nominated_node="", preemption_policy="", deleting=False,
        terminating_by_preemption=terminating_by_preemption(pod),
    )
