"""A worker restarted after an input went bad waits for a good one; the server and its other workers go on.

gunicorn stops the whole server when a worker fails to boot. A worker builds its scheduler models and its
``--cluster-file`` view after the server has started, so an input that was fine at start and is bad now
(a ConfigMap edited to an invalid config, a dump being rewritten) used to take the server down the first
time any worker restarted (a crash, an OOM kill, gunicorn's timeout), healthy workers included. Here one
worker is killed while the input is bad: the server must stay up, the other worker (where there is one) keep
answering, and the new worker start serving once the input is good again.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import ssl
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from paths import SHARED
from replay_server import ReplayServer, wait_until
from server_helpers import ServerProcess, client_context, make_ca, make_leaf

from webhook.cluster.dumpfile import DumpClusterView

ROOT = Path(__file__).resolve().parents[2]
DOCS_CLUSTER = ROOT / "examples/explain/docs-cluster.yaml"
REVIEW = SHARED / "fixtures/admission/priority-plugin-on/pod-create-known-class.json"
GOOD = ("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
        "- schedulerName: default-scheduler\n")
# A score weight kube-scheduler refuses: the profile's total score could overflow.
BAD = GOOD + "  plugins: {score: {enabled: [{name: NodeResourcesFit, weight: -3}]}}\n"


def _write(path: Path, text: str, bump: int) -> None:
    path.write_text(text)
    stat = path.stat()  # a new mtime even within the file system's timestamp granularity
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + bump * 1_000_000_000))


def _pod_review(base: str, context: ssl.SSLContext | None) -> int:
    request = urllib.request.Request(f"{base}/mutate/pods", data=REVIEW.read_bytes(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10, context=context) as response:
            status: int = response.status
            return status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return 0


def _kill_one_worker(server: ServerProcess) -> int:
    """Kill one worker and wait for gunicorn to have as many as before."""
    workers = server.worker_pids()
    victim = workers[0]
    os.kill(victim, signal.SIGKILL)
    assert wait_until(lambda: victim not in server.worker_pids() and len(server.worker_pids()) == len(workers),
                      timeout=30)
    return victim


@pytest.mark.slow
def test_a_scheduler_config_gone_bad_does_not_stop_the_server(replay: ReplayServer, tmp_path: Path) -> None:
    config = tmp_path / "scheduler.yaml"
    _write(config, GOOD, 0)
    ca = make_ca("inputs CA")
    server = ServerProcess(tmp_path, replay.kubeconfig(tmp_path / "kubeconfig"), tls=make_leaf(ca),
                           extra=["--workers", "2", "--scheduler-config", str(config)])
    base, context = "https://{}:{}".format(*server.address), client_context(ca)
    try:
        server.wait_listening()
        assert wait_until(lambda: server.log().count("cluster cache synced") == 2, timeout=60), server.log()
        assert wait_until(lambda: _pod_review(base, context) == 200, timeout=30)
        _write(config, BAD, 5)
        _kill_one_worker(server)
        waiting = "scheduler config not usable yet (waiting for it before taking connections): " + str(config)
        assert wait_until(lambda: waiting in server.log(), timeout=60), server.log()
        assert server.proc.poll() is None, server.log()
        # the surviving worker answers with its last good model; the waiting one takes no connection
        assert all(_pod_review(base, context) == 200 for _ in range(5)), server.log()
        loaded = f"scheduler config {config} loaded"
        before = server.log_path.read_text(errors="replace").count(loaded)
        _write(config, GOOD.replace("default-scheduler", "default-scheduler\n  percentageOfNodesToScore: 50"), 10)
        assert wait_until(lambda: server.log_path.read_text(errors="replace").count(loaded) > before, timeout=30)
        assert server.proc.poll() is None and len(server.worker_pids()) == 2
        assert _pod_review(base, context) == 200
        assert "Traceback" not in server.log_path.read_text(errors="replace")
    finally:
        server.stop()


@pytest.mark.slow
def test_a_cluster_file_gone_bad_does_not_stop_the_server(tmp_path: Path) -> None:
    dump = tmp_path / "cluster.yaml"
    shutil.copy(DOCS_CLUSTER, dump)
    # One worker: with two, the second may still be booting when the file goes bad, and which of them the
    # test kills and which one a review reaches would be up to the machine's timing. (Another worker keeping
    # its good state while one waits is the scheduler config test's part.)
    server = ServerProcess(tmp_path, tmp_path / "no-kubeconfig", tls=None,
                           extra=["--cluster-file", str(dump), "--workers", "1"],
                           env={"BINPACK_GUARD_SYNC_WAIT_SECONDS": "2"})
    base = "http://{}:{}".format(*server.address)
    try:
        server.wait_listening()
        assert wait_until(lambda: _pod_review(base, None) == 200, timeout=30)
        good = dump.read_text()
        _write(dump, "apiVersion: v1\nkind: List\nitems: []\n", 5)
        _kill_one_worker(server)
        # after BINPACK_GUARD_SYNC_WAIT_SECONDS the new worker serves unready: its reviews get 503
        assert wait_until(lambda: "cluster file not usable (unsynced until a good one is there)" in server.log(),
                          timeout=30), server.log()
        assert wait_until(lambda: "serving unready" in server.log(), timeout=30), server.log()
        assert server.proc.poll() is None, server.log()
        assert {_pod_review(base, None) for _ in range(5)} == {503}, server.log()  # unsynced, never wrong
        _write(dump, good, 10)
        # a dump view looks at its file again when it is used (at most once a second): reviews bring it in
        assert wait_until(lambda: _pod_review(base, None) == 200, timeout=30), server.log()
        assert f"cluster file {dump} loaded" in server.log_path.read_text(errors="replace")
        assert all(_pod_review(base, None) == 200 for _ in range(10)), server.log()
        assert server.proc.poll() is None
    finally:
        server.stop()


def test_a_dump_view_built_unstrict_on_a_bad_file_is_unsynced_until_the_file_is_good(tmp_path: Path) -> None:
    dump = tmp_path / "cluster.yaml"
    _write(dump, "apiVersion: v1\nkind: List\nitems: []\n", 0)
    view = DumpClusterView(str(dump), check_interval=0.0, strict=False)
    assert view.is_synced() is False and view.stats()["synced"] == 0.0
    assert json.dumps(dict(view.priority_classes())) == "{}"
    _write(dump, DOCS_CLUSTER.read_text(), 5)
    assert view.is_synced() is True and view.stats()["synced"] == 1.0
    assert view.priority_classes()


def test_a_strict_dump_view_refuses_a_bad_file(tmp_path: Path) -> None:
    from webhook.cluster.dumpfile import DumpFileError

    dump = tmp_path / "cluster.yaml"
    _write(dump, "apiVersion: v1\nkind: List\nitems: []\n", 0)
    with pytest.raises(DumpFileError, match="no Node objects found"):
        DumpClusterView(str(dump))
