"""Benchmark the preemption prediction in the webhook's path: a pod that fits on no node.

Run:  python benchmarks/preemption_bench.py [--nodes 5000] [--pods 150000] [--runs 200] [--seed 1]

The cluster of ``scoring_bench.py`` (5,000 nodes, 150,000 bound pods from 3,000 workloads), with
priorities (50 % at 0, 30 % at 100, 20 % at 1000), a start time per pod, app labels and 200
PodDisruptionBudgets with few disruptions left. The pending pod asks for 1 m of cpu more than
the freest schedulable node has, so it fits nowhere and every node large enough is a candidate.

Measured side by side in one run (interleaved, medians / p90 / p99 in ms):
* ``rank``: what the webhook did before issue 10 for such a pod (filters + scores);
* ``rank+preempt``: the whole annotation path, ``annotation_ops`` of the Pod decision;
* ``preempt`` alone for preemptor priorities that make 50 %, 80 % and 100 % of the pods lower-priority,
  with the pod restricted by nodeSelector to one pool (1/10 of the candidate nodes), and after a bound
  pod was deleted and created again (a pod event, which changes the pod table; the other variants
  re-apply an unchanged Node first).
The scalar model (``binpack-lint explain``'s) runs once on the same cluster for comparison.

``--tied K`` measures the worst case of equally important pods instead: every node holds K pods of one
priority, without start time and with different cpu requests, so each node has K! orders Go may reprieve
them in. ``preempt`` runs with the shared budget of orders (``orders.TOTAL_ORDER_LIMIT``) and with the
budget lifted, interleaved.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# This checkout's packages, not the installed ones (an editable install may point at another tree).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring_bench import bound_pod, make_node, make_workload

from linter.model import Profile
from linter.scoring.cluster.state import ClusterState
from linter.scoring.preemption import orders, predict_preemption
from webhook.admission.decide.pods import annotation_ops
from webhook.admission.scheduler_models import SchedulerModels
from webhook.cluster.static import StaticClusterView
from webhook.settings import Settings

PRIORITIES = [0] * 5 + [100] * 3 + [1000] * 2


def cluster(opts: argparse.Namespace) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    rng = random.Random(opts.seed)
    nodes = [make_node(i, rng) for i in range(opts.nodes)]
    workloads = [make_workload(w, rng) for w in range(3000)]
    pods = []
    for i in range(opts.pods):
        w = rng.randrange(len(workloads))
        pod = bound_pod(i, workloads[w], nodes[rng.randrange(len(nodes))]["metadata"]["name"])
        pod["spec"] = {**pod["spec"], "priority": PRIORITIES[w % len(PRIORITIES)]}
        pod["metadata"]["labels"] = {"app": f"app-{w}"}
        pod["status"]["startTime"] = f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:{i % 59:02d}Z"
        pods.append(pod)
    pdbs = [{"metadata": {"name": f"pdb-{w}", "namespace": f"ns-{w % 40}"},
             "spec": {"selector": {"matchLabels": {"app": f"app-{w}"}}},
             "status": {"disruptionsAllowed": w % 2}} for w in range(0, 3000, 15)]
    return nodes, pods, pdbs


def pending(state: ClusterState, priority: int, pool: str | None) -> dict[str, Any]:
    store, n = state.store, state.store.size
    cpu = store.resource_index["cpu"]
    schedulable = store.present[:n] & ~store.unschedulable[:n] & (store.taint_id[:n] == 0)
    free = store.alloc[cpu, :n] - store.act_req[cpu, :n]
    spec: dict[str, Any] = {"priority": priority, "preemptionPolicy": "PreemptLowerPriority",
                            "containers": [{"name": "c", "resources": {"requests": {
                                "cpu": f"{int(free[schedulable].max()) + 1}m", "memory": "1Gi"}}}]}
    if pool:
        spec["nodeSelector"] = {"pool": pool}
    return {"kind": "Pod", "metadata": {"name": f"pending-{priority}", "namespace": "default"}, "spec": spec}


def measure(fns: dict[str, Callable[[], object]], runs: int) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(runs):
        for name, fn in fns.items():  # interleaved, so machine drift hits every variant alike
            start = time.perf_counter_ns()
            fn()
            samples[name].append((time.perf_counter_ns() - start) / 1e6)
    return samples


def row(name: str, values: list[float]) -> str:
    values = sorted(values)
    p90, p99 = values[int(len(values) * 0.9)], values[min(len(values) - 1, int(len(values) * 0.99))]
    return f"| {name} | {statistics.median(values):.2f} | {p90:.2f} | {p99:.2f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--pods", type=int, default=150_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tied", type=int, default=0, metavar="K",
                        help="instead: K different tied pods on every node (the orders' worst case)")
    opts = parser.parse_args()
    if opts.tied:
        tied_main(opts)
        return
    nodes, pods, pdbs = cluster(opts)
    start = time.perf_counter()
    view = StaticClusterView(nodes=nodes, pods=pods, pdbs=pdbs)
    gc.collect()
    gc.freeze()  # as the webhook's cache does after its sync: the collector then skips what the sync built
    print(f"state with {len(nodes)} nodes, {len(pods)} pods, {len(pdbs)} PDBs built in "
          f"{time.perf_counter() - start:.1f} s")
    models, settings = SchedulerModels.static(), Settings()
    kube, _ = models.current()
    profile: Profile = kube.profiles[0]
    with view.scheduling_state() as state:
        pods_by = {p: pending(state, p, None) for p in (50, 500, 5000)}
        pooled = pending(state, 500, "pool-3")
        fast = state.preempt(pods_by[500], profile)
        print(f"pod {pods_by[500]['spec']['containers'][0]['resources']['requests']}: nominated "
              f"{fast.nominated_node}, {len(fast.victims)} victims, {fast.candidates} candidates of "
              f"{fast.potential_nodes} potential nodes, possible {len(fast.possible_nodes)}; random: {fast.random}")
        lower = {p: sum(1 for x in pods if x["spec"]["priority"] < p) for p in (50, 500, 5000)}

        def ranked() -> object:
            return state.rank(pods_by[500], kube, "default-scheduler", top=settings.top)

        def after_event(target: dict[str, Any]) -> Callable[[], object]:
            """One unrelated watch event first, as in a live cluster: no cached prediction applies."""
            def run() -> object:
                state.apply_node(nodes[1])
                return state.preempt(target, profile)
            return run

        churn = iter(range(10**9))

        def after_pod_churn(target: dict[str, Any]) -> Callable[[], object]:
            """A bound pod deleted and created again first (two pod events that change the pod table)."""
            def run() -> object:
                gone = pods[next(churn) * 7919 % len(pods)]
                state.delete_pod(gone["metadata"]["namespace"], gone["metadata"]["name"])
                state.apply_pod(gone)
                return state.preempt(target, profile)
            return run

        fns: dict[str, Callable[[], object]] = {
            "rank only (before issue 10)": ranked,
            "preempt, 50 % of pods lower": after_event(pods_by[50]),
            "preempt, 80 % of pods lower": after_event(pods_by[500]),
            "preempt, 100 % of pods lower": after_event(pods_by[5000]),
            "preempt, 80 % lower, one pool (1/10 of the nodes)": after_event(pooled),
            "preempt, 80 % lower, after a pod deleted and re-created": after_pod_churn(pods_by[500]),
            "re-applying the unchanged node (the event above, alone)": lambda: state.apply_node(nodes[1]),
        }
        samples = measure(fns, opts.runs)
        state.preempt(pods_by[500], profile)  # a replica burst: the same pod again with no event in between
        samples.update(measure({"preempt, 80 % lower, next replica of a burst (no event between)":
                                lambda: state.preempt(pods_by[500], profile)}, opts.runs))

    def webhook_path() -> object:
        with view.scheduling_state() as state:
            state.apply_node(nodes[1])
        return annotation_ops(pods_by[500], view, settings, models)

    def webhook_after_churn() -> object:
        with view.scheduling_state() as state:
            gone = pods[next(churn) * 7919 % len(pods)]
            state.delete_pod(gone["metadata"]["namespace"], gone["metadata"]["name"])
            state.apply_pod(gone)
        return annotation_ops(pods_by[500], view, settings, models)

    full = measure({"webhook annotation_ops (rank + preempt, lock, JSON), after an event": webhook_path,
                    "webhook annotation_ops, after a pod deleted and re-created": webhook_after_churn}, opts.runs)
    print(f"\nmedian / p90 / p99 in ms over {opts.runs} runs (lower-priority pods: {lower}):\n")
    print("| path | median | p90 | p99 |\n|---|---:|---:|---:|")
    for name, values in {**samples, **full}.items():
        print(row(name, values))
    start = time.perf_counter()
    scalar = predict_preemption(pods_by[500], nodes, pods, pdbs)
    same = scalar.nominated_node == fast.nominated_node and scalar.possible_nodes == fast.possible_nodes
    print(f"\nscalar model (explain), once: {time.perf_counter() - start:.1f} s, nominated {scalar.nominated_node}, "
          f"same as the twin: {same}")


def tied_main(opts: argparse.Namespace) -> None:
    """``--tied K``: every node full of K equally important, different pods; the pod fits nowhere."""
    k = opts.tied
    state = ClusterState()
    for i in range(opts.nodes):
        name = f"node-{i:05d}"
        state.apply_node({"metadata": {"name": name}, "status": {"allocatable": {
            "cpu": f"{sum(100 * (j + 1) + 300 for j in range(k))}m", "memory": "64Gi", "pods": "110"}}})
        for j in range(k):  # no startTime: every comparison of two of them reads a fresh "now"
            state.apply_pod({"metadata": {"name": f"p{i}-{j}", "namespace": "default"},
                             "spec": {"nodeName": name, "priority": 10, "containers": [{"name": "c", "resources": {
                                 "requests": {"cpu": f"{100 * (j + 1) + 300}m"}}}]},
                             "status": {"phase": "Running"}})
    target = {"metadata": {"name": "pending", "namespace": "default"},
              "spec": {"priority": 1000, "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}
    profile = Profile("default-scheduler")
    budget = orders.TOTAL_ORDER_LIMIT

    def with_total(total: int) -> Callable[[], object]:
        def run() -> object:
            orders.TOTAL_ORDER_LIMIT = total
            try:
                state.apply_node({"metadata": {"name": "node-00001"}, "status": {"allocatable": {
                    "cpu": f"{sum(100 * (j + 1) + 300 for j in range(k))}m", "memory": "64Gi", "pods": "110"}}})
                return state.preempt(target, profile)
            finally:
                orders.TOTAL_ORDER_LIMIT = budget
        return run

    got = with_total(budget)()
    print(f"{opts.nodes} nodes, {k} tied pods each ({orders.count_orders([list(range(k))])} orders per node); "
          f"possible nodes {len(got.possible_nodes)}, notes {len(got.random)}")
    samples = measure({f"preempt, budget {budget} orders": with_total(budget),
                       "preempt, no budget": with_total(10**12)}, opts.runs)
    print(f"\nmedian / p90 / p99 in ms over {opts.runs} runs:\n")
    print("| path | median | p90 | p99 |\n|---|---:|---:|---:|")
    for name, values in samples.items():
        print(row(name, values))


if __name__ == "__main__":
    main()
