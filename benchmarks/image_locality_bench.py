"""What Nodes' ``status.images`` cost the webhook's cluster state: memory, node updates and rankings.

    python benchmarks/image_locality_bench.py [--nodes 5000] [--images 50] [--tree PATH]

Builds a ``ClusterState`` from synthetic Nodes (no pods) twice, without and with ``--images`` images per
node (two names each, a tag and a digest, as the kubelet reports them; 10 images on every node and the rest
drawn from a pool of 590), and prints the state's memory each time (tracemalloc, after a collection). Then it
times, in microseconds, rankings of pods with their own cpu requests (so no kept ranking is reused) whose
image is on no node, on a few nodes and on every node; a ranking after another node's images changed; and
a node update that repeats the node's images (a kubelet status report). ``--tree`` runs another checkout's
``linter`` (one without ImageLocality keeps no images: its two memory figures match).
"""

from __future__ import annotations

import argparse
import copy
import gc
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MIB = 1024 * 1024
POOL = [(f"registry.example.com/team-{k % 40}/image-{k}:v{k % 7}",
         f"registry.example.com/team-{k % 40}/image-{k}@sha256:{k * 7919:064x}", (20 + (k * 37) % 900) * MIB)
        for k in range(600)]
COMMON = 10


def nodes(count: int, images: int) -> list[dict[str, Any]]:
    rng = random.Random(1)
    out = []
    for i in range(count):
        alloc = {"cpu": "32", "memory": "128Gi", "pods": "250"}
        node: dict[str, Any] = {"metadata": {"name": f"node-{i:05d}", "labels": {"zone": f"z{i % 3}"}},
                                "spec": {}, "status": {"allocatable": alloc, "capacity": alloc}}
        if images:
            chosen = POOL[:COMMON] + rng.sample(POOL[COMMON:], max(images - COMMON, 0))
            node["status"]["images"] = [{"names": [tag, digest], "sizeBytes": size} for tag, digest, size in chosen]
        out.append(node)
    return out


def pod(image: str, cpu: str) -> dict[str, Any]:
    return {"metadata": {"name": "p", "namespace": "default"},
            "spec": {"containers": [{"name": "c", "image": image, "resources": {"requests": {"cpu": cpu}}}]}}


def per_call(rounds: int, calls: int, step: Callable[[int], None]) -> tuple[float, float]:
    """Median and fastest round, microseconds per call."""
    times = []
    for r in range(rounds):
        start = time.perf_counter()
        for j in range(calls):
            step(r * calls + j)
        times.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(times), min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--images", type=int, default=50)
    parser.add_argument("--tree", type=Path, default=HERE.parent, help="checkout whose linter to time")
    args = parser.parse_args()
    tree = args.tree.resolve()
    if not (tree / "linter" / "__init__.py").is_file():
        raise SystemExit(f"image_locality_bench: --tree {tree}: no linter package there")
    sys.path[:0] = [str(tree)]
    from linter.model import default_kube_scheduler_model
    from linter.scoring.cluster.state import ClusterState

    def build(objs: list[dict[str, Any]]) -> tuple[Any, int]:
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        state = ClusterState()
        for obj in objs:
            state.apply_node(obj)
        gc.collect()
        used = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        return state, used

    _, plain = build(nodes(args.nodes, 0))
    with_images = nodes(args.nodes, args.images)
    state, imaged = build(with_images)
    print(f"tree {tree}: {args.nodes} nodes; state {plain / MIB:.1f} MiB without images, {imaged / MIB:.1f} MiB "
          f"with {args.images} per node: {(imaged - plain) / args.nodes:.0f} bytes per node")
    model = default_kube_scheduler_model()
    for label, image in (("on no node", "absent:1"), ("on a few nodes", POOL[100][0]), ("on every node", POOL[3][0])):
        median, best = per_call(5, 40, lambda i, image=image: state.rank(pod(image, f"{100 + i}m"), model, None, 10))
        print(f"rank, pod image {label:15s} median {median:7.1f} us  fastest round {best:7.1f} us")

    def changed_then_rank(i: int) -> None:
        obj = copy.deepcopy(with_images[i % args.nodes])
        obj["status"]["images"] = obj["status"].get("images", [])[:-1]
        state.apply_node(obj)
        state.rank(pod(POOL[3][0], f"{1000 + i}m"), model, None, 10)

    median, best = per_call(5, 40, changed_then_rank)
    print(f"image change + rank            median {median:7.1f} us  fastest round {best:7.1f} us (incl. deepcopy)")
    # nodes from 1000 on: the image changes above touched the first 200
    median, best = per_call(5, 400, lambda i: state.apply_node(with_images[(1000 + i) % args.nodes]))
    print(f"node update, same images       median {median:7.1f} us  fastest round {best:7.1f} us")


if __name__ == "__main__":
    main()
