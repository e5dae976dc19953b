"""Prometheus metrics, one ``CollectorRegistry`` per app (no process-global state, so apps and tests never clash).

Request counters and latency histograms are labelled by endpoint, outcome, ``operation`` (CREATE, UPDATE,
DELETE, CONNECT; ``unknown`` when the body was not a readable review) and ``dry_run`` (true/false), and by outcome
(``allowed``, ``patched``, ``denied``, ``bad_request``, ``too_large``, ``unready``, ``error``);
denials by endpoint and Status reason. Cache gauges are read from the view at
scrape time.

Under gunicorn with several workers, ``binpack-webhook serve`` sets ``PROMETHEUS_MULTIPROC_DIR``
before anything imports prometheus_client: every worker then writes its counters and histograms
to files there, and a scrape answered by any worker sums all of them, so ``rate()`` stays right
whichever worker Prometheus reaches. The cache gauges come from the answering worker (every
worker holds the whole cluster); its watch-restart counter then carries a ``worker`` label so
each series stays monotonic.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
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
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class _CacheCollector(Collector):
    """Reads ``view.stats()`` / ``is_synced()`` when scraped."""

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
        help_text = "Watches restarted (errors, expiry, relists) since the process started."
        restarts = float(stats.get("watch_restarts", 0.0))
        if multiprocess_dir():
            per_worker = CounterMetricFamily("binpack_guard_watch_restarts", help_text, labels=["worker"])
            per_worker.add_metric([str(os.getpid())], restarts)
            yield per_worker
        else:
            yield CounterMetricFamily("binpack_guard_watch_restarts", help_text, value=restarts)


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
        self._cache_collector = _CacheCollector(view)
        self.registry.register(self._cache_collector)
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

    def render(self) -> bytes:
        shared = multiprocess_dir()
        if shared is None:
            return generate_latest(self.registry)
        registry = CollectorRegistry()  # every worker's request metrics, plus this worker's cache view
        MultiProcessCollector(registry, path=shared)  # type: ignore[no-untyped-call]
        registry.register(self._cache_collector)
        return generate_latest(registry)
