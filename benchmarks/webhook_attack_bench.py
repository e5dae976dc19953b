"""Idle and slow connections held vs latency of admission requests, on the real server (loopback only).

    python benchmarks/webhook_attack_bench.py [--held 0,250,1000,2000] [--duration 3] [--before /path/to/checkout]

The server is ``python -m webhook serve`` (2 workers, TLS) over the recorded fixture cluster from the
replay server. For each count, that many connections are opened and held, split evenly between three
kinds (``tests/webhook/attack_clients.py``): idle TCP, half a TLS ClientHello, and half a request
header after a finished handshake. Then one kept-alive client sends the recorded pod review to
``/mutate/pods`` for ``--duration`` seconds, and fresh connections probe ``/healthz`` 10 times. A
request that gets no answer within 10 s (the apiserver's default webhook timeout) counts as failed.
``--before`` runs the same against another checkout (e.g. one with gthread workers) side by side.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "webhook"), str(ROOT / "tests")]

from attack_clients import HeldConnections  # noqa: E402
from paths import SHARED  # noqa: E402
from replay_server import ReplayServer, wait_until  # noqa: E402
from server_helpers import ServerProcess, client_context, make_ca, make_leaf  # noqa: E402

REVIEW = (SHARED / "fixtures/admission/priority-plugin-on/pod-create-known-class.json").read_bytes()
TIMEOUT = 10.0


def _get(context: object, address: tuple[str, int], path: str) -> float | None:
    started = time.perf_counter()
    try:
        conn = http.client.HTTPSConnection(*address, context=context, timeout=TIMEOUT)  # type: ignore[arg-type]
        conn.request("GET", path)
        ok = conn.getresponse().status == 200
        conn.close()
    except (OSError, http.client.HTTPException):
        return None
    return (time.perf_counter() - started) * 1000 if ok else None


def _load(context: object, address: tuple[str, int], seconds: float) -> tuple[list[float], int]:
    latencies: list[float] = []
    failed = 0
    conn = http.client.HTTPSConnection(*address, context=context, timeout=TIMEOUT)  # type: ignore[arg-type]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.perf_counter()
        try:
            conn.request("POST", "/mutate/pods", body=REVIEW, headers={"Content-Type": "application/json"})
            reply = conn.getresponse()
            reply.read()
            if reply.status != 200:
                failed += 1
                continue
            latencies.append((time.perf_counter() - started) * 1000)
        except (OSError, http.client.HTTPException):
            failed += 1
            conn.close()
            conn = http.client.HTTPSConnection(*address, context=context, timeout=TIMEOUT)  # type: ignore[arg-type]
    conn.close()
    return latencies, failed


def run(tree: Path, counts: list[int], seconds: float) -> list[str]:
    replay = ReplayServer().serve_fixtures().start()
    tmp = Path(tempfile.mkdtemp())
    ca = make_ca("bench CA")
    env = {"PYTHONPATH": str(tree)}
    server = ServerProcess(tmp, replay.kubeconfig(tmp / "kubeconfig"), tls=make_leaf(ca), env=env,
                           extra=["--workers", "2", "--request-timeout", "30"])
    rows = []
    try:
        server.wait_listening()
        context = client_context(ca)
        wait_until(lambda: _get(context, server.address, "/readyz") is not None, timeout=60)
        for count in counts:
            held: list[HeldConnections] = []
            try:
                for kind in ("idle", "half-handshake", "slow-headers"):
                    try:
                        held.append(HeldConnections(server.address, kind, count // 3, context))
                    except OSError as exc:
                        rows.append(f"| {tree.name} | {count} | could not hold {kind}: {type(exc).__name__} |")
                latencies, failed = _load(context, server.address, seconds)
                probes = [_get(context, server.address, "/healthz") for _ in range(10)]
                answered = [p for p in probes if p is not None]
                p50 = f"{statistics.median(latencies):.1f}" if latencies else "—"
                p99 = f"{statistics.quantiles(latencies, n=100)[98]:.1f}" if len(latencies) > 1 else "—"
                probe = f"{len(answered)}/10, max {max(answered):.0f} ms" if answered else "0/10"
                rows.append(f"| {tree.name} | {count} | {len(latencies)} | {failed} | {p50} | {p99} | {probe} |")
                print(rows[-1], flush=True)
            finally:
                for group in held:
                    group.close()
                time.sleep(1.0)
    finally:
        server.stop()
        replay.stop()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--held", default="0,250,1000,2000")
    parser.add_argument("--duration", type=float, default=3.0)
    parser.add_argument("--before", type=Path)
    args = parser.parse_args()
    counts = [int(c) for c in args.held.split(",")]
    os.environ.pop("BINPACK_GUARD_WORKERS", None)
    print("| tree | held | answered | failed | p50 ms | p99 ms | /healthz within 10 s |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for tree in [ROOT] + ([args.before] if args.before else []):
        run(tree, counts, args.duration)


if __name__ == "__main__":
    main()
