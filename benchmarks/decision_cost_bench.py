"""Count what one ``/mutate/pods`` decision costs in instructions and cache misses, without timing noise.

    python benchmarks/decision_cost_bench.py [--nodes 5000] [--pods 150000] [--requests 300] [--distinct-pods N]
        [--tree PATH]

On a shared 2-CPU machine the webhook's req/s and even its CPU time per request move by tens of percent
between runs of the same code, which hides a change worth 10 %. This script counts instead of timing.
It runs the recorded pod CREATE review through the webhook's Flask app in one process (Flask's test
client over ``webhook.cluster.static.StaticClusterView`` of ``webhook_bench.synthetic_cluster``: no TLS,
gunicorn or network) under valgrind's cachegrind, which executes the code on a simulated CPU and counts
every instruction and every cache miss. Three runs, in parallel, build the same cluster and warm up the
same way, then send no requests, ``--requests`` allow-all requests (``/bench/allow-all``: read, decode,
encode and log, no decision) or ``--requests`` ``/mutate/pods`` requests. Subtracting the first run
from the others and dividing by ``--requests`` gives each endpoint's cost per request; ``/mutate/pods``
minus allow-all is the decision's own cost. ``--distinct-pods N`` sends ``webhook_bench``'s N variants of
the review in turn (each pod with its own cpu request, so none is answered from a kept ranking), as
``webhook_bench.py --distinct-pods`` does; the default, 0, sends the recorded review every time.

The simulated caches are this project's benchmark machine's: a 48 KiB, 12-way L1 data cache and, as
the last level, its 2 MiB, 16-way per-core L2 (the L3 is shared with other tenants, so misses there are
what the counts call LL misses). Python's hash seed and numpy's BLAS threads are fixed, so the counts
repeat to within a fraction of a percent: two trees compare exactly. ``--tree`` runs another checkout's
``webhook`` and ``linter`` with this script (the cluster and review come from this one). A cachegrind
run is about 50 times slower than a normal one; with 150,000 pods it takes about ten minutes.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MODES = ("none", "allow", "mutate")
EVENTS = {"Ir": "instructions", "D1": "L1 data misses", "LL": "L2 (last level) misses"}
CACHES = ["--I1=32768,8,64", "--D1=49152,12,64", "--LL=2097152,16,64"]


def child(tree: Path, mode: str, nodes: int, pods: int, requests: int, distinct: int = 0) -> None:
    """Build the app over the synthetic cluster and send ``requests`` reviews to ``mode``'s endpoint."""
    sys.path.insert(0, str(tree))
    import webhook  # noqa: F401  (the tree's package, before anything else can import one)

    sys.path.insert(1, str(HERE))
    import webhook_bench

    from webhook.admission.scheduler_models import SchedulerModels
    from webhook.cluster.static import StaticClusterView
    from webhook.server.app import create_app
    from webhook.server.routes import ALLOW_ALL_PATH
    from webhook.settings import Settings

    logging.getLogger("webhook.requests").setLevel(logging.WARNING)  # the access log is not the decision
    node_objs, pod_objs = webhook_bench.synthetic_cluster(nodes, pods)
    view = StaticClusterView(nodes=node_objs, pods=pod_objs, priority_classes=[
        {"metadata": {"name": "bp-high"}, "value": 100000}])
    del node_objs, pod_objs
    app = create_app(Settings(top=10, benchmark_routes=True), view, scheduler_models=SchedulerModels.static())
    gc.collect()
    gc.freeze()  # as the webhook does once synced
    body = webhook_bench.POD_REVIEW.read_bytes()
    bodies = webhook_bench.variants(body, distinct) if distinct else [body]
    client = app.test_client()
    # the same warm-up in every mode (with distinct pods, every variant once: the requests then rank anew)
    for path in (ALLOW_ALL_PATH, "/mutate/pods", ALLOW_ALL_PATH, "/mutate/pods"):
        for sent in bodies if path == "/mutate/pods" else bodies[:1]:
            answer = client.post(path, data=sent, content_type="application/json")
            if answer.status_code != 200:
                raise SystemExit(f"decision_cost_bench: {path} answered HTTP {answer.status_code}")
    endpoint = {"none": None, "allow": ALLOW_ALL_PATH, "mutate": "/mutate/pods"}[mode]
    for turn in range(requests if endpoint else 0):
        client.post(endpoint, data=bodies[turn % len(bodies)], content_type="application/json")


