"""Race-free claim on "the one globalDefault PriorityClass" across webhook replicas and workers.

Two concurrent CREATEs of different ``globalDefault: true`` classes can both pass a check against a cache,
because neither object exists yet. So the PriorityClass policy claims a single shared record first: a
coordination.k8s.io Lease whose ``holderIdentity`` is the class name. Writes use the Lease's
resourceVersion (optimistic concurrency), so of N racing claimers exactly one create/replace succeeds; the
losers re-read and see the winner.

A holder stays valid while its class is still the default (``is_still_default``: the cache, else a live read) *or*
its claim is younger than ``grace``: the winner's own object does not exist until the apiserver has stored it
(after every admission webhook answered), so without the grace period a second claimer could read the lease,
find the holder "missing" and take over. The grace (15 s) covers the apiserver's admission chain (each webhook
call is bounded by its ``timeoutSeconds``, 3 s in the chart); after it, a claim naming a class that does not
exist blocks nobody.
A claim or release may be given ``until``, the review's deadline (``time.monotonic()``): every Lease request
then gets only the time left, and once it is spent the claim raises ``LeaseUnavailable`` saying so (the
policy denies, as for any Lease failure) instead of answering after the apiserver stopped waiting.
``KubeLeaseStore`` is the ``LeaseStore`` over the real Lease (its I/O goes through ``webhook.cluster.kubeclient``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import NamedTuple, Protocol

from webhook.cluster.kubeclient import ApiError, ClientConfiguration, LeaseClient

log = logging.getLogger(__name__)

RETRY_PAUSE = 0.05  # seconds between attempts after a transport error


class LeaseConflict(Exception):
    """The lease was created or changed by someone else since we read it (HTTP 409)."""


class LeaseUnavailable(Exception):
    """The lease could not be read or written (apiserver unreachable, forbidden, too much contention)."""


class OutOfTime(LeaseUnavailable):
    """The review's deadline passed before the Lease could be read or written."""


class LeaseRecord(NamedTuple):
    holder: str  # "" when released
    resource_version: str
    acquired: datetime | None


class LeaseStore(Protocol):
    """The Lease's I/O; ``timeout``: seconds the request may take at most (None: the store's own bound)."""

    def get(self, *, timeout: float | None = None) -> LeaseRecord | None: ...

    def create(self, holder: str, acquired: datetime, *, timeout: float | None = None) -> None:
        """Create the lease; raises LeaseConflict if it already exists."""
        ...

    def replace(
        self, holder: str, acquired: datetime, expected_resource_version: str, *, timeout: float | None = None
    ) -> None:
        """Overwrite the lease; raises LeaseConflict if its resourceVersion is no longer the expected one."""
        ...


def _utc_now() -> datetime:
    return datetime.now(UTC)


