"""Cluster cache: Nodes, Pods, PriorityClasses and PodDisruptionBudgets mirrored from the apiserver.

``ClusterCache`` implements ``webhook.admission.ports.ClusterView``. Four ``Reflector`` threads (see
``webhook.cluster.reflector``) list+watch their kind through ``webhook.cluster.kubeclient`` and feed a
``ClusterState`` (per-node compact contributions, never whole Pod objects; PDB selectors and status for
preemption) and a PriorityClass map of
``PriorityClassInfo``. The client's own ``SharedInformer`` is not used: it deserializes every object into
generated models and keeps them whole, and it lists without pagination, which at 150,000 pods costs
minutes and gigabytes. Here lists and watches are read raw (``_preload_content=False``) and decoded with
``json`` only. One ``RLock`` guards all state; ``scheduling_state()`` holds it while the caller scores.

Start the cache in each gunicorn worker after fork (threads and sockets do not survive ``fork``).
"""

from __future__ import annotations

import contextlib
import gc
import logging
import threading
import time
from collections.abc import Iterator, Mapping
from typing import Any

from linter.formats.priorityclass.validate import PriorityClassInfo
from linter.scoring.cluster.state import ClusterState
from webhook.cluster.heap import release_free_heap
from webhook.cluster.kubeclient import (
    LIVE_READ_TIMEOUT,
    WATCH_READ_MARGIN,
    ClientConfiguration,
    kind_sources,
    load_client_configuration,
    read_priority_class,
)
from webhook.cluster.reflector import DEFAULT_BACKOFF, Backoff, KindStore, Reflector, SourceError
from webhook.cluster.stores import NodeNameStore, PdbStore, PodKeyStore, PriorityClassStore
from webhook.errors import LiveReadError

log = logging.getLogger(__name__)

STALE_MARGIN = 30.0  # seconds past the watch timeout before a silent kind counts as stale


