"""The benchmark-only allow-all route (off by default), and the cheap log line and metrics paths."""

from __future__ import annotations

import io
import json
import logging
import os
import random
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from conftest import AppFactory
from webhook_helpers import pod, review

from webhook.cluster.static import StaticClusterView
from webhook.server.jsonlog import JsonFormatter, utc_timestamp
from webhook.server.routes import ALLOW_ALL_PATH
from webhook.settings import Settings, SettingsError


def test_allow_all_route_is_off_by_default(make_app: AppFactory, view: StaticClusterView) -> None:
    assert Settings().benchmark_routes is False
    reply = make_app(view).test_client().post(ALLOW_ALL_PATH, json=review("Pod", "CREATE", pod(), uid="off"))
    assert reply.status_code == 404 and "error" in reply.get_json()


def test_allow_all_route_allows_without_looking(
    make_app: AppFactory, view: StaticClusterView, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="webhook.requests")
    client = make_app(view, benchmark_routes=True).test_client()
    # a pod the real endpoint would deny (unknown class) is allowed untouched here
    document = review("Pod", "CREATE", pod(priorityClassName="missing"), uid="bench-1")
    reply = client.post(ALLOW_ALL_PATH, json=document)
    assert reply.status_code == 200
    assert reply.get_json()["response"] == {"uid": "bench-1", "allowed": True}
    assert client.post("/mutate/pods", json=document).get_json()["response"]["allowed"] is False
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "webhook.requests"]
    assert [(line["endpoint"], line["uid"], line["decision"]) for line in lines] == [
        ("bench_allow_all", "bench-1", "allowed"), ("pods", "bench-1", "denied")]
    # the same view code: bad input is still a 400 with one log line
    assert client.post(ALLOW_ALL_PATH, data=b"junk").status_code == 400
    metrics = client.get("/metrics").get_data(as_text=True)
    name = "binpack_guard_admission_requests_total"
    assert f'{name}{{dry_run="false",endpoint="bench_allow_all",operation="CREATE",outcome="allowed"}} 1.0' in metrics
    bad = 'dry_run="false",endpoint="bench_allow_all",operation="unknown",outcome="bad_request"'
    assert f"{name}{{{bad}}} 1.0" in metrics


@pytest.mark.parametrize(("raw", "expected"), [("true", True), ("1", True), ("Yes", True), ("false", False),
                                               ("0", False), ("off", False)])
def test_benchmark_routes_from_the_environment(raw: str, expected: bool) -> None:
    assert Settings.from_env({"BINPACK_GUARD_BENCHMARK_ROUTES": raw}).benchmark_routes is expected


def test_a_bad_boolean_names_the_variable() -> None:
    with pytest.raises(SettingsError, match="BINPACK_GUARD_BENCHMARK_ROUTES: must be true or false"):
        Settings.from_env({"BINPACK_GUARD_BENCHMARK_ROUTES": "maybe"})
    with pytest.raises(SettingsError, match="BINPACK_GUARD_BENCHMARK_ROUTES"):
        Settings(benchmark_routes="yes")  # type: ignore[arg-type]


def test_log_time_is_what_datetime_gives() -> None:
    rng = random.Random(7)
    moments = [rng.uniform(0, 4e9) for _ in range(20_000)]
    moments += [int(m) + frac for m in moments[:2000] for frac in (0.0, 0.0005, 0.9995, 0.9999996, 0.4999996)]
    for created in moments:
        assert utc_timestamp(created) == datetime.fromtimestamp(created, UTC).isoformat(timespec="milliseconds")


def test_admission_record_becomes_one_json_line() -> None:
    record = logging.LogRecord("webhook.requests", logging.INFO, __file__, 1, "unused", None, None)
    record.admission = {"event": "admission", "uid": "u-1", "name": "pod-ü", "latency_ms": 0.25}
    line = json.loads(JsonFormatter().format(record))
    assert line["uid"] == "u-1" and line["name"] == "pod-ü" and line["latency_ms"] == 0.25
    assert line["time"] == utc_timestamp(record.created) and line["level"] == "INFO" and "message" not in line
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.emit(record)
    assert stream.getvalue().count("\n") == 1


def test_webhook_bench_finds_its_review_under_binpack_guard_shared(tmp_path: Path) -> None:
    # the benchmark reads shared/ where the tests do: $BINPACK_GUARD_SHARED when set, not only beside the clone
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "webhook_bench.py"
    code = f"import runpy; print(runpy.run_path({str(script)!r}, run_name='webhook_bench')['POD_REVIEW'])"
    env = {**os.environ, "BINPACK_GUARD_SHARED": str(tmp_path / "elsewhere")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    expected = tmp_path / "elsewhere" / "fixtures" / "admission" / "priority-plugin-on" / "pod-create-known-class.json"
    assert Path(out.strip()) == expected
