"""One worker, two kept-alive connections: a connection with more requests waiting does not hold the worker.

Connection A pipelines five pod reviews in one write and connection B sends one. Both are sent while the
worker is stopped (SIGSTOP), so when it resumes each connection has a review waiting. After each answer
the worker lets every other connection with a request waiting go first, so B's review is among the
first two answered. Without that, gunicorn's parser finds A's next review already read into its buffer
and answers all five before B: in a busy worker the same happens whenever a client's next request
arrives before the worker looks again, and one connection's waits grow with the others' traffic.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import ssl
import time
from pathlib import Path

import pytest
from paths import SHARED
from replay_server import ReplayServer, wait_until
from server_helpers import ServerProcess, client_context, make_ca, make_leaf

pytestmark = pytest.mark.slow

REVIEW = SHARED / "fixtures/admission/priority-plugin-on/pod-create-known-class.json"
PIPELINED = 5


def review_request(uid: str, port: int) -> bytes:
    review = json.loads(REVIEW.read_bytes())
    review["request"]["uid"] = uid
    body = json.dumps(review).encode()
    head = (f"POST /mutate/pods HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode() + body


def read_answers(conn: ssl.SSLSocket, count: int) -> bytes:
    """Read until ``count`` HTTP status lines have come (the JSON bodies never hold one)."""
    data = b""
    deadline = time.monotonic() + 30
    while data.count(b"HTTP/1.1 ") < count or not data.endswith(b"}"):
        assert time.monotonic() < deadline, data[-300:]
        chunk = conn.recv(65536)
        assert chunk, "the server closed the connection"
        data += chunk
    return data


# The event loop does not promise which of two ready connections it serves first (libev runs the
# later-ready one first), so both send orders are tried: in one of them A goes first.
@pytest.mark.parametrize("first", ["a", "b"])
def test_a_connection_with_pipelined_reviews_does_not_hold_the_worker(
    replay: ReplayServer, tmp_path: Path, first: str
) -> None:
    ca = make_ca("fairness CA")
    server = ServerProcess(tmp_path, replay.kubeconfig(tmp_path / "kubeconfig"), tls=make_leaf(ca),
                           extra=["--workers", "1"])
    connections: dict[str, ssl.SSLSocket] = {}
    try:
        server.wait_listening()
        context = client_context(ca)
        for name in ("a", "b"):
            raw = socket.create_connection(server.address, timeout=30)
            connections[name] = context.wrap_socket(raw, server_hostname="127.0.0.1")

        def ready() -> bool:  # a first review on each connection, answered once the cache has synced
            for name, conn in connections.items():
                conn.sendall(review_request(f"{name}-warm-up", server.port))
                if b"HTTP/1.1 200" not in read_answers(conn, 1):
                    return False
            return True

        assert wait_until(ready, timeout=60)
        workers = server.worker_pids()
        assert len(workers) == 1, workers
        worker = workers[0]
        os.kill(worker, signal.SIGSTOP)
        try:
            batches = {"a": b"".join(review_request(f"a-{i}", server.port) for i in range(PIPELINED)),
                       "b": review_request("b-0", server.port)}
            for name in sorted(batches, key=lambda n: n != first):
                connections[name].sendall(batches[name])
            time.sleep(0.3)  # both writes are in the worker's socket buffers before it runs again
        finally:
            os.kill(worker, signal.SIGCONT)
        answers = {"a": read_answers(connections["a"], PIPELINED), "b": read_answers(connections["b"], 1)}
        assert answers["a"].count(b"HTTP/1.1 200 OK") == PIPELINED and b"HTTP/1.1 200 OK" in answers["b"]
        log = server.log_path.read_text(errors="replace")
        served = [uid for uid in re.findall(r'"uid": ?"([ab]-[0-9])"', log)]
        assert sorted(served) == sorted(["b-0", *(f"a-{i}" for i in range(PIPELINED))]), served
        assert served.index("b-0") <= 1, served
    finally:
        for conn in connections.values():
            conn.close()
        server.stop()