class ClusterCache:
    """The ClusterView over a live cluster. ``start()`` once per process (after fork), ``stop()`` to end."""

    def __init__(
        self, client_configuration: ClientConfiguration, *, page_size: int = 500, watch_timeout: int = 60,
        backoff: Backoff = DEFAULT_BACKOFF, unhealthy_after: float = 30.0, stale_after: float | None = None,
        watch_read_margin: float = WATCH_READ_MARGIN, freeze_gc: bool = False,
    ) -> None:
        self._freeze_gc = freeze_gc  # process-wide effect: only for the one cache of a server worker
        self._configuration = client_configuration
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._state = ClusterState()
        self._nodes, self._pods = NodeNameStore(self._state), PodKeyStore(self._state)
        self._classes = PriorityClassStore()
        self._pdbs = PdbStore(self._state)
        self._page_size, self._watch_timeout, self._read_margin = page_size, watch_timeout, watch_read_margin
        self._backoff, self._unhealthy_after = backoff, unhealthy_after
        # every watch ends (server-side timeout) or delivers a BOOKMARK within watch_timeout: silence past
        # this means a hung connection, and the cache stops calling itself fresh
        self._stale_after = stale_after if stale_after is not None else watch_timeout + STALE_MARGIN
        self._reflectors: list[Reflector] = []
        self._threads: list[threading.Thread] = []
        # Kinds whose reflector has returned. Read per request instead of Thread.is_alive(): in a gevent
        # worker is_alive() takes a lock without blocking, and gevent answers that with a yield to the
        # hub, so every scored pod would pause mid-request behind the worker's other connections.
        self._ended: set[str] = set()
        self.started_at: float | None = None
        self.synced_after: float | None = None  # seconds from start() to the first complete list of all kinds

    @property
    def client_configuration(self) -> ClientConfiguration:
        return self._configuration

    @classmethod
    def from_kubeconfig(cls, kubeconfig: str | None, **options: Any) -> ClusterCache:
        return cls(load_client_configuration(kubeconfig), **options)

    def start(self) -> None:
        stores: list[KindStore] = [self._nodes, self._pods, self._classes, self._pdbs]
        kinds = kind_sources(self._configuration, self._watch_timeout, self._read_margin)
        sources = list(zip(kinds, stores, strict=True))
        self.started_at = time.monotonic()
        for source, store in sources:
            reflector = Reflector(source, store, self._lock, self._stop, page_size=self._page_size,
                                  backoff=self._backoff, on_synced=self._note_synced,
                                  on_page=self._after_page if self._freeze_gc else None)
            thread = threading.Thread(target=self._run_reflector, args=(reflector,), name=f"cache-{source.kind}",
                                      daemon=True)
            self._reflectors.append(reflector)
            self._threads.append(thread)
            thread.start()

    def _run_reflector(self, reflector: Reflector) -> None:
        try:
            reflector.run()
        finally:
            self._ended.add(reflector.source.kind)

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        for reflector in self._reflectors:
            reflector.source.interrupt()
        for thread in self._threads:
            thread.join(timeout)

    def wait_synced(self, timeout: float | None = None) -> bool:
        deadline = None if timeout is None else time.monotonic() + timeout
        for reflector in self._reflectors:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not reflector.synced.wait(left):
                return False
        return self.is_synced()

    # ClusterView

    def priority_classes(self) -> Mapping[str, PriorityClassInfo]:
        return self._classes.current

    def read_priority_class(self, name: str, *, until: float | None = None) -> PriorityClassInfo | None:
        """A GET bounded by ``LIVE_READ_TIMEOUT`` and by what is left until ``until`` (the review's deadline)."""
        timeout = LIVE_READ_TIMEOUT
        if until is not None:
            left = until - time.monotonic()
            if left <= 0:
                raise LiveReadError(f"get priorityclass {name}: not sent, no time was left of this review's "
                                    "time budget")
            timeout = min(timeout, left)
        try:
            found = read_priority_class(self._configuration, name, timeout)
        except SourceError as exc:
            if until is not None and time.monotonic() >= until:  # our deadline cut it short, not the apiserver
                raise LiveReadError(f"get priorityclass {name}: no answer within the {timeout:.2f} s left of "
                                    "this review's time budget") from None
            raise LiveReadError(str(exc)) from None
        if found is None:
            return None
        try:
            return PriorityClassInfo.from_object(found)
        except (ValueError, KeyError, TypeError) as exc:
            raise LiveReadError(f"get priorityclass {name}: unusable answer: {exc}") from None

    @contextlib.contextmanager
    def scheduling_state(self) -> Iterator[ClusterState]:
        with self._lock:
            yield self._state

    def is_synced(self) -> bool:
        return len(self._reflectors) == 4 and all(r.synced.is_set() for r in self._reflectors)

    def _note_synced(self) -> None:
        with self._lock:
            if self.synced_after is not None or not self.is_synced() or self.started_at is None:
                return
            self.synced_after = time.monotonic() - self.started_at
            counts = self.stats()
            self._state.prepare_preemption()  # one sort of every pod, before the state counts as ready
            if self._freeze_gc:
                # the synced state is long-lived; moving it out of the cyclic GC's generations keeps
                # full collections from rescanning ~all cached objects in the middle of a request
                gc.collect()
                gc.freeze()
                release_free_heap()
        log.info("cluster cache synced in %.2fs: %d nodes, %d pods, %d priorityclasses", self.synced_after,
                 counts["nodes"], counts["pods"], counts["priorityclasses"])

    def _after_page(self) -> None:
        if self.synced_after is None:
            # During the first sync the cached state only grows. Without this, every full collection
            # rescans all of it (a third of the sync time at 150,000 pods); frozen objects are still
            # freed by reference counting, and the JSON pages hold no reference cycles.
            gc.freeze()

    def is_healthy(self) -> bool:
        """Every reflector still running, none failing for ``unhealthy_after`` s, none silent for ``stale_after`` s."""
        now = time.monotonic()
        return bool(self._threads) and not self._ended and all(
            r.is_healthy(now, self._unhealthy_after, self._stale_after) for r in self._reflectors
        )

    def stats(self) -> Mapping[str, float]:
        with self._lock:
            return {
                "nodes": len(self._nodes.keys()), "pods": self._pods.count(),
                "priorityclasses": len(self._classes.current),
                "poddisruptionbudgets": len(self._pdbs.keys()),
                "watch_restarts": sum(r.relists for r in self._reflectors),
                "watch_errors": sum(r.errors for r in self._reflectors),
                "synced": float(self.is_synced()),
            }

    def object_keys(self) -> Mapping[str, frozenset[str]]:
        """The names (pods: namespace/name) the cache currently holds, per kind; for diagnostics and tests."""
        with self._lock:
            return {"nodes": frozenset(self._nodes.keys()), "pods": frozenset(self._pods.keys()),
                    "priorityclasses": frozenset(self._classes.current),
                    "poddisruptionbudgets": frozenset(self._pdbs.keys())}
