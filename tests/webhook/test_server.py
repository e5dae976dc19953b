"""The real server: ``binpack-webhook serve`` (gunicorn, gthread, TLS) over a cache fed by the replay server.

Answers are compared with the in-process app built over a ``StaticClusterView`` of the same recorded
objects, so the HTTP/TLS/gunicorn/cache path must not change a single byte of any decision.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import ssl
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from paths import SHARED
from replay_server import ReplayServer, fixture_bytes, wait_until
from server_helpers import KeyPair, ServerProcess, client_context, free_port, make_ca, make_leaf

from webhook.admission.scheduler_models import SchedulerModels
from webhook.cluster.static import StaticClusterView
from webhook.server.app import create_app
from webhook.server.tls import TLS12_CIPHERS, build_server_context
from webhook.settings import Settings

pytestmark = pytest.mark.slow

ADMISSION = SHARED / "fixtures/admission/priority-plugin-on"
REPRESENTATIVE = {
    "/mutate/pods": ["pod-create-known-class.json", "pod-create-init-and-sidecar.json",
                     "pod-create-extended-resource-gpu.json", "pod-create-no-class-with-default.json"],
    "/validate/priorityclasses": ["priorityclass-create-plain.json", "priorityclass-create-global-default.json",
                                  "priorityclass-delete-global-default.json"],
    "/validate/configmaps": ["configmap-create-kube-scheduler-config.json",
                             "configmap-update-kube-scheduler-config.json"],
}


def request(context: ssl.SSLContext, address: tuple[str, int], method: str, path: str,
            body: bytes | None = None) -> tuple[int, Any]:
    conn = http.client.HTTPSConnection(*address, context=context, timeout=10)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


@pytest.fixture(scope="module")
def replay() -> Iterator[ReplayServer]:
    server = ReplayServer().serve_fixtures().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def ca() -> KeyPair:
    return make_ca("binpack-guard test CA")


@pytest.fixture(scope="module")
def server(replay: ReplayServer, ca: KeyPair, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("server")
    metrics_port = free_port()
    proc = ServerProcess(tmp, replay.kubeconfig(tmp / "kubeconfig"), tls=make_leaf(ca),
                         extra=["--workers", "2", "--threads", "2", "--request-timeout", "5",
                                "--metrics-bind", f"127.0.0.1:{metrics_port}"])
    proc.metrics_port = metrics_port  # type: ignore[attr-defined]
    proc.wait_listening()
    yield proc
    proc.stop()


def plain_get(port: int, path: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read().decode()
    finally:
        conn.close()


def test_health_and_readiness_over_tls(server: ServerProcess, ca: KeyPair) -> None:
    context = client_context(ca)
    assert request(context, server.address, "GET", "/healthz") == (200, {"status": "ok"})
    assert wait_until(lambda: request(context, server.address, "GET", "/readyz")[0] == 200, timeout=20)
    assert request(context, server.address, "GET", "/readyz")[1] == {"synced": True, "healthy": True,
                                                                     "allWorkersReady": True}


def test_server_context_refuses_anything_older_than_tls_1_2(tmp_path: Path, ca: KeyPair) -> None:
    leaf = make_leaf(ca)
    (tmp_path / "c.pem").write_bytes(leaf.cert_pem)
    (tmp_path / "k.pem").write_bytes(leaf.key_pem)
    context = build_server_context(str(tmp_path / "c.pem"), str(tmp_path / "k.pem"))
    assert context.minimum_version == ssl.TLSVersion.TLSv1_2
    # TLS 1.2 offers exactly the explicit list; nothing without forward secrecy or AEAD
    tls12 = {c["name"] for c in context.get_ciphers() if c["protocol"] == "TLSv1.2"}
    assert tls12 and tls12 <= set(TLS12_CIPHERS.split(":"))


def test_tls_versions_and_keep_alive(server: ServerProcess, ca: KeyPair) -> None:
    capped = client_context(ca, maximum=ssl.TLSVersion.TLSv1_2)
    conn = http.client.HTTPSConnection(*server.address, context=capped, timeout=10)
    try:
        conn.request("GET", "/healthz")
        conn.getresponse().read()
        first_socket = conn.sock
        assert isinstance(first_socket, ssl.SSLSocket)
        assert first_socket.version() == "TLSv1.2"
        conn.request("GET", "/healthz")
        assert conn.getresponse().status == 200
        assert conn.sock is first_socket  # the second request reused the kept-alive connection
    finally:
        conn.close()
    with socket.create_connection(server.address, timeout=5) as plain:  # no TLS: no HTTP answer
        plain.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        try:
            answer = plain.recv(4096)
        except ConnectionResetError:
            answer = b""
        assert not answer.startswith(b"HTTP/1.1 200")


@pytest.mark.parametrize("path,name", [(p, n) for p, names in REPRESENTATIVE.items() for n in names])
def test_recorded_reviews_get_the_same_answer_as_in_process(
    server: ServerProcess, ca: KeyPair, path: str, name: str
) -> None:
    context = client_context(ca)
    assert wait_until(lambda: request(context, server.address, "GET", "/readyz")[0] == 200, timeout=20)
    body = (ADMISSION / name).read_bytes()
    status, answer = request(context, server.address, "POST", path + "?timeout=10s", body)
    view = StaticClusterView(
        nodes=json.loads(fixture_bytes("list-nodes.raw.json"))["items"],
        pods=json.loads(fixture_bytes("list-pods-all-namespaces.raw.json"))["items"],
        priority_classes=json.loads(fixture_bytes("list-priorityclasses.raw.json"))["items"],
    )
    app = create_app(Settings(), view, scheduler_models=SchedulerModels.static())
    expected = app.test_client().post(path + "?timeout=10s", data=body, content_type="application/json")
    assert status == expected.status_code == 200
    assert answer == expected.get_json()
    assert answer["response"]["uid"] == json.loads(body)["request"]["uid"]


def _closed_within(sock: ssl.SSLSocket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass  # e.g. a 4xx answer before the close is fine; the point is that the server lets go
    except TimeoutError:
        return False
    except OSError:
        return True
    return True


@pytest.mark.parametrize("partial", [
    b"POST /mutate/pods HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{\"ap",
    b"POST /mutate/pods HTTP/1.1\r\nHost: x\r\nContent-Le",
])
def test_stalled_requests_do_not_hold_a_worker_forever(server: ServerProcess, ca: KeyPair, partial: bytes) -> None:
    context = client_context(ca)
    stalled = [context.wrap_socket(socket.create_connection(server.address), server_hostname="localhost")
               for _ in range(6)]  # more than workers x threads: without deadlines the server would be stuck
    try:
        for sock in stalled:
            sock.sendall(partial)
        started = time.monotonic()
        assert all(_closed_within(sock, 30) for sock in stalled)
        assert time.monotonic() - started < 30
        assert request(context, server.address, "GET", "/healthz")[0] == 200
    finally:
        for sock in stalled:
            sock.close()


def test_metrics_count_every_worker_whichever_answers_the_scrape(server: ServerProcess, ca: KeyPair) -> None:
    # Two workers, one request per connection: without the shared multiprocess directory each scrape
    # would show only the answering worker's share, and rate() would see bogus resets.
    context = client_context(ca)
    assert wait_until(lambda: request(context, server.address, "GET", "/readyz")[0] == 200, timeout=20)
    body = (ADMISSION / "pod-create-known-class.json").read_bytes()

    def answered(text: str) -> float:
        pattern = r'^binpack_guard_admission_requests_total\{[^}]*endpoint="pods"[^}]*\} (\S+)$'
        return sum(float(v) for v in re.findall(pattern, text, re.M))

    def scrape() -> str:
        conn = http.client.HTTPSConnection(*server.address, context=context, timeout=10)
        try:
            conn.request("GET", "/metrics")
            return conn.getresponse().read().decode()
        finally:
            conn.close()

    first = scrape()
    assert 'binpack_guard_watch_restarts_total{worker="' in first  # the server runs in multiprocess mode
    before = answered(first)
    for _ in range(8):
        assert request(context, server.address, "POST", "/mutate/pods", body)[0] == 200
    totals = {answered(scrape()) for _ in range(8)}
    assert totals == {before + 8}


def test_metrics_port_serves_every_worker_over_plain_http(server: ServerProcess, ca: KeyPair) -> None:
    # The master's plain-HTTP listener: requests answered by either worker over TLS are counted there,
    # labelled by operation and dry run, and the cache gauges of the workers are published to it.
    port: int = server.metrics_port  # type: ignore[attr-defined]
    context = client_context(ca)
    assert wait_until(lambda: request(context, server.address, "GET", "/readyz")[0] == 200, timeout=20)
    review = json.loads((ADMISSION / "pod-create-known-class.json").read_bytes())
    dry = json.loads(json.dumps(review))
    dry["request"]["dryRun"] = True
    dry["request"]["uid"] = "dry-run-1"

    def counted(text: str, dry_run: str) -> float:
        pattern = (r'^binpack_guard_admission_requests_total\{(?=[^}]*endpoint="pods")(?=[^}]*operation="CREATE")'
                   rf'(?=[^}}]*dry_run="{dry_run}")[^}}]*\}} (\S+)$')
        return sum(float(v) for v in re.findall(pattern, text, re.M))

    status, before = plain_get(port, "/metrics")
    assert status == 200
    for _ in range(4):
        assert request(context, server.address, "POST", "/mutate/pods", json.dumps(review).encode())[0] == 200
    assert request(context, server.address, "POST", "/mutate/pods", json.dumps(dry).encode())[0] == 200
    _, after = plain_get(port, "/metrics")
    assert counted(after, "false") == counted(before, "false") + 4
    assert counted(after, "true") == counted(before, "true") + 1
    # every worker publishes its cache within seconds of starting: synced, and the recorded nodes counted
    assert wait_until(lambda: re.search(r"^binpack_guard_cache_synced(\{[^}]*\})? 1\.0$",
                                        plain_get(port, "/metrics")[1], re.M) is not None, timeout=20)
    _, text = plain_get(port, "/metrics")
    assert re.search(r'^binpack_guard_cache_objects\{[^}]*resource="nodes"[^}]*\} [1-9]', text, re.M), text[-2000:]
    assert 'binpack_guard_watch_restarts_total{worker="' in text
    assert plain_get(port, "/healthz")[0] == 404  # only metrics on this port
    with pytest.raises((OSError, http.client.HTTPException)):  # the admission port does not speak plain HTTP
        plain_get(server.port, "/metrics")