def summary(out_file: Path) -> dict[str, int]:
    """The ``summary:`` totals of a cachegrind output file, as instructions, D1 and LL misses."""
    events: list[str] = []
    for line in out_file.read_text().splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("summary:"):
            totals = dict(zip(events, map(int, line.split()[1:]), strict=True))
            return {
                "Ir": totals["Ir"],
                "D1": totals["D1mr"] + totals["D1mw"],
                "LL": totals["DLmr"] + totals["DLmw"] + totals["ILmr"],
            }
    raise SystemExit(f"decision_cost_bench: {out_file}: no summary line (did cachegrind finish?)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--pods", type=int, default=150000)
    parser.add_argument("--requests", type=int, default=300, help="requests per endpoint (default 300)")
    parser.add_argument("--distinct-pods", type=int, default=0, metavar="N",
                        help="send N variants of the review in turn, each its own pod shape (0: the recorded review)")
    parser.add_argument("--tree", type=Path, default=ROOT, help="checkout whose code to measure (default: this one)")
    parser.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    tree = args.tree.resolve()
    if args.child:
        child(tree, args.child, args.nodes, args.pods, args.requests, args.distinct_pods)
        return
    if args.requests < 1:
        raise SystemExit("decision_cost_bench: --requests must be at least 1")
    if args.distinct_pods < 0:
        raise SystemExit("decision_cost_bench: --distinct-pods must be at least 0")
    if not (tree / "webhook" / "__init__.py").is_file():
        raise SystemExit(f"decision_cost_bench: --tree {tree}: no webhook package there")
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("decision_cost_bench: valgrind is not installed (the counts come from its cachegrind tool)")
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    with tempfile.TemporaryDirectory() as tmp:
        runs = {}
        for mode in MODES:
            out_file = Path(tmp) / f"{mode}.out"
            command = [valgrind, "--tool=cachegrind", "--cache-sim=yes", *CACHES,
                       f"--cachegrind-out-file={out_file}", sys.executable, str(Path(__file__).resolve()),
                       "--child", mode, "--tree", str(tree), "--nodes", str(args.nodes), "--pods", str(args.pods),
                       "--requests", str(args.requests), "--distinct-pods", str(args.distinct_pods)]
            log = open(Path(tmp) / f"{mode}.log", "w")  # noqa: SIM115  (closed below, after the wait)
            runs[mode] = (subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env), log, out_file)
        counts = {}
        for mode, (process, log, out_file) in runs.items():
            code = process.wait()
            log.close()
            if code != 0:
                last = (Path(tmp) / f"{mode}.log").read_text().strip().splitlines()[-1:] or ["(no output)"]
                raise SystemExit(f"decision_cost_bench: the {mode!r} run exited with {code}: {last[0]}")
            counts[mode] = summary(out_file)
    per = {mode: {k: (counts[mode][k] - counts["none"][k]) / args.requests for k in EVENTS}
           for mode in ("allow", "mutate")}
    decision = {k: per["mutate"][k] - per["allow"][k] for k in EVENTS}
    reviews = f"{args.distinct_pods} pod shapes in turn" if args.distinct_pods else "the same review every time"
    print(f"tree {tree}, {args.nodes} nodes, {args.pods} pods, {args.requests} requests per endpoint, {reviews}")
    print(f"{'per request':24}" + "".join(f"{EVENTS[k]:>26}" for k in EVENTS))
    for name, row in (("/bench/allow-all", per["allow"]), ("/mutate/pods", per["mutate"]), ("decision", decision)):
        print(f"{name:24}" + "".join(f"{row[k]:>26,.0f}" for k in EVENTS))


if __name__ == "__main__":
    main()
