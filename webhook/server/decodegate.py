"""Bounds the request bytes a worker holds decoded at once, so concurrent large reviews cannot add up.

``json.loads`` builds Python objects up to about 25 times the body's size (7 MiB of ``{},`` is 176 MiB of
dicts), and a review stays decoded while its decision waits: a ConfigMap for its lint child or for another
ConfigMap's, a pod for a live PriorityClass read, a PriorityClass for the Lease. Six 7 MiB ConfigMap
reviews on one worker held 1.1 GiB, past the chart's 1 GiB memory limit. A review is decoded only while
the bodies being decoded and decided plus its own stay within ``capacity`` (the body limit plus
``RESERVE``: one review of the largest size and ordinary ones beside it), or when nothing else is.
Otherwise it waits, at most ``WAIT_SECONDS`` after the review's arrival and never past the end of its time
budget (``webhook.server.deadline``), and is then answered 503.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from webhook.server.deadline import remaining

RESERVE = 1024 * 1024  # room for ordinary reviews (a few KiB each) while one of the largest size is in
WAIT_SECONDS = 2.5  # the chart's webhook timeouts are 3 s: after that the apiserver has stopped waiting


class DecodeGate:
    def __init__(self, capacity: int, wait_seconds: float = WAIT_SECONDS) -> None:
        self.capacity, self.wait_seconds = capacity, wait_seconds
        self._in_use = 0
        self._changed: threading.Condition | None = None  # made on first use: after gevent's patching

    @contextmanager
    def admitted(self, size: int, until: float | None = None) -> Iterator[bool]:
        """Yields True once ``size`` bytes fit (then held until the block ends), False after the wait: until
        ``until`` (``time.monotonic()``), else ``wait_seconds`` from now."""
        timeout = self.wait_seconds if until is None else remaining(until, time.monotonic())
        if self._changed is None:
            self._changed = threading.Condition()
        changed = self._changed
        with changed:
            admitted = changed.wait_for(lambda: self._in_use == 0 or self._in_use + size <= self.capacity,
                                        timeout=timeout)
            if admitted:
                self._in_use += size
        try:
            yield admitted
        finally:
            if admitted:
                with changed:
                    self._in_use -= size
                    changed.notify_all()
