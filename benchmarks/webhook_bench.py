"""Benchmark the real webhook: gunicorn + TLS + keep-alive, cache synced from a 5,000-node / 150,000-pod LIST.

    python benchmarks/webhook_bench.py [--nodes 5000] [--pods 150000] [--duration 5] [--repeats 3]

What runs where (loopback only):
* this process serves a synthetic cluster as paginated LIST answers (and idle watches) through the same
  replay server the tests use, so each worker's real list+watch sync path is what gets measured;
* ``python -m webhook serve`` (the production command) runs as its own process tree (master + ``--workers``
  workers) with TLS, and with ``BINPACK_GUARD_BENCHMARK_ROUTES=true`` so that it also serves the allow-all
  baseline ``/bench/allow-all`` (``webhook.server.routes.ALLOW_ALL_PATH``; off by default);
* the load comes from a separate process (``--load`` mode of this script): ``--connections`` threads, each
  on one kept-alive HTTPS connection, for ``--duration`` seconds per run. ``--clients processes`` runs
  one load process per connection instead, all starting at the same moment, so that no latency can come
  from the client's own GIL.

Each repeat measures three endpoints back to back on the same server: ``/mutate/pods`` (a recorded pod
CREATE review, scored against every node), ``/bench/allow-all`` (the same review read, decoded, encoded
and logged by the same view code, then allowed without looking) and ``/healthz`` (no work at all). The
script prints every run and the medians over the repeats, the per-worker cache sync time (from the
workers' "cluster cache synced" log lines) and each worker's RSS after sync. Each run also gives the
workers' CPU time per request (from ``/proc``), and each connection count the difference between
``/mutate/pods`` and ``/bench/allow-all``: the decision's own cost, which the machine's noise and the
load process's share of the CPUs move much less than they move req/s.

``--pin SERVER:LOAD`` (e.g. ``0:1``, with ``--workers 1`` on a 2-CPU machine) puts the server and the load on
separate CPUs once the cache has synced, so the latency measured is the server's own, not the time it
waited for a CPU the load was using.

``--shapes`` sets how many distinct pod request shapes the 150,000 pods have (300: replicas of 300
workloads; 0: every pod its own shape, the worst case for the cache's sync).

``--distinct-pods N`` sends N variants of the review in turn, each pod with its own cpu request (and the
review its own uid), to every endpoint. The webhook keeps its last few rankings for replicas of one pod
shape (``linter.scoring.cluster.kept_results``); with N above what it keeps (32 rankings, 64 request
shapes), every ``/mutate/pods`` request is ranked anew. The default, 0, sends the recorded review every
time: a burst of identical replicas, where every request from the third on gets the kept ranking while
no event arrives.
"""

from __future__ import annotations

import argparse
import gc
import http.client
import json
import os
import re
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "webhook"), str(ROOT / "tests")]

from paths import FIXTURES  # noqa: E402  (shared/ beside the clone, or $BINPACK_GUARD_SHARED, as the tests find it)

ALLOW_ALL = "/bench/allow-all"  # webhook.server.routes.ALLOW_ALL_PATH, served with BINPACK_GUARD_BENCHMARK_ROUTES=true
PAGE_SIZE = 500  # the cache's LIST page size (webhook.cluster.cache.ClusterCache default)
POD_REVIEW = FIXTURES / "admission" / "priority-plugin-on" / "pod-create-known-class.json"


