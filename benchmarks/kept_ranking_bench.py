"""Time ``ClusterState.rank`` for replicas of one pod shape against pods that each have their own shape.

    python benchmarks/kept_ranking_bench.py [--nodes 5000] [--pods 150000] [--rounds 10] [--tree PATH]

The state keeps its last 32 rankings (``linter.scoring.cluster.kept_results``): a replica ranked again
with no event in between gets the kept answer (from the third replica of a request shape on). This
script builds the state of ``webhook_bench``'s synthetic cluster, takes the webhook benchmark's recorded
pod with its class's priority, and times, in alternating rounds of 256 rankings each, the recorded pod
over and over ("same shape") and 256 variants of it with their own cpu requests in turn ("distinct
shapes": more than the state keeps, 32 rankings and 64 request shapes, so each is ranked anew). It
prints the median and the fastest round per kind, in microseconds per ranking.
``--tree`` runs another checkout's ``linter`` (e.g. one from before the kept rankings, where both kinds
rank anew), with this checkout's cluster and pod.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
VARIANTS = 256


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--pods", type=int, default=150_000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--tree", type=Path, default=HERE.parent, help="checkout whose linter to time")
    args = parser.parse_args()
    if args.rounds < 1:
        raise SystemExit("kept_ranking_bench: --rounds must be at least 1")
    tree = args.tree.resolve()
    if not (tree / "linter" / "__init__.py").is_file():
        raise SystemExit(f"kept_ranking_bench: --tree {tree}: no linter package there")
    sys.path[:0] = [str(tree), str(HERE)]
    import webhook_bench

    from linter.model import default_kube_scheduler_model
    from linter.scoring.cluster.state import ClusterState

    nodes, pods = webhook_bench.synthetic_cluster(args.nodes, args.pods)
    state = ClusterState()
    for node in nodes:
        state.apply_node(node)
    for bound in pods:
        state.apply_pod(bound)
    del nodes, pods
    gc.collect()
    gc.freeze()  # as the webhook does once synced
    pod: dict[str, Any] = json.loads(webhook_bench.POD_REVIEW.read_text())["request"]["object"]
    pod["spec"]["priority"] = 100000  # what the Priority plugin gives it (class bp-high)
    variants = []
    for i in range(VARIANTS):
        variant = copy.deepcopy(pod)
        variant["spec"]["containers"][0]["resources"]["requests"]["cpu"] = f"{500 + i}m"
        variants.append(variant)
    model = default_kube_scheduler_model()
    for variant in variants[:64]:  # warm-up: numpy, the memos, the kept balances
        state.rank(variant, model, top=10)

    def one_round(distinct: bool) -> float:
        started = time.perf_counter()
        for i in range(VARIANTS):
            state.rank(variants[i] if distinct else pod, model, top=10)
        return (time.perf_counter() - started) / VARIANTS * 1e6

    times: dict[str, list[float]] = {"same shape": [], "distinct shapes": []}
    for _ in range(args.rounds):
        times["same shape"].append(one_round(False))
        times["distinct shapes"].append(one_round(True))
    print(f"tree {tree}: {args.nodes} nodes, {args.pods} pods, {args.rounds} rounds of {VARIANTS} rankings")
    for kind, values in times.items():
        print(f"{kind:16} median {statistics.median(values):7.1f} us  fastest round {min(values):7.1f} us")


if __name__ == "__main__":
    main()
