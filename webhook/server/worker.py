"""The gunicorn worker: gevent (one greenlet per connection) with a deadline on every phase of a request.

Why gevent (the measurements are in ``docs/server.md``): with threads, every connection that has not yet
sent a whole request (a TLS handshake in progress, half a header, an idle new connection) pins a pool
thread, so a few hundred idle or slow clients stop the server. Here each connection is a greenlet, which
costs only memory while it waits, and the CPU work of a review (decode, numpy ranking, encode) is short,
so serving many waiting clients from one thread per process loses nothing. CPU-heavy work that is not
short (linting a ConfigMap) runs in a child process (``webhook.admission.decide.configmaps``).

Each connection's phases have their own deadline, so no client can hold one longer than it takes to
send an honest request:

* TLS handshake: ``HANDSHAKE_TIMEOUT`` seconds (the socket is wrapped here, per connection, with the
  *current* context, so certificate rotation keeps working; gevent's own server would fix the context at
  start);
* the request line and headers: ``BINPACK_GUARD_REQUEST_TIMEOUT`` on a new connection; ``keepalive``
  seconds between the requests of a kept-alive one (the apiserver's idle pool closes first);
* the body read, the policy and the response: ``BINPACK_GUARD_REQUEST_TIMEOUT`` again; after it the
  connection is closed without an answer (nobody is waiting any more: it is the apiserver's maximum
  webhook timeout by default).

Accepting is balanced across workers: a worker accepts new connections only while it holds no more
connections than the least-loaded worker (counts in shared memory, ``ConnectionBalance``), so the
apiserver's few kept-alive connections do not all land on one worker. Within a worker, connections take
turns: after each answer the worker yields, so a connection whose next request is already waiting does
not go ahead of the others.
"""

from __future__ import annotations

import contextlib
import json
import os
import ssl
import time
import warnings
from functools import partial
from typing import Any

import gevent
from gevent.monkey import MonkeyPatchWarning
from gevent.pool import Pool
from gevent.server import StreamServer
from gunicorn import util as gunicorn_util
from gunicorn.sock import ssl_context
from gunicorn.workers.ggevent import GeventWorker

from webhook.admission.encode import error_body
from webhook.server.balance import ConnectionBalance
from webhook.server.deadline import ARRIVAL

REQUEST_TIMEOUT_ENV = "BINPACK_GUARD_REQUEST_TIMEOUT"
DEFAULT_REQUEST_TIMEOUT = 30.0
# A TLS handshake is two round trips; 10 s is the apiserver's default webhook timeout, after which the
# request this handshake was for has failed anyway.
HANDSHAKE_TIMEOUT = 10.0
# How often a worker that stopped accepting looks again at the other workers' connection counts.
BALANCE_TICK = 0.02
_SERVED = "binpack_guard_served"  # set on a connection's greenlet once it has sent one whole request


def request_timeout() -> float:
    raw = os.environ.get(REQUEST_TIMEOUT_ENV, "")
    return float(raw) if raw else DEFAULT_REQUEST_TIMEOUT


def write_status_error(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's answer to a request it refused before the app saw it (a bad request line, method, version or
    header, a request line or header block over its limits), as a failed v1 ``Status`` instead of gunicorn's
    HTML page: the apiserver reads a non-2xx body only as a ``Status``. Same status line; the connection closes."""
    text = "".join(c if c.isprintable() else "?" for c in " ".join(mesg.split()))[:200] or reason
    body = json.dumps(error_body(text, None, status_int), separators=(",", ":")).encode()
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    gunicorn_util.write_nonblock(sock, head.encode("latin-1") + body)


class _RequestDeadline(BaseException):
    """Raised in a connection's greenlet when its current phase ran out of time. Not an ``Exception``, so
    the app's error handler cannot turn it into a 500: the connection is closed without an answer."""