def synthetic_cluster(
    nodes: int, pods: int, shapes: int = 300
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    node_objs = []
    for i in range(nodes):
        gpus = 8 if i % 10 == 0 else 0
        allocatable = {"cpu": "32", "memory": "128Gi", "pods": "250", "ephemeral-storage": "500Gi"}
        if gpus:
            allocatable["nvidia.com/gpu"] = str(gpus)
        node_objs.append({
            "metadata": {"name": f"node-{i:05d}", "resourceVersion": "10",
                         "labels": {"kubernetes.io/hostname": f"node-{i:05d}", "zone": f"z{i % 3}"}},
            "spec": {}, "status": {"allocatable": allocatable, "capacity": allocatable},
        })
    pod_objs = []
    for j in range(pods):
        # pods are replicas of 300 workloads and share their template's requests, as Deployment replicas do
        app = j % shapes
        # distinct (cpu, memory) for every app index below 1900 * 3968 (gcd(37, 1900) = gcd(53, 3968) = 1)
        cpu, mem = f"{100 + (app * 37) % 1900}m", f"{128 + (app * 53) % 3968 + 3968 * (app // 1900)}Mi"
        pod_objs.append({
            "metadata": {"name": f"pod-{j:06d}", "namespace": f"ns-{j % 50}", "resourceVersion": "11",
                         "labels": {"app": f"app-{app}"}},
            "spec": {"nodeName": f"node-{j % nodes:05d}", "schedulerName": "default-scheduler",
                     "containers": [{"name": "app", "image": "registry.example/app:1",
                                     "resources": {"requests": {"cpu": cpu, "memory": mem}}}]},
            "status": {"phase": "Running"},
        })
    return node_objs, pod_objs


def prerendered(responder: Any, limit: int) -> Any:
    """Render every page once up front, so serving the LIST costs the benchmark process almost nothing."""
    pages: dict[str | None, Any] = {}
    token: str | None = None
    while True:
        query = {"limit": str(limit), **({"continue": token} if token else {})}
        pages[token] = reply = responder(query)
        token = json.loads(reply.body)["metadata"].get("continue")
        if not token:
            break
    return lambda query: pages[query.get("continue")]


def load(args: argparse.Namespace) -> None:
    """Child process: hammer one path; print {"count", "errors", "latencies_ms"} as JSON on stdout."""
    context = ssl.create_default_context(cafile=args.ca)
    body = Path(args.body).read_bytes() if args.body else None
    bodies = variants(body, args.distinct_pods) if body is not None and args.distinct_pods else [body]
    if args.start_at:  # one of several load processes: start together
        time.sleep(max(0.0, args.start_at - time.time()))
    deadline = time.monotonic() + args.duration
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()

    def worker(first: int) -> None:
        nonlocal errors
        conn = http.client.HTTPSConnection("127.0.0.1", args.port, context=context, timeout=30)
        mine: list[float] = []
        turn = first
        while time.monotonic() < deadline:
            started = time.perf_counter()
            sent = bodies[turn % len(bodies)]
            turn += 1
            try:
                conn.request("POST" if sent else "GET", args.path, body=sent,
                             headers={"Content-Type": "application/json"})
                response = conn.getresponse()
                response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException):
                ok = False
                conn.close()
                conn = http.client.HTTPSConnection("127.0.0.1", args.port, context=context, timeout=30)
            if ok:
                mine.append((time.perf_counter() - started) * 1000)
            else:
                with lock:
                    errors += 1
        conn.close()
        with lock:
            latencies.extend(mine)

    offset = args.start_turn  # processes of one run start at different variants, as threads do
    spread = max(1, len(bodies) // max(1, int(args.connections)))
    threads = [threading.Thread(target=worker, args=(offset + i * spread,)) for i in range(int(args.connections))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(json.dumps({"count": len(latencies), "errors": errors, "seconds": args.duration,
                      "latencies_ms": latencies}))


def variants(body: bytes, count: int) -> list[bytes]:
    """``count`` copies of the review, the i-th with uid suffix i and its first container's cpu request
    raised by i millicores (a pod shape of its own)."""
    review = json.loads(body)
    container = review["request"]["object"]["spec"]["containers"][0]
    requests = container.setdefault("resources", {}).setdefault("requests", {})
    base = 500
    out = []
    for i in range(count):
        requests["cpu"] = f"{base + i}m"
        review["request"]["uid"] = f"bench-{i:08d}"
        out.append(json.dumps(review).encode())
    return out


def run_load(port: int, ca: Path, path: str, body: Path | None, duration: float, connections: int,
             clients: str = "threads", distinct_pods: int = 0) -> dict[str, float]:
    """Load one path over ``connections`` kept-alive connections: one process with a thread per connection
    (``clients="threads"``), or one load process per connection (``"processes"``), which rules out the
    client's own GIL as a source of latency."""
    cmd = [sys.executable, __file__, "--load", "--port", str(port), "--ca", str(ca), "--path", path,
           "--duration", str(duration)]
    if body is not None:
        cmd += ["--body", str(body), "--distinct-pods", str(distinct_pods)]
    if clients == "threads" or connections == 1:
        runs = [subprocess.run([*cmd, "--connections", str(connections)], capture_output=True, text=True,
                               check=True).stdout]
    else:
        start_at = time.time() + 1.0 + 0.1 * connections  # every process started and connected by then
        spread = max(1, distinct_pods // connections)
        procs = [subprocess.Popen([*cmd, "--connections", "1", "--start-at", str(start_at),
                                   "--start-turn", str(i * spread)],
                                  stdout=subprocess.PIPE, text=True) for i in range(connections)]
        runs = [proc.communicate()[0] for proc in procs]
        if any(proc.returncode for proc in procs):
            raise RuntimeError(f"a load process failed: {[proc.returncode for proc in procs]}")
    results = [json.loads(out) for out in runs]
    latencies = sorted(ms for result in results for ms in result["latencies_ms"])
    pct = statistics.quantiles(latencies, n=100, method="inclusive")
    return {"rps": len(latencies) / duration, "p50": pct[49], "p99": pct[98],
            "errors": sum(result["errors"] for result in results)}


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time the processes have used so far (Linux ``/proc``)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # a worker restarted mid-run: its successor's CPU time would not be counted
            raise SystemExit(f"webhook_bench: worker {pid} exited during the run, so its CPU time per request "
                             "cannot be measured") from None
        total += int(fields[11]) + int(fields[12])  # utime, stime in clock ticks
    return total / os.sysconf("SC_CLK_TCK")


def measure(port: int, ca: Path, body: Path, connections: int, args: argparse.Namespace, workers: list[int]) -> None:
    """Both endpoints back to back, ``args.repeats`` times; print each run and the medians.

    Besides the client's view (req/s, latency) each run reports the workers' CPU time per request: what
    the server spent on one request, whatever the load process and the machine's noise did meanwhile."""
    results: dict[str, list[dict[str, float]]] = {"/mutate/pods": [], ALLOW_ALL: [], "/healthz": []}
    for repeat in range(args.repeats):
        for path, runs in results.items():
            before = cpu_seconds(workers)
            r = run_load(port, ca, path, body if path != "/healthz" else None, args.duration, connections,
                         args.clients, args.distinct_pods)
            r["cpu_ms"] = (cpu_seconds(workers) - before) * 1000 / max(r["rps"] * args.duration, 1)
            runs.append(r)
            print(f"{connections} conn run {repeat + 1} {path:16} {r['rps']:7.0f} req/s  p50 {r['p50']:6.2f} ms  "
                  f"p99 {r['p99']:6.2f} ms  worker CPU {r['cpu_ms']:5.2f} ms/req  errors {r['errors']:.0f}")
    medians = {p: {k: statistics.median(r[k] for r in runs) for k in runs[0]} for p, runs in results.items()}
    for path, m in medians.items():
        print(f"{connections} conn MEDIAN {path:16} {m['rps']:7.0f} req/s  p50 {m['p50']:6.2f} ms  "
              f"p99 {m['p99']:6.2f} ms  worker CPU {m['cpu_ms']:5.2f} ms/req")
    extra = medians["/mutate/pods"]["cpu_ms"] - medians[ALLOW_ALL]["cpu_ms"]
    print(f"{connections} conn worker CPU of the decision (/mutate/pods minus /bench/allow-all): {extra:.2f} ms/req")
    for baseline in (ALLOW_ALL, "/healthz"):
        ratio = medians["/mutate/pods"]["rps"] / medians[baseline]["rps"]
        print(f"{connections} conn throughput /mutate/pods vs {baseline}: {ratio:.2f}x")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def pin_spec(text: str) -> tuple[set[int], set[int]]:
    """``--pin SERVER:LOAD``: two comma-separated lists of CPUs this process may run on."""
    allowed = os.sched_getaffinity(0)
    parts = text.split(":")
    try:
        lists = [{int(cpu) for cpu in part.split(",")} for part in parts]
    except ValueError:
        lists = []
    if len(parts) != 2 or len(lists) != 2:
        raise argparse.ArgumentTypeError(f"{text!r}: expected SERVER:LOAD, two comma-separated CPU lists such as 0:1")
    unknown = sorted((lists[0] | lists[1]) - allowed)
    if unknown:
        raise argparse.ArgumentTypeError(f"{text!r}: CPU {unknown[0]} is not one this machine lets us use "
                                         f"({sorted(allowed)})")
    return lists[0], lists[1]


def pin(pids: list[int], cpus: set[int]) -> None:
    """Every thread of ``pids`` onto ``cpus`` (threads started later inherit it from their parent)."""
    for pid in pids:
        for task in Path(f"/proc/{pid}/task").iterdir():
            os.sched_setaffinity(int(task.name), cpus)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--pods", type=int, default=150_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--connections", default="1,4", help="comma-separated keep-alive connection counts")
    parser.add_argument("--shapes", type=int, default=300,
                        help="distinct pod request shapes (0: every pod distinct, the worst case for sync)")
    parser.add_argument("--distinct-pods", type=int, default=0, metavar="N",
                        help="send N variants of the review in turn, each its own pod shape (0: the recorded "
                             "review every time, a burst of identical replicas)")
    parser.add_argument("--sync-only", action="store_true", help="measure the cache sync and RSS, then stop")
    parser.add_argument("--duration", type=float, default=5.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--clients", choices=("threads", "processes"), default="threads",
                        help="one load process with a thread per connection (default), or one load process per "
                             "connection (no shared GIL in the client; measured 2026-11-26: the same tail)")
    parser.add_argument("--pin", metavar="SERVER:LOAD", type=pin_spec,
                        help="CPU lists for the server (master and workers) and for the load, e.g. 0:1, so that "
                             "neither takes CPU time from the other; the latency is then the server's own")
    parser.add_argument("--load", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--start-at", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--start-turn", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--ca", help=argparse.SUPPRESS)
    parser.add_argument("--path", help=argparse.SUPPRESS)
    parser.add_argument("--body", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.load:
        load(args)
        return 0
    return bench(args)


def bench(args: argparse.Namespace) -> int:
    from replay_server import ReplayServer, synthetic_list  # type: ignore[import-not-found]
    from server_helpers import ServerProcess, make_ca, make_leaf  # type: ignore[import-not-found]

    nodes, pods = synthetic_cluster(args.nodes, args.pods, args.shapes or args.pods)
    replay = ReplayServer().serve_fixtures().start()
    replay.defaults[("nodes", "list")] = prerendered(synthetic_list("NodeList", nodes, "12"), PAGE_SIZE)
    replay.defaults[("pods", "list")] = prerendered(synthetic_list("PodList", pods, "12"), PAGE_SIZE)
    del nodes, pods
    gc.collect()
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        ca = make_ca("bench CA")
        (tmp / "ca.crt").write_bytes(ca.cert_pem)
        body = tmp / "review.json"
        body.write_bytes(POD_REVIEW.read_bytes())
        settings = {"BINPACK_GUARD_WORKERS": str(args.workers), "BINPACK_GUARD_BENCHMARK_ROUTES": "true"}
        # the production command (`python -m webhook serve`), with the benchmark-only allow-all route switched on
        server = ServerProcess(tmp, replay.kubeconfig(tmp / "kubeconfig"), tls=make_leaf(ca), env=settings)
        try:
            server.wait_listening(60)
            synced: list[float] = []
            deadline = time.monotonic() + 300
            while len(synced) < args.workers and time.monotonic() < deadline:
                synced = [float(s) for s in re.findall(r"cluster cache synced in ([0-9.]+)s", server.log())]
                time.sleep(0.2)
            rss = [rss_mib(pid) for pid in server.worker_pids()]
            pinned = ""
            if args.pin:
                server_cpus, load_cpus = args.pin
                pin([server.proc.pid, *server.worker_pids()], server_cpus)
                pin([os.getpid()], load_cpus)  # the load processes started from here inherit it
                pinned = f"; server on CPUs {sorted(server_cpus)}, load on CPUs {sorted(load_cpus)}"
            clients = "one process each" if args.clients == "processes" else "one thread each in one process"
            reviews = (f"{args.distinct_pods} pod shapes in turn" if args.distinct_pods
                       else "the same review every time")
            print(f"cluster: {args.nodes} nodes, {args.pods} pods; {args.workers} gevent workers; "
                  f"load: {args.connections} keep-alive TLS connections, {clients}, {reviews}; "
                  f"{os.cpu_count()} CPUs{pinned}")
            print(f"cache initial sync per worker (s): {synced}  median {statistics.median(synced):.2f}")
            print(f"RSS per worker after sync (MiB): {[round(r) for r in rss]}  max {max(rss):.0f}")
            if args.sync_only:
                return 0
            run_load(server.port, tmp / "ca.crt", "/mutate/pods", body, 1.0, 1)  # warm-up
            for connections in (int(c) for c in args.connections.split(",")):
                measure(server.port, tmp / "ca.crt", body, connections, args, server.worker_pids())
        finally:
            server.stop()
            replay.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
