"""Benchmark ClusterState: build, rank one pod against every node, and per-event update cost.

Run:  python benchmarks/scoring_bench.py [--nodes 5000] [--pods 150000] [--runs 2000] [--seed 1]
                                        [--status-resources]

A synthetic but realistic cluster: nodes of a few instance types with zone/pool labels,
5% GPU nodes tainted ``nvidia.com/gpu=present:NoSchedule``, 5% cordoned; pods from a few
thousand workloads (distinct request shapes, some with init containers, sidecars or
pod-level requests), spread over the nodes. Every figure printed is a median (with p90)
over many runs, measured with ``time.perf_counter_ns``. ``--status-resources`` gives bound pods
the container statuses a 1.33+ kubelet writes (``resources`` and ``allocatedResources``, equal to
the spec), which the state reads for in-place resizes.

"warm" ranks a pod whose request shape the state has seen before (replicas of one
workload, the common case in a webhook); "cold" gives each call a never-seen request shape,
so the exact per-pod request arithmetic of the scalar model is included.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

# This checkout's packages, not the installed ones (an editable install may point at another tree).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from linter.model import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    FitArgs,
    KubeSchedulerModel,
    Profile,
    ResourceWeight,
    ShapePoint,
    VolcanoBinpackArgs,
    VolcanoModel,
)
from linter.scoring.cluster.state import ClusterState

INSTANCE_TYPES = [
    ("m.xlarge", "3920m", "15Gi"),
    ("m.2xlarge", "7910m", "31Gi"),
    ("m.4xlarge", "15890m", "62Gi"),
    ("c.8xlarge", "31850m", "60Gi"),
    ("r.4xlarge", "15890m", "124Gi"),
]


def make_node(i: int, rng: random.Random) -> dict[str, Any]:
    kind, cpu, memory = rng.choice(INSTANCE_TYPES)
    name = f"node-{i:05d}"
    alloc = {"cpu": cpu, "memory": memory, "pods": "110", "ephemeral-storage": "95Gi"}
    spec: dict[str, Any] = {}
    if i % 20 == 0:
        alloc["nvidia.com/gpu"] = "8"
        spec["taints"] = [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}]
    if i % 20 == 7:
        spec["unschedulable"] = True
        spec["taints"] = [{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}]
    labels = {
        "kubernetes.io/hostname": name,
        "topology.kubernetes.io/zone": f"zone-{i % 3}",
        "node.kubernetes.io/instance-type": kind,
        "pool": f"pool-{i % 10}",
    }
    return {
        "kind": "Node",
        "metadata": {"name": name, "labels": labels},
        "spec": spec,
        "status": {"allocatable": alloc},
    }


def make_workload(w: int, rng: random.Random) -> dict[str, Any]:
    """A pod template: 1-2 containers, sometimes an init container, a sidecar or pod-level requests."""
    containers: list[dict[str, Any]] = [
        {
            "name": f"c{k}",
            "resources": {"requests": {"cpu": f"{rng.randrange(10, 500)}m", "memory": f"{rng.randrange(16, 1024)}Mi"}},
        }
        for k in range(rng.randint(1, 2))
    ]
    spec: dict[str, Any] = {"containers": containers}
    if w % 5 == 0:
        spec["initContainers"] = [{"name": "init", "resources": {"requests": {"cpu": "500m", "memory": "64Mi"}}}]
    if w % 7 == 0:
        spec.setdefault("initContainers", []).append(
            {"name": "proxy", "restartPolicy": "Always", "resources": {"requests": {"cpu": "100m"}}}
        )
    if w % 11 == 0:
        spec["resources"] = {"requests": {"cpu": "600m", "memory": "1Gi"}}
    if w % 50 == 0:
        containers[0]["resources"]["requests"]["nvidia.com/gpu"] = "1"
        spec["tolerations"] = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
    return spec


def bound_pod(i: int, template: dict[str, Any], node_name: str, status_resources: bool = False) -> dict[str, Any]:
    spec = dict(template, nodeName=node_name)
    status: dict[str, Any] = {"phase": "Running"}
    if status_resources:  # what a 1.33+ kubelet reports for running containers, equal to the spec
        status["containerStatuses"] = [
            {"name": c["name"], "allocatedResources": dict(c["resources"]["requests"]),
             "resources": {"requests": dict(c["resources"]["requests"])}}
            for c in template["containers"]
        ]
    return {
        "kind": "Pod",
        "metadata": {"name": f"pod-{i:06d}", "namespace": f"ns-{i % 40}"},
        "spec": spec,
        "status": status,
    }


def fit_model(strategy: str) -> KubeSchedulerModel:
    shape = (ShapePoint(0, 0), ShapePoint(100, 10)) if strategy == REQUESTED_TO_CAPACITY_RATIO else None
    args = FitArgs(
        strategy=strategy,
        resources=(ResourceWeight("cpu", 1), ResourceWeight("memory", 1), ResourceWeight("nvidia.com/gpu", 3)),
        shape=shape,
    )
    return KubeSchedulerModel(
        profiles=(Profile("default-scheduler", fit=args, score_plugin_weights={"NodeResourcesFit": 1}),)
    )


def measure(fn: Callable[[int], object], runs: int) -> tuple[float, float]:
    """(median, p90) in microseconds of ``fn(run_index)``."""
    samples = []
    for i in range(runs):
        start = time.perf_counter_ns()
        fn(i)
        samples.append((time.perf_counter_ns() - start) / 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.9)]


def measure_after(setup: Callable[[int], object], fn: Callable[[int], object], runs: int) -> tuple[float, float]:
    """:func:`measure` of ``fn(run_index)``, each run after an untimed ``setup(run_index)``."""
    samples = []
    for i in range(runs):
        setup(i)
        start = time.perf_counter_ns()
        fn(i)
        samples.append((time.perf_counter_ns() - start) / 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.9)]


def state_memory(nodes: list[dict[str, Any]], pods: list[dict[str, Any]]) -> int:
    """Bytes allocated by building a second state and still held once the build is done.

    Strings the state shares with the input objects (node and pod names) are not counted.
    """
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    state = ClusterState()
    for n in nodes:
        state.apply_node(n)
    for p in pods:
        state.apply_pod(p)
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    held = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    del state
    return held


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--pods", type=int, default=150_000)
    parser.add_argument("--workloads", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--memory", action="store_true", help="also measure the state's memory (slow)")
    parser.add_argument("--status-resources", action="store_true",
                        help="bound pods' container statuses report resources (1.33+ kubelets), equal to the spec")
    opts = parser.parse_args()
    rng = random.Random(opts.seed)
    nodes = [make_node(i, rng) for i in range(opts.nodes)]
    templates = [make_workload(w, rng) for w in range(opts.workloads)]
    pods = [
        bound_pod(i, templates[rng.randrange(len(templates))], nodes[rng.randrange(len(nodes))]["metadata"]["name"],
                  opts.status_resources)
        for i in range(opts.pods)
    ]

    state = ClusterState()
    start = time.perf_counter()
    for n in nodes:
        state.apply_node(n)
    for p in pods:
        state.apply_pod(p)
    build = time.perf_counter() - start
    # Long-lived objects (the state, the pod list) need not be rescanned by every full GC pass;
    # a webhook does the same after its initial LIST.
    gc.collect()
    gc.freeze()
    print(
        f"build: {opts.nodes} nodes + {opts.pods} pods in {build:.2f} s "
        f"({build / (opts.nodes + opts.pods) * 1e6:.1f} us/object); counted pods {state.pod_count}"
    )
    if opts.memory:
        print(f"memory held by the state: {state_memory(nodes, pods) / 2**20:.1f} MiB (tracemalloc, separate build)")

    incoming = {"metadata": {"name": "incoming", "namespace": "bench"}, "spec": templates[1]}
    selective = {
        "metadata": {"name": "incoming", "namespace": "bench"},
        "spec": dict(
            templates[1],
            nodeSelector={"topology.kubernetes.io/zone": "zone-1"},
            tolerations=[{"key": "nvidia.com/gpu", "operator": "Exists"}],
        ),
    }
    models: list[tuple[str, KubeSchedulerModel | VolcanoModel]] = [
        (name, fit_model(name)) for name in (LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO)
    ]
    models.append(
        (
            "Volcano binpack",
            VolcanoModel(
                actions=("allocate",),
                binpack=(VolcanoBinpackArgs(weight=10, resources={"cpu": 1, "memory": 1, "nvidia.com/gpu": 3}),),
            ),
        )
    )
    print(f"rank one pod against {state.node_count} nodes, top 10, median / p90 over {opts.runs} runs:")
    for label, model in models:

        def warm_rank(_i: int, m: KubeSchedulerModel | VolcanoModel = model) -> object:
            return state.rank(incoming, m)

        def selective_rank(_i: int, m: KubeSchedulerModel | VolcanoModel = model) -> object:
            return state.rank(selective, m)

        warm = measure(warm_rank, opts.runs)
        sel = measure(selective_rank, opts.runs)

        def cold(i: int, m: KubeSchedulerModel | VolcanoModel = model, label: str = label) -> object:
            spec = {
                "containers": [
                    {
                        "name": "c",
                        "resources": {
                            "requests": {"cpu": f"{100 + i}m", "memory": f"{sum(map(ord, label)) % 1000 + i}Ki"}
                        },
                    }
                ]
            }
            # The label offset keeps the strategies' request shapes apart (each call is a memo miss).
            return state.rank({"metadata": {"name": "cold"}, "spec": spec}, m)

        cold_t = measure(cold, opts.runs)
        print(
            f"  {label:26s} warm {warm[0]:7.1f} / {warm[1]:7.1f} us   with nodeSelector+toleration "
            f"{sel[0]:7.1f} / {sel[1]:7.1f} us   cold request shape {cold_t[0]:7.1f} / {cold_t[1]:7.1f} us"
        )
    ranking = state.rank(incoming, models[0][1])
    print(f"  (feasible {ranking.feasible_nodes}/{ranking.total_nodes}, reasons {dict(ranking.reason_counts)})")
    pinned_names = [n["metadata"]["name"] for n in nodes[1:4]]
    term = {"matchFields": [{"key": "metadata.name", "operator": "In", "values": pinned_names}]}
    pinned = {
        "metadata": {"name": "pinned", "namespace": "bench"},
        "spec": dict(
            templates[1],
            affinity={
                "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [term]}}
            },
        ),
    }
    median, p90 = measure(lambda _i: state.rank(pinned, models[0][1]), opts.runs)
    print(f"  LeastAllocated, pod pinned to 3 nodes by matchFields  {median:7.1f} / {p90:7.1f} us")

    # A bound pod deleted and added back before each ranking, untimed: the ranking right after a watch event,
    # when what is kept until the nodes or their pods change (the balance without the pod) is worked out again.
    def churn(i: int) -> None:
        moved = pods[i % len(pods)]
        state.delete_pod(moved["metadata"]["namespace"], moved["metadata"]["name"])
        state.apply_pod(moved)

    for label, model in models[:3]:

        def rank_incoming(_i: int, m: KubeSchedulerModel | VolcanoModel = model) -> object:
            return state.rank(incoming, m)

        median, p90 = measure_after(churn, rank_incoming, opts.runs)
        print(f"  {label:26s} right after a bound pod changed  {median:7.1f} / {p90:7.1f} us")

    print(f"incremental update, median / p90 over {opts.runs} events:")
    fresh = [
        bound_pod(opts.pods + i, templates[i % len(templates)], nodes[i % len(nodes)]["metadata"]["name"])
        for i in range(opts.runs)
    ]
    events: list[tuple[str, Callable[[int], object]]] = [
        ("apply_pod  new bound pod (known shape)", lambda i: state.apply_pod(fresh[i])),
        ("apply_pod  status-only MODIFIED", lambda i: state.apply_pod(fresh[i])),
        ("delete_pod", lambda i: state.delete_pod(fresh[i]["metadata"]["namespace"], fresh[i]["metadata"]["name"])),
        ("apply_pod  new bound pod (new shape)", lambda i: state.apply_pod(novel[i])),
        ("apply_node MODIFIED (same content)", lambda i: state.apply_node(nodes[i % len(nodes)])),
    ]
    novel = [
        bound_pod(
            opts.pods + opts.runs + i,
            {"containers": [{"name": "c", "resources": {"requests": {"cpu": f"{i + 1}m", "memory": f"{i + 1}Mi"}}}]},
            nodes[i % len(nodes)]["metadata"]["name"],
        )
        for i in range(opts.runs)
    ]
    for label, event in events:
        median, p90 = measure(event, opts.runs)
        print(f"  {label:40s} {median:7.1f} / {p90:7.1f} us")


if __name__ == "__main__":
    main()
