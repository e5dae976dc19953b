"""gunicorn's app factory: Settings from the environment -> ClusterCache + Lease claim -> ``create_app``.

Run as ``gunicorn -c python:webhook.server.gunicorn_conf 'webhook.server.wsgi:application()'`` or through
``binpack-webhook serve`` (which uses the same two modules). ``application()`` runs in each worker after
fork (``preload_app`` is off), so each worker owns its cache threads and client connections; the
cache is started by ``gunicorn_conf.post_worker_init`` and stopped by ``worker_exit``.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from flask import Flask

from webhook.cluster.cache import ClusterCache
from webhook.cluster.dumpfile import DumpClusterView
from webhook.cluster.lease import KubeLeaseStore, LeaseDefaultClassClaim
from webhook.server.app import create_app
from webhook.server.metrics import multiprocess_dir
from webhook.server.readiness import publish, readiness_dir
from webhook.server.routes import EXTENSION, Deps
from webhook.settings import Settings

CACHE_EXTENSION = "binpack_guard.cache"
SERVICE_ACCOUNT_NAMESPACE = Path("/var/run/secrets/kubernetes.io/serviceaccount/namespace")


def lease_namespace(settings: Settings) -> str | None:
    """The configured namespace, else the pod's own namespace when running in a cluster."""
    if settings.lease_namespace:
        return settings.lease_namespace
    try:
        return SERVICE_ACCOUNT_NAMESPACE.read_text().strip() or None
    except OSError:
        return None


def build(settings: Settings) -> tuple[Flask, ClusterCache | None]:
    """The app wired to a (not yet started) cache; without a Lease namespace there is no cross-replica claim.
    With ``cluster_file`` the view is the dump (no apiserver, no cache, no claim)."""
    if settings.cluster_file:
        return create_app(settings, DumpClusterView(settings.cluster_file)), None
    cache = ClusterCache.from_kubeconfig(settings.kubeconfig, freeze_gc=True)
    namespace = lease_namespace(settings)
    claim = None
    if namespace:
        store = KubeLeaseStore(cache.client_configuration, namespace, settings.lease_name)
        claim = LeaseDefaultClassClaim(store)
    app = create_app(settings, cache, default_class_claim=claim)
    app.extensions[CACHE_EXTENSION] = cache
    return app, cache


def application() -> Flask:
    app, _ = build(Settings.from_env(os.environ))
    return app


_heartbeat_stop = threading.Event()


def start_cache(app: object) -> None:
    cache = getattr(app, "extensions", {}).get(CACHE_EXTENSION)
    if isinstance(cache, ClusterCache):
        cache.start()
        shared = readiness_dir()
        if shared is not None:  # several workers: publish this one's readiness for the others' /readyz
            publish(cache, shared, _heartbeat_stop)


METRICS_PUBLISH_SECONDS = 5.0


def start_metrics_publisher(app: object) -> None:
    """With shared metrics files, write this worker's cache gauges there every few seconds, so a
    scrape of the master's metrics listener sees them (webhook.server.metrics.Metrics.publish)."""
    deps = getattr(app, "extensions", {}).get(EXTENSION)
    if not isinstance(deps, Deps) or multiprocess_dir() is None:
        return

    def loop() -> None:
        while True:
            deps.metrics.publish()
            if _heartbeat_stop.wait(METRICS_PUBLISH_SECONDS):
                return

    threading.Thread(target=loop, name="metrics-publisher", daemon=True).start()


def wait_for_sync(app: object, heartbeat: Callable[[], object], limit: float) -> bool:
    """Block until this worker's cache has synced (at most ``limit`` seconds), calling ``heartbeat``
    every second so gunicorn's arbiter does not take the wait for a wedged worker."""
    cache = getattr(app, "extensions", {}).get(CACHE_EXTENSION)
    if not isinstance(cache, ClusterCache):
        return True
    deadline = time.monotonic() + limit
    while not cache.wait_synced(timeout=1.0):
        heartbeat()
        if time.monotonic() >= deadline:
            return False
    return True


def stop_cache(app: object) -> None:
    _heartbeat_stop.set()
    cache = getattr(app, "extensions", {}).get(CACHE_EXTENSION)
    if isinstance(cache, ClusterCache):
        cache.stop()
