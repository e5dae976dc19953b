"""/metrics: Prometheus text from the app's own registry, counting what the routes answered and what the view holds."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import AppFactory
from prometheus_client.parser import text_string_to_metric_families
from webhook_helpers import pod, priority_class, review

from webhook.cluster.static import StaticClusterView
from webhook.server.metrics import Metrics


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def test_metrics_count_requests_denials_and_cache_state(make_app: AppFactory, view: StaticClusterView) -> None:
    view.watch_restarts = 4
    client = make_app(view).test_client()
    client.post("/mutate/pods", json=review("Pod", "CREATE", pod()))
    client.post("/mutate/pods", json=review("Pod", "CREATE", pod()))
    client.post("/mutate/pods", json=review("Pod", "CREATE", pod(priorityClassName="nope")))
    client.post("/validate/priorityclasses", json=review("PriorityClass", "CREATE", priority_class("x", 10**9 + 1)))
    client.post("/validate/configmaps", data=b"junk")
    reply = client.get("/metrics")
    assert reply.status_code == 200 and reply.content_type.startswith("text/plain")
    samples = _samples(reply.get_data(as_text=True))

    create = {"operation": "CREATE", "dry_run": "false"}

    def value(name: str, **labels: str) -> float:
        return samples[(name, tuple(sorted(labels.items())))]

    assert value("binpack_guard_admission_requests_total", endpoint="pods", outcome="patched", **create) == 2
    assert value("binpack_guard_admission_requests_total", endpoint="pods", outcome="denied", **create) == 1
    assert value("binpack_guard_admission_requests_total", endpoint="priorityclasses", outcome="denied", **create) == 1
    assert value("binpack_guard_admission_requests_total", endpoint="configmaps", outcome="bad_request",
                 operation="unknown", dry_run="false") == 1
    assert value("binpack_guard_denials_total", endpoint="pods", reason="Forbidden") == 1
    assert value("binpack_guard_denials_total", endpoint="priorityclasses", reason="Invalid") == 1
    assert value("binpack_guard_admission_duration_seconds_count", endpoint="pods", outcome="patched", **create) == 2
    assert value("binpack_guard_cache_objects", resource="nodes") == view.stats()["nodes"] == 3
    assert value("binpack_guard_cache_objects", resource="priorityclasses") == 2
    assert value("binpack_guard_cache_synced") == 1
    assert value("binpack_guard_watch_restarts_total") == 4


def test_each_app_has_its_own_registry(make_app: AppFactory, view: StaticClusterView) -> None:
    first, second = make_app(view).test_client(), make_app(view).test_client()
    first.post("/mutate/pods", json=review("Pod", "UPDATE", pod(), pod()))
    key = ("binpack_guard_admission_requests_total",
           (("dry_run", "false"), ("endpoint", "pods"), ("operation", "UPDATE"), ("outcome", "allowed")))
    assert _samples(first.get("/metrics").get_data(as_text=True))[key] == 1
    assert key not in _samples(second.get("/metrics").get_data(as_text=True))


def test_unsynced_view_reports_zero(make_app: AppFactory, view: StaticClusterView) -> None:
    view.synced = False
    samples = _samples(make_app(view).test_client().get("/metrics").get_data(as_text=True))
    assert samples[("binpack_guard_cache_synced", ())] == 0


def test_multiprocess_mode_sums_every_worker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Two real processes record requests into one PROMETHEUS_MULTIPROC_DIR, as gunicorn workers do;
    # a third renders: it must see both shares, not only its own.
    record = (
        "from webhook.server.metrics import Metrics\n"
        "from webhook.cluster.static import StaticClusterView\n"
        "m = Metrics(StaticClusterView())\n"
        "for _ in range({n}): m.observe('pods', 'patched', 0.001)\n"
        "m.publish()\n"  # what each worker's publisher thread does every few seconds
    )
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    for n in (3, 5):
        subprocess.run([sys.executable, "-c", record.format(n=n)], env=env, check=True, timeout=60)
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    text = Metrics(StaticClusterView()).render().decode()
    labels = (("dry_run", "false"), ("endpoint", "pods"), ("operation", "unknown"), ("outcome", "patched"))
    assert _samples(text)[("binpack_guard_admission_requests_total", labels)] == 8
    assert len(re.findall(r'^binpack_guard_watch_restarts_total\{worker="\d+"\} 0\.0$', text, re.M)) == 2
    assert re.search(r"^binpack_guard_cache_synced 1\.0$", text, re.M)  # both workers' (static) views: synced


def test_requests_are_labelled_by_operation_and_dry_run(make_app: AppFactory, view: StaticClusterView) -> None:
    client = make_app(view).test_client()
    client.post("/mutate/pods", json=review("Pod", "CREATE", pod(), dry_run=True))
    client.post("/mutate/pods", json=review("Pod", "UPDATE", pod(), pod()))
    samples = _samples(client.get("/metrics").get_data(as_text=True))
    dry = (("dry_run", "true"), ("endpoint", "pods"), ("operation", "CREATE"), ("outcome", "patched"))
    update = (("dry_run", "false"), ("endpoint", "pods"), ("operation", "UPDATE"), ("outcome", "allowed"))
    assert samples[("binpack_guard_admission_requests_total", dry)] == 1
    assert samples[("binpack_guard_admission_requests_total", update)] == 1
