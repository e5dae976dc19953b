"""``BINPACK_GUARD_SYNC_WAIT_SECONDS``: a worker whose cache cannot sync waits that long, then serves unready.

The real server (gunicorn, TLS) runs against an apiserver address where nothing listens, so its cache
never syncs. After the configured wait the worker takes connections: ``/healthz`` answers (the
chart's startupProbe then hands over to the liveness probe), ``/readyz`` and every review answer 503,
so no score from an empty cache is ever served.
"""

from __future__ import annotations

import http.client
import json
import ssl
from pathlib import Path

import pytest
from replay_server import wait_until
from server_helpers import ServerProcess, client_context, free_port, make_ca, make_leaf

pytestmark = pytest.mark.slow


def _get(context: ssl.SSLContext, address: tuple[str, int], method: str, path: str,
         body: bytes | None = None) -> int:
    conn = http.client.HTTPSConnection(*address, context=context, timeout=2)
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"})
        return conn.getresponse().status
    except OSError:
        return 0  # not answering yet: the worker is still waiting for its cache
    finally:
        conn.close()


def test_an_unsynced_worker_waits_then_serves_unready(tmp_path: Path) -> None:
    nowhere = {"apiVersion": "v1", "kind": "Config", "current-context": "c",
               "clusters": [{"name": "c", "cluster": {"server": f"http://127.0.0.1:{free_port()}"}}],
               "users": [{"name": "u", "user": {"token": "t"}}],
               "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}]}
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(json.dumps(nowhere))
    ca = make_ca("sync-wait CA")
    server = ServerProcess(tmp_path, kubeconfig, tls=make_leaf(ca), extra=["--workers", "1"],
                           env={"BINPACK_GUARD_SYNC_WAIT_SECONDS": "2"})
    try:
        server.wait_listening()
        context = client_context(ca)
        assert wait_until(lambda: _get(context, server.address, "GET", "/healthz") == 200, timeout=60), server.log()
        assert "cache not synced after 2s; serving unready (reviews get HTTP 503)" in server.log()
        assert _get(context, server.address, "GET", "/readyz") == 503
        review = {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
                  "request": {"uid": "u1", "kind": {"group": "", "version": "v1", "kind": "Pod"},
                              "operation": "CREATE", "object": {"kind": "Pod", "metadata": {"name": "p"}}}}
        assert _get(context, server.address, "POST", "/mutate/pods", json.dumps(review).encode()) == 503
    finally:
        server.stop()
