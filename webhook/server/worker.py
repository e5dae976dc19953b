"""gunicorn's threaded (gthread) worker plus a per-request deadline against slow or stalled clients.

In gthread a request is read on a worker thread with a blocking socket and no timeout, and the arbiter's
``timeout`` only watches the worker's main loop. A client that sends half a header or half a body would
hold a thread forever, and a few of them would exhaust the pool. This worker records when each thread
took a connection and a watchdog shuts down the socket of any request still running after
``BINPACK_GUARD_REQUEST_TIMEOUT`` seconds (default 30, the apiserver's maximum webhook timeout: after that
nobody is waiting for the answer). The blocked read then fails and gunicorn closes the connection.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from typing import Any

from gunicorn.workers.gthread import ThreadWorker

REQUEST_TIMEOUT_ENV = "BINPACK_GUARD_REQUEST_TIMEOUT"
DEFAULT_REQUEST_TIMEOUT = 30.0


def request_timeout() -> float:
    raw = os.environ.get(REQUEST_TIMEOUT_ENV, "")
    return float(raw) if raw else DEFAULT_REQUEST_TIMEOUT


class DeadlineThreadWorker(ThreadWorker):  # type: ignore[misc]  # gunicorn is untyped
    def init_process(self) -> None:
        self._deadline = request_timeout()
        self._inflight: dict[int, tuple[float, Any]] = {}
        self._inflight_lock = threading.Lock()
        threading.Thread(target=self._watchdog, name="request-deadline", daemon=True).start()
        super().init_process()

    def handle(self, conn: Any) -> Any:
        token = id(conn)
        with self._inflight_lock:
            self._inflight[token] = (time.monotonic() + self._deadline, conn)
        try:
            return super().handle(conn)
        finally:
            with self._inflight_lock:
                self._inflight.pop(token, None)

    def _watchdog(self) -> None:
        tick = min(1.0, self._deadline / 4)
        while True:
            time.sleep(tick)
            now = time.monotonic()
            with self._inflight_lock:
                late = [token for token, (deadline, _) in self._inflight.items() if deadline <= now]
                late_conns = [self._inflight.pop(token)[1] for token in late]
            for conn in late_conns:
                self.log.warning("closing a connection from %s: request exceeded %.1fs", conn.client,
                                 self._deadline)
                # the plain-socket shutdown (not SSLSocket's) wakes the thread blocked in recv()
                with contextlib.suppress(OSError, TypeError):
                    socket.socket.shutdown(conn.sock, socket.SHUT_RDWR)
