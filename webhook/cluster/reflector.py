"""The list+watch loop that keeps one kind of object mirrored into a store (no kubernetes import here).

A ``Reflector`` lists its kind page by page (limit/continue), then watches from the list's resourceVersion,
applying ADDED/MODIFIED/DELETED events one at a time. A BOOKMARK only advances the resourceVersion. When the
apiserver says the resourceVersion is too old (HTTP 410 on a LIST, or an ERROR event carrying a 410 Status in
a 200 watch stream, both surfaced by the source as ``Expired``) it lists again and *reconciles*: objects that
vanished during the gap are deleted. An expired continue token restarts the list from the first page (a
consistent list matters more than the time saved). Other errors back off exponentially with jitter. The loop
ends when the stop ``Event`` is set. All store updates happen under the shared lock, a page or event at a time.
"""

from __future__ import annotations

import contextlib
import logging
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

log = logging.getLogger(__name__)

LIST_RESTARTS_BEFORE_BACKOFF = 3  # expired continue tokens in a row before we treat it as an error


class Expired(Exception):
    """HTTP 410 Gone: the resourceVersion or continue token can no longer be served."""


class SourceError(Exception):
    """Any other failure to list or watch (transport error, 5xx, 403, undecodable body)."""


@dataclass(frozen=True)
class Page:
    items: list[Mapping[str, Any]]
    resource_version: str
    continue_token: str | None


class ListWatchSource(Protocol):
    """One kind of object on the apiserver; implemented over the kubernetes client in ``webhook.cluster.kubeclient``."""

    kind: str

    def list_page(self, limit: int, continue_token: str | None) -> Page: ...

    def watch(self, resource_version: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
        """Open the watch (raising on failure) and yield (type, object) until the server ends the stream."""
        ...

    def interrupt(self) -> None:
        """Unblock a watch that is waiting for data (called from another thread on stop)."""
        ...


class KindStore(Protocol):
    """Where a reflector puts what it sees; called with the cache lock held."""

    def key_of(self, obj: Mapping[str, Any]) -> str: ...

    def keys(self) -> set[str]: ...

    def upsert(self, key: str, obj: Mapping[str, Any]) -> None: ...

    def delete(self, key: str) -> None: ...


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff with jitter: attempt n waits uniform(0.5, 1) * min(cap, base * 2**n) seconds."""

    base: float = 0.5
    cap: float = 30.0

    def delay(self, attempt: int) -> float:
        return min(self.cap, self.base * float(2 ** min(attempt, 30))) * random.uniform(0.5, 1.0)


DEFAULT_BACKOFF = Backoff()


class Reflector:
    """Runs list+watch for one source into one store until ``stop`` is set."""

    def __init__(
        self,
        source: ListWatchSource,
        store: KindStore,
        lock: threading.RLock,
        stop: threading.Event,
        *,
        page_size: int = 500,
        backoff: Backoff = DEFAULT_BACKOFF,
        on_synced: Callable[[], None] | None = None,
        on_page: Callable[[], None] | None = None,
    ) -> None:
        self.source = source
        self._on_synced = on_synced
        self._on_page = on_page  # called after each applied LIST page, outside the lock
        self.store = store
        self._lock = lock
        self._stop = stop
        self._page_size = page_size
        self._backoff = backoff
        self.synced = threading.Event()
        self.failing_since: float | None = None  # monotonic time of the first failure in the current run
        self.relists = 0  # lists after the first one (410 recoveries)
        self.resource_version = ""

    def run(self) -> None:
        failures = 0
        need_list = True
        while not self._stop.is_set():
            try:
                if need_list:
                    self.resource_version = self._list_all()
                    need_list = False
                    if not self.synced.is_set():
                        self.synced.set()
                        if self._on_synced is not None:
                            self._on_synced()
                self._watch_once()
                failures = 0
                self.failing_since = None
            except Expired as exc:
                log.info("%s: resourceVersion %s expired (%s); relisting", self.source.kind,
                         self.resource_version, exc)
                need_list = True
                self.relists += 1
                failures += 1
                if failures > 1:  # one immediate relist, then back off so a flapping server is not hammered
                    self._wait_after_failure(failures - 1)
            except Exception as exc:  # any failure: keep the last good state, retry after a pause
                if self._stop.is_set():
                    return
                log.warning("%s: list/watch failed: %s", self.source.kind, exc)
                self._wait_after_failure(failures)
                failures += 1

    def _wait_after_failure(self, attempt: int) -> None:
        if self.failing_since is None:
            self.failing_since = time.monotonic()
        self._stop.wait(self._backoff.delay(attempt))

    def _list_all(self) -> str:
        """List every page, apply it, delete what the list no longer has; returns the list's resourceVersion."""
        restarts = 0
        while True:
            seen: set[str] = set()
            token: str | None = None
            try:
                while True:
                    page = self.source.list_page(self._page_size, token)
                    with self._lock:
                        for item in page.items:
                            key = self._apply(item)
                            if key is not None:
                                seen.add(key)
                    if self._on_page is not None:
                        self._on_page()
                    token = page.continue_token
                    if not token:
                        break
            except Expired:
                restarts += 1
                if token is None or restarts >= LIST_RESTARTS_BEFORE_BACKOFF:
                    raise
                log.info("%s: continue token expired; restarting the list", self.source.kind)
                continue
            with self._lock:
                for gone in self.store.keys() - seen:
                    self.store.delete(gone)
            self.failing_since = None
            return page.resource_version

    def _apply(self, obj: Mapping[str, Any]) -> str | None:
        """Upsert one object; a malformed one is logged and skipped so it cannot stall the whole kind."""
        try:
            key = self.store.key_of(obj)
        except (KeyError, TypeError):
            log.warning("%s: skipping an object without metadata.name", self.source.kind)
            return None
        try:
            self.store.upsert(key, obj)
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("%s: skipping %s: %s", self.source.kind, key, exc)
        return key

    def _watch_once(self) -> None:
        for event_type, obj in self.source.watch(self.resource_version):
            self.failing_since = None
            if self._stop.is_set():
                return
            if event_type in ("ADDED", "MODIFIED"):
                with self._lock:
                    self._apply(obj)
            elif event_type == "DELETED":
                with self._lock, contextlib.suppress(KeyError, TypeError):
                    self.store.delete(self.store.key_of(obj))
            elif event_type != "BOOKMARK":  # BOOKMARK carries only a resourceVersion, never object state
                log.warning("%s: ignoring watch event of unknown type %r", self.source.kind, event_type)
                continue
            version = obj.get("metadata", {}).get("resourceVersion")
            if isinstance(version, str) and version:
                self.resource_version = version
