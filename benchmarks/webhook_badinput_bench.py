"""Bad input under load on the real server: every answer checked, valid-review latency with and without it.

    python benchmarks/webhook_badinput_bench.py [--duration 60] [--valid 4] [--bad 8] [--nodes 300]

The server is ``python -m webhook serve`` (2 workers, TLS, ``--request-timeout 10``) over a generated
``--cluster-file`` (``dumpgen.py``, with the recorded fixture PriorityClasses). Phase 1: ``--valid``
kept-alive clients send the recorded pod reviews alone for ``--baseline`` seconds. Phase 2, for
``--duration`` seconds: the same clients, plus ``--bad`` clients that each send every case of
``badinput_cases.py`` in a shuffled loop, each on a new connection (the slow ones, which hold a
connection until the deadline, from 2 more clients). Phase 3: the valid clients alone again.

Checked: each bad case's answer (status, a v1 Status or AdmissionReview, one-line message, uid echoed);
each valid answer equals the one the same review got alone; ``/readyz`` (polled every second) stays 200;
the worker pids do not change; the server log holds no ``Traceback``. Measured: p50/p99 of the valid
reviews per phase, worker RSS. Exits 1 if any check failed.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "webhook"), str(ROOT / "tests"), str(ROOT / "benchmarks")]

import dumpgen  # noqa: E402
from badinput_cases import SLOW, Case, Reply, build_cases, connect, read_reply, request_bytes, send  # noqa: E402
from paths import FIXTURES  # noqa: E402
from server_helpers import ServerProcess, client_context, make_ca, make_leaf  # noqa: E402

ADMISSION = FIXTURES / "admission/priority-plugin-on"
POD_REVIEWS = ["pod-create-known-class.json", "pod-create-init-and-sidecar.json",
               "pod-create-extended-resource-gpu.json", "pod-create-no-class-with-default.json",
               "pod-create-pod-level-resources.json", "pod-update-label.json"]


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.valid_ms: list[float] = []
        self.valid_wrong: list[str] = []
        self.sent: collections.Counter[str] = collections.Counter()
        self.failures: dict[str, list[str]] = collections.defaultdict(list)


def cluster_file(tmp: Path, nodes: int) -> Path:
    base, out = tmp / "generated.json", tmp / "cluster.json"
    dumpgen.write_dump(str(base), nodes, 10, as_json=True)
    dump = json.loads(base.read_text())
    classes = json.loads((FIXTURES / "watch/list-priorityclasses.json").read_text())["items"]
    dump["items"] += [{"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", **c} for c in classes]
    out.write_text(json.dumps(dump))
    return out


def valid_client(context: Any, address: tuple[str, int], stop: threading.Event, tally: Tally,
                 expected: dict[str, Any], bodies: dict[str, bytes], seed: int) -> None:
    rng = random.Random(seed)
    names = sorted(bodies)
    sock, buf = None, b""
    while not stop.is_set():
        name = rng.choice(names)
        started = time.perf_counter()
        try:
            if sock is None:
                sock, buf = connect(context, address, 15), b""
            sock.sendall(request_bytes("POST", "/mutate/pods", bodies[name]))
            reply, buf = read_reply(sock, buf)
        except OSError as exc:
            reply = Reply(0, {}, b"", str(exc))
        ms = (time.perf_counter() - started) * 1000
        with tally.lock:
            if reply.status == 200 and json.loads(reply.body) == expected[name]:
                tally.valid_ms.append(ms)
            else:
                tally.valid_wrong.append(f"{name}: {reply.status} {reply.error} {reply.body[:200]!r}")
        if reply.status == 0 and sock is not None:
            sock.close()
            sock = None
    if sock is not None:
        sock.close()


def bad_client(context: Any, address: tuple[str, int], stop: threading.Event, tally: Tally, cases: list[Case],
               seed: int) -> None:
    order = list(cases)
    random.Random(seed).shuffle(order)
    while not stop.is_set():
        for name, run, check in order:
            if stop.is_set():
                return
            try:
                reply = run(context, address)
            except OSError as exc:
                reply = Reply(0, {}, b"", f"{type(exc).__name__}: {exc}")
            problem = check(reply)
            with tally.lock:
                tally.sent[name] += 1
                if problem is not None and len(tally.failures[name]) < 3:
                    tally.failures[name].append(problem)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def rss_mib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of bad input")
    parser.add_argument("--baseline", type=float, default=20.0, help="seconds of valid reviews alone")
    parser.add_argument("--valid", type=int, default=4, help="kept-alive clients sending valid pod reviews")
    parser.add_argument("--bad", type=int, default=8, help="clients sending the bad cases")
    parser.add_argument("--nodes", type=int, default=300, help="nodes of the generated cluster (10 pods each)")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="badinput-"))
    ca = make_ca("bad-input bench CA")
    server = ServerProcess(tmp, tmp / "no-kubeconfig", tls=make_leaf(ca), env={"PYTHONPATH": str(ROOT)},
                           extra=["--cluster-file", str(cluster_file(tmp, args.nodes)), "--workers", "2",
                                  "--request-timeout", "10"])
    context = client_context(ca)
    address = server.address
    readyz = send(request_bytes("GET", "/readyz", None))
    phases: dict[str, tuple[Tally, collections.Counter[int], dict[int, list[int]]]] = {}
    try:
        server.wait_listening(120)
        deadline = time.monotonic() + 120
        while readyz(context, address).status != 200 and time.monotonic() < deadline:
            time.sleep(0.5)
        workers = sorted(server.worker_pids())
        bodies = {name: (ADMISSION / name).read_bytes() for name in POD_REVIEWS}
        expected = {name: json.loads(send(request_bytes("POST", "/mutate/pods", body))(context, address).body)
                    for name, body in bodies.items()}
        cases = build_cases(ADMISSION / "pod-create-known-class.json")

        def phase(label: str, seconds: float, storm: bool) -> None:
            tally, ready, rss = Tally(), collections.Counter[int](), collections.defaultdict[int, list[int]](list)
            stop = threading.Event()

            def sample() -> None:
                while not stop.wait(1.0):
                    ready[readyz(context, address).status] += 1
                    for pid in server.worker_pids():
                        rss[pid].append(rss_mib(pid))

            threads = [threading.Thread(target=valid_client, args=(context, address, stop, tally, expected, bodies, i))
                       for i in range(args.valid)]
            threads.append(threading.Thread(target=sample))
            if storm:
                fast = [c for c in cases if c[0] not in SLOW]
                slow = [c for c in cases if c[0] in SLOW]
                threads += [threading.Thread(target=bad_client, args=(context, address, stop, tally, fast, i))
                            for i in range(args.bad)]
                threads += [threading.Thread(target=bad_client, args=(context, address, stop, tally, slow, 100 + i))
                            for i in range(2)]
            for thread in threads:
                thread.start()
            time.sleep(seconds)
            stop.set()
            for thread in threads:
                thread.join(120)
            phases[label] = (tally, ready, dict(rss))

        phase("alone", args.baseline, storm=False)
        phase("with bad input", args.duration, storm=True)
        phase("alone after", args.baseline, storm=False)
        workers_after = sorted(server.worker_pids())
    finally:
        server.stop()
    log = server.log_path.read_text(errors="replace")

    failed = False
    print("| phase | valid reviews | wrong | p50 ms | p99 ms | /readyz | worker RSS MiB (start/max/end) |")
    print("|---|---:|---:|---:|---:|---|---|")
    for label, (tally, ready, rss) in phases.items():
        memory = ", ".join(f"{v[0]}/{max(v)}/{v[-1]}" for v in rss.values() if v)
        print(f"| {label} | {len(tally.valid_ms)} | {len(tally.valid_wrong)} | {percentile(tally.valid_ms, .5):.1f} "
              f"| {percentile(tally.valid_ms, .99):.1f} | {dict(ready)} | {memory} |")
        failed |= bool(tally.valid_wrong) or set(ready) != {200}
        for wrong in tally.valid_wrong[:3]:
            print("  wrong valid answer:", wrong)
    storm = phases["with bad input"][0]
    print(f"\nbad requests: {sum(storm.sent.values())} over {len(storm.sent)} of {len(cases)} cases; "
          f"failing cases: {len(storm.failures)}")
    for name, problems in sorted(storm.failures.items()):
        print(f"  {name}: {problems[0]}")
    print(f"server log: {log.count('Traceback')} Traceback, {log.count('Booting worker')} 'Booting worker' "
          f"(2 at start); workers {workers} -> {workers_after}")
    failed |= bool(storm.failures) or "Traceback" in log or workers != workers_after
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
