"""The list+watch loop that keeps one kind of object mirrored into a store (no kubernetes import here).

A ``Reflector`` lists its kind page by page (limit/continue), then watches from the list's resourceVersion,
applying ADDED/MODIFIED/DELETED events one at a time. A BOOKMARK only advances the resourceVersion. When the
apiserver says the resourceVersion is too old (HTTP 410 on a LIST, or an ERROR event carrying a 410 Status in
a 200 watch stream, both surfaced by the source as ``Expired``) it lists again and *reconciles*: objects that
vanished during the gap are deleted. An expired continue token restarts the list from the first page (a
consistent list matters more than the time saved). Other errors back off exponentially with jitter. The loop
ends when the stop ``Event`` is set. All store updates happen under the shared lock, a page or event at a time.

Truthful health (issue 9 §3). ``last_contact`` is the last time the apiserver proved this kind current: a LIST
page, any watch event (BOOKMARKs included) or a watch the server ended normally; the cache calls the reflector
stale when it is older than the watch timeout plus a margin, which is how a hung watch (a live TCP connection
that delivers nothing) is caught. ``failing_since`` is the start of the current run of failures; only a *good*
watch ends it and resets the backoff: one that delivered a valid event or stayed open ``GOOD_WATCH_SECONDS``.
A watch that ends at once without events, or whose event cannot be decoded, is a failure (backoff, and a
relist, since rewatching from the same resourceVersion would replay the same event).
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
GOOD_WATCH_SECONDS = 1.0  # a watch open this long (or with a valid event) proves the connection is back


class MalformedEvent(Exception):
    """A watch event whose object cannot be read; the kind is relisted (rewatching would replay it)."""


class Expired(Exception):
    """HTTP 410 Gone: the resourceVersion or continue token can no longer be served."""


class SourceError(Exception):
    """Any other failure to list or watch (transport error, 5xx, 403, undecodable body)."""


class Forbidden(SourceError):
    """HTTP 403 on a list: the credentials may not list this kind (callers that can do without it tell it apart)."""


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
        self.last_contact: float | None = None  # monotonic time the apiserver last proved this kind current
        self.watch_opened_at: float | None = None  # set while a watch is open
        self.relists = 0  # lists after the first one (410 recoveries)
        self.errors = 0  # failed lists/watches since start
        self.resource_version = ""
        self._failures = 0
        self._watch_failing = False  # the failure run is a bad watch: a successful relist does not end it

    def run(self) -> None:
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
                if self._watch_once():
                    self._failures, self.failing_since, self._watch_failing = 0, None, False
                else:  # ended at once with nothing: a failure, or a flapping server is reopened in a tight loop
                    self._watch_failing = True
                    self._fail(SourceError("the watch ended at once without events"))
            except Expired as exc:
                log.info("%s: resourceVersion %s expired (%s); relisting", self.source.kind,
                         self.resource_version, exc)
                need_list = True
                self.relists += 1
                self._failures += 1
                if self._failures > 1:  # one immediate relist, then back off so a flapping server is not hammered
                    self._wait_after_failure(self._failures - 1)
            except MalformedEvent as exc:
                need_list, self._watch_failing = True, True
                self.relists += 1
                self._fail(exc)
            except Exception as exc:  # any failure: keep the last good state, retry after a pause
                if self._stop.is_set():
                    return
                self._fail(exc)

    def _fail(self, exc: Exception) -> None:
        self.errors += 1
        log.warning("%s: list/watch failed: %s", self.source.kind, exc)
        self._wait_after_failure(self._failures)
        self._failures += 1

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
                    self.last_contact = time.monotonic()
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
            if not self._watch_failing:  # the apiserver answers again; a bad watch must prove itself by watching
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

    def _watch_once(self) -> bool:
        """Watch until the server ends the stream; True if it was a good watch (see the module docstring)."""
        events = self.source.watch(self.resource_version)
        opened = self.watch_opened_at = time.monotonic()
        delivered = False
        try:
            for event_type, obj in events:
                if self._stop.is_set():
                    return True
                if not isinstance(obj, Mapping) or not isinstance(obj.get("metadata", {}), Mapping):
                    raise MalformedEvent(f"{event_type} event without an object: {str(obj)[:80]!r}")
                self.last_contact = time.monotonic()
                if event_type in ("ADDED", "MODIFIED"):
                    with self._lock:
                        self._apply(obj)
                elif event_type == "DELETED":
                    with self._lock, contextlib.suppress(KeyError, TypeError):
                        self.store.delete(self.store.key_of(obj))
                elif event_type != "BOOKMARK":  # BOOKMARK carries only a resourceVersion, never object state
                    log.warning("%s: ignoring watch event of unknown type %r", self.source.kind, event_type)
                    continue
                if not delivered:  # the connection is proven good: end the failure run, reset the backoff
                    delivered = True
                    self._failures, self.failing_since, self._watch_failing = 0, None, False
                version = obj.get("metadata", {}).get("resourceVersion")
                if isinstance(version, str) and version:
                    self.resource_version = version
        finally:
            self.watch_opened_at = None
        good = delivered or time.monotonic() - opened >= GOOD_WATCH_SECONDS
        if good:
            self.last_contact = time.monotonic()  # the server ended a watch it served: nothing was missed
        return good

    def is_healthy(self, now: float, unhealthy_after: float, stale_after: float) -> bool:
        """Not failing for ``unhealthy_after`` seconds (a watch open ``GOOD_WATCH_SECONDS`` ends a failure
        run) and heard from within ``stale_after`` seconds."""
        opened = self.watch_opened_at
        recovered = opened is not None and now - opened >= GOOD_WATCH_SECONDS
        failing = self.failing_since is not None and not recovered and now - self.failing_since >= unhealthy_after
        stale = self.last_contact is None or now - self.last_contact >= stale_after
        return not failing and not stale