class LeaseDefaultClassClaim:
    """``DefaultClassClaim`` over a ``LeaseStore``; ``claim`` raises ``LeaseUnavailable`` if it cannot decide."""

    def __init__(
        self, store: LeaseStore, *, grace: timedelta = timedelta(seconds=15), max_attempts: int = 8,
        clock: Callable[[], datetime] = _utc_now, unavailable_budget: float = 3.0,
    ) -> None:
        self._store, self._grace, self._max_attempts, self._clock = store, grace, max_attempts, clock
        self._unavailable_budget = unavailable_budget  # seconds of retrying transport errors

    def claim(
        self, class_name: str, *, is_still_default: Callable[[str], bool], until: float | None = None
    ) -> str | None:
        """None if ``class_name`` now holds (or already held) the claim, else the name of the holder."""
        last_error: LeaseUnavailable | None = None
        started = time.monotonic()
        for _ in range(self._max_attempts):
            try:
                record = self._store.get(timeout=_time_left(until))
                now = self._clock()
                if record is None:
                    self._store.create(class_name, now, timeout=_time_left(until))
                    return None
                if record.holder == class_name:
                    return None
                if record.holder and (self._is_fresh(record, now) or is_still_default(record.holder)):
                    return record.holder
                self._store.replace(class_name, now, record.resource_version, timeout=_time_left(until))
                return None
            except LeaseConflict:
                continue  # someone else wrote first: re-read and judge their claim
            except OutOfTime:
                break
            except LeaseUnavailable as exc:
                # Retrying is safe: if a lost write did land, the re-read shows us as the holder. But the
                # apiserver waits for our answer (timeoutSeconds), so an outage gets a short budget only.
                last_error = exc
                moment = time.monotonic()
                if moment - started > self._unavailable_budget or (until is not None and moment >= until):
                    break
                time.sleep(RETRY_PAUSE if until is None else min(RETRY_PAUSE, until - moment))
        if until is not None and time.monotonic() >= until:
            after = f"; last error: {last_error}" if last_error is not None else ""
            raise OutOfTime(f"this review's time budget ran out before the claim was decided{after}")
        if last_error is not None:
            raise last_error
        raise LeaseUnavailable(f"globalDefault claim for {class_name!r}: still contended after "
                               f"{self._max_attempts} attempts")

    def release(self, class_name: str, *, until: float | None = None) -> None:
        """Best effort: clear the holder if it is ``class_name``; a lost race, an outage or the end of the
        review's time (``until``) is only logged."""
        try:
            record = self._store.get(timeout=_time_left(until))
            if record is not None and record.holder == class_name:
                self._store.replace("", self._clock(), record.resource_version, timeout=_time_left(until))
        except (LeaseConflict, LeaseUnavailable) as exc:
            log.info("globalDefault claim release for %r skipped: %s", class_name, exc)

    def _is_fresh(self, record: LeaseRecord, now: datetime) -> bool:
        if record.acquired is None:
            return False
        acquired = record.acquired if record.acquired.tzinfo else record.acquired.replace(tzinfo=UTC)
        return now - acquired < self._grace


def _time_left(until: float | None) -> float | None:
    """Seconds a Lease request may take: what is left until ``until`` (None without one, for the store's own
    bound); ``OutOfTime`` once it has passed."""
    if until is None:
        return None
    left = until - time.monotonic()
    if left <= 0:
        raise OutOfTime("this review's time budget ran out")
    return left


class KubeLeaseStore:
    """The ``LeaseStore`` over one coordination.k8s.io/v1 Lease, with resourceVersion optimistic concurrency."""

    def __init__(self, client_configuration: ClientConfiguration, namespace: str, name: str) -> None:
        self._lease, self.namespace, self.name = LeaseClient(client_configuration, namespace, name), namespace, name

    def get(self, *, timeout: float | None = None) -> LeaseRecord | None:
        try:
            found = self._lease.read(timeout)
        except ApiError as exc:
            raise LeaseUnavailable(f"lease {self.namespace}/{self.name}: HTTP {exc.status} {exc.reason}") from None
        except Exception as exc:
            raise LeaseUnavailable(f"lease {self.namespace}/{self.name}: {exc}") from None
        if found is None:
            return None
        holder, resource_version, acquired = found
        return LeaseRecord(holder=holder, resource_version=resource_version, acquired=acquired)

    def create(self, holder: str, acquired: datetime, *, timeout: float | None = None) -> None:
        self._write(lambda: self._lease.create(holder, acquired, timeout))

    def replace(
        self, holder: str, acquired: datetime, expected_resource_version: str, *, timeout: float | None = None
    ) -> None:
        self._write(lambda: self._lease.replace(holder, acquired, expected_resource_version, timeout))

    def _write(self, call: Callable[[], None]) -> None:
        try:
            call()
        except ApiError as exc:
            if exc.status == 409:  # AlreadyExists on create, Conflict on a stale resourceVersion
                raise LeaseConflict(f"lease {self.namespace}/{self.name} changed concurrently") from None
            raise LeaseUnavailable(f"lease {self.namespace}/{self.name}: HTTP {exc.status} {exc.reason}") from None
        except Exception as exc:
            raise LeaseUnavailable(f"lease {self.namespace}/{self.name}: {exc}") from None