class AdmissionWorker(GeventWorker):  # type: ignore[misc]  # gunicorn is untyped
    balance: ConnectionBalance | None = None  # set by gunicorn_conf.post_fork (shared across workers)

    def init_process(self) -> None:
        # gevent warns that ssl was imported before patching (gunicorn's master imports it). Harmless here:
        # no context made before the patch serves connections (gunicorn_conf builds the TLS context in
        # the worker, after it), and the warning would be a non-JSON line in the logs.
        warnings.filterwarnings("ignore", category=MonkeyPatchWarning)
        self._deadline = request_timeout()
        self._servers: list[StreamServer] = []
        # gunicorn's handle_error keeps choosing the status and logging; only the body it writes changes.
        # write_error has no other caller, and this runs in the worker process only.
        gunicorn_util.write_error = write_status_error
        super().init_process()  # monkey-patches, loads the app, then run()

    def timeout_ctx(self) -> Any:
        # gunicorn's bound on reading the next request line + headers (False: on expiry the connection is
        # just closed). A new connection gets the request timeout; a kept-alive one waits up to keepalive.
        served = getattr(gevent.getcurrent(), _SERVED, False)
        return gevent.Timeout(self.cfg.keepalive if served else self._deadline, False)

    def run(self) -> None:
        for listener in self.sockets:
            listener.setblocking(1)
            server = StreamServer(listener, handle=partial(self.handle, listener), spawn=Pool(self.worker_connections))
            server.max_accept = 1  # take one connection per wake-up, then let the balance decide again
            server.start()
            self._servers.append(server)
        if self.balance is not None:
            self.balance.serving(True)
            gevent.spawn(self._balance_loop)
        while self.alive:
            self.notify()
            gevent.sleep(1.0)
        self._drain()

    def _drain(self) -> None:
        if self.balance is not None:
            self.balance.serving(False)
        for server in self._servers:
            server.close()
        started = time.monotonic()
        while time.monotonic() - started <= self.cfg.graceful_timeout:
            if all(server.pool.free_count() == server.pool.size for server in self._servers):
                return
            self.notify()
            gevent.sleep(0.5)
        self.log.warning("Worker graceful timeout (pid:%s)", self.pid)
        for server in self._servers:
            server.stop(timeout=1)

    def _balance_loop(self) -> None:
        assert self.balance is not None
        accepting = True
        while self.alive:
            should = self.balance.may_accept()
            if should != accepting:
                for server in self._servers:
                    if server.started:
                        (server.start_accepting if should else server.stop_accepting)()
                accepting = should
            gevent.sleep(BALANCE_TICK)

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        if self.balance is not None:
            self.balance.opened()
        try:
            client.setblocking(1)
            if self.cfg.is_ssl:
                client = self._handshake(client, addr)
                if client is None:
                    return
            super(GeventWorker, self).handle(listener, client, addr)
        finally:
            if self.balance is not None:
                self.balance.closed()

    def _handshake(self, client: Any, addr: Any) -> Any:
        try:
            with gevent.Timeout(HANDSHAKE_TIMEOUT, _RequestDeadline):
                # the current context (the reloading TLS context in gunicorn_conf), handshake in this greenlet
                return ssl_context(self.cfg).wrap_socket(client, server_side=True)
        except (_RequestDeadline, ssl.SSLError, OSError) as exc:
            self.log.debug("TLS handshake with %s failed: %s", addr, exc)
            with contextlib.suppress(OSError):
                client.close()
            return None

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> bool:
        # The request's arrival (its headers are read): every time budget of the review counts from here.
        stamp = ARRIVAL.set(time.monotonic())
        setattr(gevent.getcurrent(), _SERVED, True)
        timer = gevent.Timeout(self._deadline, _RequestDeadline)
        timer.start()
        try:
            super().handle_request(listener_name, req, sock, addr)
        except _RequestDeadline:
            self.log.warning("closing a connection from %s: request exceeded %.1fs", addr, self._deadline)
            raise StopIteration() from None
        finally:
            timer.close()
            ARRIVAL.reset(stamp)
        # The answer is sent and the connection stays open (a closing one raised StopIteration). Let every
        # other connection with a request waiting go first: this one's next request may already be read
        # into gunicorn's buffer or the socket's, and serving it now would let one busy connection hold the
        # worker while the others wait (docs/server.md, "Fairness").
        gevent.sleep(0)
        return True
