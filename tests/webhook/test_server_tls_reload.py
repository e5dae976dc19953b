"""Certificate rotation on disk under load: no failed request, and new connections get the new certificate.

Clients hammer the real server (new connections and kept-alive ones) while the certificate and key
files are rewritten the clumsy way: half a PEM first, the certificate before its key. The last rotation
switches to a certificate from a NEW CA; the clients trust both CAs during the overlap, as a caBundle
holding old and new CA would.
"""

from __future__ import annotations

import http.client
import os
import signal
import ssl
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from replay_server import ReplayServer, wait_until
from server_helpers import KeyPair, ServerProcess, client_context, make_ca, make_leaf

pytestmark = pytest.mark.slow


def peer_certificate(address: tuple[str, int], context: ssl.SSLContext) -> bytes:
    conn = http.client.HTTPSConnection(*address, context=context, timeout=10)
    try:
        conn.connect()
        assert isinstance(conn.sock, ssl.SSLSocket)
        return conn.sock.getpeercert(binary_form=True) or b""
    finally:
        conn.close()


def seen_by_all_workers(server: ServerProcess, context: ssl.SSLContext, leaf: KeyPair) -> bool:
    """Each worker reloads on its own; ten fresh connections in a row all getting ``leaf`` means all did."""
    return all(peer_certificate(server.address, context) == leaf.der for _ in range(10))


class Hammer:
    """Threads sending GET /healthz in a loop; every failure is kept."""

    def __init__(self, address: tuple[str, int], context: ssl.SSLContext, threads: int = 4) -> None:
        self.address, self.context = address, context
        self.stop = threading.Event()
        self.ok = 0
        self.failures: list[str] = []
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._run, args=(i % 2 == 0,)) for i in range(threads)]

    def __enter__(self) -> Hammer:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self._threads:
            thread.join(30)

    def _run(self, keep_alive: bool) -> None:
        conn: http.client.HTTPSConnection | None = None
        while not self.stop.is_set():
            try:
                if conn is None:
                    conn = http.client.HTTPSConnection(*self.address, context=self.context, timeout=10)
                conn.request("GET", "/healthz")
                response = conn.getresponse()
                response.read()
                if response.status != 200:
                    raise RuntimeError(f"HTTP {response.status}")
                with self._lock:
                    self.ok += 1
            except Exception as exc:
                with self._lock:
                    self.failures.append(f"{type(exc).__name__}: {exc}")
                if conn is not None:
                    conn.close()
                conn = None
                continue
            if not keep_alive or response.getheader("Connection", "").lower() == "close":
                conn.close()
                conn = None
        if conn is not None:
            conn.close()


def rotate_clumsily(server: ServerProcess, new: KeyPair) -> None:
    """Write half the certificate, then all of it, then the key: every intermediate state is broken."""
    server.cert_file.write_bytes(new.cert_pem[: len(new.cert_pem) // 2])
    time.sleep(1.2)
    server.cert_file.write_bytes(new.cert_pem)  # now the certificate does not match the old key
    time.sleep(1.2)
    server.key_file.write_bytes(new.key_pem)


def test_certificate_rotation_under_load(replay: ReplayServer, tmp_path: Path) -> None:
    old_ca, new_ca = make_ca("old CA"), make_ca("new CA")
    first, second, third = make_leaf(old_ca), make_leaf(old_ca), make_leaf(new_ca)
    server = ServerProcess(tmp_path, replay.kubeconfig(tmp_path / "kubeconfig"), tls=first,
                           extra=["--workers", "2", "--threads", "4"])
    try:
        server.wait_listening()
        both = client_context(old_ca, new_ca)
        assert wait_until(lambda: peer_certificate(server.address, both) == first.der, timeout=20)
        with Hammer(server.address, both) as hammer:
            time.sleep(0.5)
            rotate_clumsily(server, second)
            assert wait_until(lambda: seen_by_all_workers(server, both, second), timeout=20)
            rotate_clumsily(server, third)
            assert wait_until(lambda: seen_by_all_workers(server, both, third), timeout=20)
            time.sleep(0.5)
        assert hammer.failures == [], (Counter(hammer.failures).most_common(5), server.log())
        assert hammer.ok > 100
        # a client that trusts only the new CA can now connect; one that trusts only the old CA cannot
        assert peer_certificate(server.address, client_context(new_ca)) == third.der
        with pytest.raises(ssl.SSLCertVerificationError):
            peer_certificate(server.address, client_context(old_ca))
        assert "TLS certificate reloaded" in server.log()
    finally:
        server.stop()


def test_a_worker_started_mid_rotation_waits_for_usable_files(replay: ReplayServer, tmp_path: Path) -> None:
    """A worker has no earlier certificate to keep: one (re)started while the files are broken must not
    take connections until they load. Taking them, it reset every client until the rotation finished."""
    ca = make_ca("rotation CA")
    first, second = make_leaf(ca), make_leaf(ca)
    server = ServerProcess(tmp_path, replay.kubeconfig(tmp_path / "kubeconfig"), tls=first,
                           extra=["--workers", "1"])
    try:
        server.wait_listening()
        context = client_context(ca)
        assert wait_until(lambda: peer_certificate(server.address, context) == first.der, timeout=20)
        [old_worker] = server.worker_pids()
        server.cert_file.write_bytes(second.cert_pem[: len(second.cert_pem) // 2])
        synced_before = server.log_path.read_text(errors="replace").count("cluster cache synced")
        os.kill(old_worker, signal.SIGKILL)  # the arbiter starts a new worker, which finds the files broken

        def new_worker_synced() -> bool:
            return server.log_path.read_text(errors="replace").count("cluster cache synced") > synced_before

        assert wait_until(new_worker_synced, timeout=30), server.log()
        seen: list[bytes | BaseException] = []
        client = threading.Thread(target=lambda: seen.append(_certificate_or_error(server.address, context)))
        client.start()
        time.sleep(1.5)  # the old code's new worker had accepted and reset the client by now
        server.cert_file.write_bytes(second.cert_pem)
        server.key_file.write_bytes(second.key_pem)
        client.join(30)
        assert seen == [second.der], (seen, server.log())
        log = server.log_path.read_text(errors="replace")
        assert "TLS files not usable (waiting for them before taking connections)" in log
        assert "Traceback" not in log, log
    finally:
        server.stop()


def _certificate_or_error(address: tuple[str, int], context: ssl.SSLContext) -> bytes | BaseException:
    try:
        return peer_certificate(address, context)
    except Exception as exc:
        return exc
