"""gunicorn configuration for the webhook.

Run as ``gunicorn -c python:webhook.server.gunicorn_conf 'webhook.server.wsgi:application()'``.

Values come from the same ``BINPACK_GUARD_*`` environment the app reads (``binpack-webhook serve`` sets
them from its flags). Every setting says why it has its value.
"""

from __future__ import annotations

import os
import ssl
from typing import Any

from webhook.server import wsgi
from webhook.server.balance import WorkerSlots
from webhook.server.jsonlog import logconfig_dict as json_logconfig
from webhook.server.tls import ReloadingTLSContext, load_when_usable
from webhook.settings import Settings

_settings = Settings.from_env(os.environ)  # one parse, so gunicorn and the app agree on every value

# Where the apiserver reaches us; the Service targets this port (8443: unprivileged, conventional for TLS).
bind = [_settings.bind]

# Processes. Scoring is CPU-bound Python, so real parallelism needs processes, not threads.
workers = _settings.workers

# gevent workers: one greenlet per connection, so idle, slow or half-handshaked clients cost memory, not a
# thread. With threads (gthread) the TLS handshake and the first read run on a pool thread: 40 idle
# connections failed health probes and 200 stopped the server. The subclass adds a deadline to every phase
# of a connection and balances connections across workers (see webhook.server.worker, docs/server.md).
worker_class = "webhook.server.worker.AdmissionWorker"

# Unused by the gevent worker (kept so old settings still parse); a worker serves all its connections.
threads = _settings.threads

# Open connections per worker, idle ones included. A held TLS connection costs about 100 KiB of worker
# RSS (greenlet plus TLS state, measured with 1,000 held), so 1,000 per worker caps that at ~100 MiB,
# inside the chart's memory limit, while far exceeding what the apiserver opens. Past it the worker
# stops accepting until one closes; the per-phase deadlines (worker.py) make every slot come free.
worker_connections = 1000

# Keep idle connections longer than the apiserver's client idle timeout (Go's default 90s), so the client
# closes first and never sends a request on a connection we are closing (which would fail the admission).
keepalive = 95

# Arbiter heartbeat: the worker's main greenlet pings every second, so 30s without one means the worker is wedged.
timeout = 30

# On SIGTERM let in-flight reviews finish; the apiserver's own timeout is at most 30s.
graceful_timeout = 30

# Each worker must build its own cache and threads after fork (threads and sockets do not survive fork).
preload_app = False

# Request limits: AdmissionReview headers are small; these defaults reject junk early.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190

# HTTP/1.1 only: the worker's request path is HTTP/1.1 and the apiserver is happy with it.
http_protocols = "h1"

# TLS is on when both files are given. gunicorn calls ssl_context() for every accepted connection; the
# reloading context re-reads the files when they change on disk (cert-manager / our certs command rotate
# them), so rotation needs no restart and open connections keep their certificate.
certfile = _settings.tls_cert_file
keyfile = _settings.tls_private_key_file
_tls: ReloadingTLSContext | None = None


def ssl_context(conf: Any, default_ssl_context_factory: Any) -> ssl.SSLContext:
    # TLS 1.2 minimum and the current certificate; only called when certfile/keyfile are set. The context
    # is built in post_worker_init, in the worker after gevent has patched ssl: a context made in the master
    # would wrap sockets with the unpatched SSLSocket, whose handshake blocks the whole worker.
    assert _tls is not None, "post_worker_init loads the TLS files before the worker accepts"
    return _tls.current()


def _load_tls(worker: Any) -> None:
    # Before the worker accepts: built lazily on the first connection instead, a worker whose first
    # connection came while the files were mid-rotation had no certificate at all and reset every client.
    global _tls
    if _settings.tls_cert_file and _settings.tls_private_key_file:
        _tls = load_when_usable(_settings.tls_cert_file, _settings.tls_private_key_file, heartbeat=worker.notify,
                                client_ca_file=_settings.client_ca_file,
                                client_cert_required=_settings.client_cert_required)


# The worker wraps each connection itself and handshakes in that connection's greenlet with a deadline.
do_handshake_on_connect = True

# Logs: one JSON object per line on stderr. The routes log every review (uid, kind, operation, decision,
# latency), so gunicorn's access log would only duplicate them.
loglevel = _settings.log_level.lower()
logconfig_dict = json_logconfig(_settings.log_level)
accesslog = None
errorlog = "-"


# No runtime control socket: nothing uses it, and the container's home directory may be read-only.
control_socket_disable = True


def when_ready(server: Any) -> None:
    # In the master, once its sockets are bound: the plain-HTTP metrics listener (webhook.server.metricsport).
    shared = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if _settings.metrics_bind and shared:
        from webhook.server.metricsport import start_metrics_server

        start_metrics_server(_settings.metrics_bind, shared)
        server.log.info("metrics on http://%s/metrics", _settings.metrics_bind)


def post_worker_init(worker: Any) -> None:
    # The app (built in this worker by wsgi.application()) gets its cache threads now, after fork.
    wsgi.start_cache(worker.wsgi)
    wsgi.start_metrics_publisher(worker.wsgi)
    # Each worker has its own cache, but the pod's readiness is answered by whichever worker takes the
    # probe. A worker that took connections before its sync would score against an empty cluster while
    # the pod already looks Ready, so it accepts nothing until it has synced (bounded: after the limit it
    # serves anyway, answering reviews with HTTP 503 and making every worker's /readyz 503 through
    # webhook.server.readiness until it syncs). Heartbeats keep the arbiter patient.
    limit = _settings.sync_wait_seconds  # BINPACK_GUARD_SYNC_WAIT_SECONDS; the chart's startupProbe follows it
    if not wsgi.wait_for_sync(worker.wsgi, heartbeat=worker.notify, limit=limit):
        worker.log.warning("cache not synced after %ds; serving unready (reviews get HTTP 503)", limit)
    # A scheduler config that went bad after the server started: wait for a good one (the other workers keep
    # their last good model) rather than serve without a model.
    wsgi.wait_for_models(worker.wsgi, heartbeat=worker.notify)
    # Last, so a rotation that started during the sync has had the sync's time to finish.
    _load_tls(worker)


# Connection counts shared by the workers (created here, in the master, before any fork).
_slots = WorkerSlots()


def pre_fork(server: Any, worker: Any) -> None:
    # In the master: give the new worker its slot in the shared connection table.
    worker.balance = _slots.assign(worker.age)


def child_exit(server: Any, worker: Any) -> None:
    _slots.release(worker.age)
    # A dead worker's live-gauge files must go; its counters stay in the sum, so totals never drop.
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]


def worker_exit(server: Any, worker: Any) -> None:
    # Stop the watches so the worker exits promptly instead of waiting on open streams.
    wsgi.stop_cache(getattr(worker, "wsgi", None))
