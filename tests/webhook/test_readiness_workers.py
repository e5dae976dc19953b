"""/readyz across gunicorn workers: one live worker whose cache is not ready makes the pod unready."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from replay_server import wait_until
from webhook_helpers import builtin_priority_classes

from webhook.admission.scheduler_models import SchedulerModels
from webhook.cluster.static import StaticClusterView
from webhook.server.app import create_app
from webhook.server.readiness import READINESS_DIR_ENV, all_workers_ready, publish
from webhook.settings import Settings


def test_a_live_unready_worker_makes_every_readyz_503(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(READINESS_DIR_ENV, str(tmp_path))
    mine = StaticClusterView(priority_classes=builtin_priority_classes())
    stop = threading.Event()
    publish(mine, tmp_path, stop)
    client = create_app(Settings(), mine, scheduler_models=SchedulerModels.static()).test_client()
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert wait_until(lambda: client.get("/readyz").status_code == 200)
        (tmp_path / f"ready-{other.pid}").write_text("0")  # a sibling worker that cannot list
        reply = client.get("/readyz")
        assert reply.status_code == 503 and reply.get_json()["allWorkersReady"] is False
        (tmp_path / f"ready-{other.pid}").write_text("1")
        assert client.get("/readyz").status_code == 200
        (tmp_path / f"ready-{other.pid}").write_text("0")
    finally:
        other.kill()
        other.wait()
    assert all_workers_ready(tmp_path)  # a dead worker's file no longer counts
    mine.synced = False
    assert wait_until(lambda: not all_workers_ready(tmp_path))  # this worker's own heartbeat says unready
    stop.set()
