"""Prometheus metrics, one ``CollectorRegistry`` per app (no process-global state, so apps and tests never clash).

Request counters and latency histograms are labelled by endpoint, outcome, ``operation`` (CREATE, UPDATE,
DELETE, CONNECT; ``unknown`` when the body was not a readable review) and ``dry_run`` (true/false), and by outcome
(``allowed``, ``patched``, ``denied``, ``bad_request``, ``too_large``, ``unready``, ``busy``, ``error``);
denials by endpoint and Status reason. Cache gauges are read from the view at
scrape time.

Under gunicorn with several workers (or with a metrics listener), ``binpack-webhook serve`` sets
``PROMETHEUS_MULTIPROC_DIR`` before anything imports prometheus_client: every worker then writes its
counters and histograms to files there, and a scrape answered by any worker, or by the master's
plain-HTTP listener (:mod:`webhook.server.metricsport`), sums all of them, so ``rate()`` stays right
whichever process Prometheus reaches. The cache state is published to the same files by every worker
(:meth:`Metrics.publish`, every few seconds and before each scrape it answers): the gauges keep the
lowest value over the live workers (a pod is only as synced as its least-synced worker), and the
watch-restart counter carries a ``worker`` label so each series stays monotonic.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from webhook.admission.ports import ClusterView

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
CACHE_RESOURCES = ("nodes", "pods", "priorityclasses", "poddisruptionbudgets")
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


def multiprocess_dir() -> str | None:
    """The shared metrics directory when gunicorn runs several workers, else None."""
    return os.environ.get(MULTIPROC_ENV) or None
RESTARTS_HELP = "Watches restarted (errors, expiry, relists) since the process started."
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class _CacheCollector(Collector):
    """Reads ``view.stats()`` / ``is_synced()`` when scraped (single process; see _PublishedCache otherwise)."""

    def __init__(self, view: ClusterView) -> None:
        self._view = view

    def collect(self) -> Iterator[Metric]:
        stats = self._view.stats()
        objects = GaugeMetricFamily(
            "binpack_guard_cache_objects", "Objects held in the cluster cache, by resource.", labels=["resource"]
        )
        for resource in CACHE_RESOURCES:
            if resource in stats:
                objects.add_metric([resource], float(stats[resource]))
        yield objects
        yield GaugeMetricFamily(
            "binpack_guard_cache_synced",
            "1 once the first list of every watched resource has completed.",
            value=1.0 if self._view.is_synced() else 0.0,
        )
        yield CounterMetricFamily("binpack_guard_watch_restarts", RESTARTS_HELP,
                                  value=float(stats.get("watch_restarts", 0.0)))


class Metrics:
    """The app's registry and the instruments the routes update."""

    def __init__(self, view: ClusterView) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "binpack_guard_admission_requests",
            "Admission requests answered, by endpoint, outcome, operation and dry run.",
            ["endpoint", "outcome", "operation", "dry_run"],
            registry=self.registry,
        )
        self.duration = Histogram(
            "binpack_guard_admission_duration_seconds",
            "Time to answer an admission request, by endpoint, outcome, operation and dry run.",
            ["endpoint", "outcome", "operation", "dry_run"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.denials = Counter(
            "binpack_guard_denials",
            "Admission requests denied, by endpoint and Status reason.",
            ["endpoint", "reason"],
            registry=self.registry,
        )
        self._view = view
        self._cache_collector = _CacheCollector(view)
        self.registry.register(self._cache_collector)
        self._published: _PublishedCache | None = _PublishedCache() if multiprocess_dir() else None
        self._children: dict[tuple[str, str, str, str], tuple[Counter, Histogram]] = {}

    def observe(
        self, endpoint: str, outcome: str, seconds: float, denial_reason: str | None = None, *,
        operation: str = "unknown", dry_run: bool = False,
    ) -> None:
        key = (endpoint, outcome, operation, "true" if dry_run else "false")
        children = self._children.get(key)
        if children is None:  # a few dozen label sets: look each one's children up once
            children = (self.requests.labels(*key), self.duration.labels(*key))
            self._children[key] = children
        children[0].inc()
        children[1].observe(seconds)
        if denial_reason is not None:
            self.denials.labels(endpoint, denial_reason).inc()

    def publish(self) -> None:
        """Write this worker's cache state to the shared files (no-op in a single process)."""
        if self._published is not None:
            self._published.write(self._view)

    def render(self) -> bytes:
        shared = multiprocess_dir()
        if shared is None:
            return generate_latest(self.registry)
        self.publish()
        return render_shared(shared)


def render_shared(shared: str) -> bytes:
    """Every worker's metrics, summed from the multiprocess directory (any process may call it)."""
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=shared)  # type: ignore[no-untyped-call]
    return generate_latest(registry)


class _PublishedCache:
    """The cache gauges and watch-restart counter as multiprocess files (made after fork, in the worker)."""

    def __init__(self) -> None:
        # registry=None: the values live in the shared files, read by render_shared; not registering
        # lets several apps share one process (tests) without duplicate-metric errors
        self.objects = Gauge("binpack_guard_cache_objects", "Objects held in the cluster cache, by resource.",
                             ["resource"], multiprocess_mode="livemin", registry=None)
        self.synced = Gauge("binpack_guard_cache_synced",
                            "1 once the first list of every watched resource has completed.",
                            multiprocess_mode="livemin", registry=None)
        self.restarts = Counter("binpack_guard_watch_restarts", RESTARTS_HELP, ["worker"], registry=None)
        self._restarts_written = 0.0

    def write(self, view: ClusterView) -> None:
        stats = view.stats()
        for resource in CACHE_RESOURCES:
            if resource in stats:
                self.objects.labels(resource).set(float(stats[resource]))
        self.synced.set(1.0 if view.is_synced() else 0.0)
        restarts = float(stats.get("watch_restarts", 0.0))
        mine = self.restarts.labels(str(os.getpid()))  # the series exists from the first write, at 0
        if restarts > self._restarts_written:
            mine.inc(restarts - self._restarts_written)
            self._restarts_written = restarts
