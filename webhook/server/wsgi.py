"""gunicorn's app factory: Settings from the environment -> ClusterCache + Lease claim -> ``create_app``.

Run as ``gunicorn -c python:webhook.server.gunicorn_conf 'webhook.server.wsgi:application()'`` or through
``binpack-webhook serve`` (which uses the same two modules). ``application()`` runs in each worker after
fork (``preload_app`` is off), so each worker owns its cache threads and client connections; the
cache is started by ``gunicorn_conf.post_worker_init`` and stopped by ``worker_exit``.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from flask import Flask

from webhook.admission.scheduler_models import SchedulerModels
from webhook.cluster.cache import ClusterCache
from webhook.cluster.dumpfile import DumpClusterView
from webhook.cluster.lease import KubeLeaseStore, LeaseDefaultClassClaim
from webhook.server.app import create_app
from webhook.server.metrics import multiprocess_dir
from webhook.server.readiness import publish, readiness_dir
from webhook.server.routes import EXTENSION, Deps
from webhook.settings import Settings

log = logging.getLogger(__name__)

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
    # Not strict: a config file that went bad after the server started must not stop this worker from
    # booting (gunicorn would then stop the whole server); post_worker_init waits for it instead.
    models = SchedulerModels(settings.scheduler_config, settings.volcano_config, settings.scheduler_build,
                             strict=False)
    if settings.cluster_file:
        view = DumpClusterView(settings.cluster_file, strict=False)
        return create_app(settings, view, scheduler_models=models), None
    cache = ClusterCache.from_kubeconfig(settings.kubeconfig, freeze_gc=True)
    namespace = lease_namespace(settings)
    claim = None
    if namespace:
        store = KubeLeaseStore(cache.client_configuration, namespace, settings.lease_name)
        claim = LeaseDefaultClassClaim(store)
    app = create_app(settings, cache, default_class_claim=claim, scheduler_models=models)
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


# How often a worker waiting for its inputs (a dump, a scheduler config) looks again, and says so in the log.
POLL_SECONDS = 0.25
WARN_EVERY_SECONDS = 10.0


def wait_for_sync(app: object, heartbeat: Callable[[], object], limit: float) -> bool:
    """Block until this worker's cluster view has synced (at most ``limit`` seconds), calling ``heartbeat``
    every second or more often so gunicorn's arbiter does not take the wait for a wedged worker. The view is
    the cache, or a ``--cluster-file`` dump that was not usable when this worker started."""
    extensions = getattr(app, "extensions", {})
    deadline = time.monotonic() + limit
    cache = extensions.get(CACHE_EXTENSION)
    if isinstance(cache, ClusterCache):
        while not cache.wait_synced(timeout=1.0):
            heartbeat()
            if time.monotonic() >= deadline:
                return False
        return True
    deps = extensions.get(EXTENSION)
    if isinstance(deps, Deps) and isinstance(deps.view, DumpClusterView):
        while not deps.view.is_synced():
            heartbeat()
            if time.monotonic() >= deadline:
                return False
            time.sleep(POLL_SECONDS)
    return True


def wait_for_models(app: object, heartbeat: Callable[[], object], *, poll: float = POLL_SECONDS,
                    warn_every: float = WARN_EVERY_SECONDS) -> None:
    """Block until this worker has a model for every scheduler config file, calling ``heartbeat`` on every
    try. Without one it could not score a pod; the other workers keep serving with their last good model."""
    deps = getattr(app, "extensions", {}).get(EXTENSION)
    if not isinstance(deps, Deps):
        return
    warned_at: float | None = None
    while missing := deps.models.missing():
        now = time.monotonic()
        if warned_at is None or now - warned_at >= warn_every:
            log.warning("scheduler config not usable yet (waiting for it before taking connections): %s",
                        ", ".join(missing))
            warned_at = now
        heartbeat()
        time.sleep(poll)


def stop_cache(app: object) -> None:
    _heartbeat_stop.set()
    cache = getattr(app, "extensions", {}).get(CACHE_EXTENSION)
    if isinstance(cache, ClusterCache):
        cache.stop()
