"""The ranking's fast paths against their slow equivalents and the scalar model.

* top-K selection (one partition on a per-row key, score x rows plus the reversed name rank, as int32 or,
  for very large clusters, float64, then a sort of the K rows) equals the full best-first order cut to K,
  with many tied scores so that the name order decides, and equal scores whose weighted sums leave
  different remainders still go by name;
* the float64 NodeResourcesFit path is exact: allocatable values on both sides of the range
  where float64 is used, with requests chosen so the quotient lands just below or on an integer, and
  RequestedToCapacityRatio shapes whose scores of 0 drop a resource out of the average;
* the cached allocatable columns follow a node's allocatable changes;
* reason counts, worked out on first use, describe the state that was ranked even when it has changed since;
* the kept "pods full" mask follows binds, deletes and allocatable changes.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from linter.model import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    FitArgs,
    KubeSchedulerModel,
    Profile,
    ResourceWeight,
    ShapePoint,
)
from linter.scoring.cluster import rank
from linter.scoring.cluster.rank import _INT32_KEY_LIMIT
from linter.scoring.cluster.state import ClusterState
from linter.scoring.feasibility import REASON_TOO_MANY_PODS
from linter.scoring.nodes import node_views
from linter.scoring.requests import fit_score_request
from linter.scoring.strategies import fit_score_node

from .test_cluster_property import SETTINGS, bound_pod, cluster, fit_args, incoming_pod, node, unique_by_name


def _model(args: FitArgs) -> KubeSchedulerModel:
    return KubeSchedulerModel(profiles=(Profile("default-scheduler", fit=args),))


def _bound(i: int, node: str, requests: dict[str, str]) -> dict[str, Any]:
    spec = {"nodeName": node, "containers": [{"name": "c", "resources": {"requests": requests}}]}
    return {"metadata": {"name": f"p{i}", "namespace": "ns"}, "spec": spec}


def _assert_scores_are_the_scalar_models(
    nodes: list[dict[str, Any]], pods: list[dict[str, Any]], incoming: dict[str, Any], args: FitArgs
) -> None:
    """Every node's ranked score (score-only) equals the scalar model's for that node."""
    ranking = cluster(nodes, pods).rank(incoming, _model(args), top=0, filters=False)
    request = fit_score_request(incoming)
    want = {v.name: fit_score_node(args, request, v.fit_requested, v.allocatable).score
            for v in node_views(nodes, pods)}
    assert dict(ranking.scores) == want


@SETTINGS
@given(
    nodes=st.lists(node(), max_size=6).map(unique_by_name),
    pods=st.lists(bound_pod(), max_size=12),
    pod=incoming_pod(),
    args=fit_args(),
    top=st.integers(1, 6),
    filters=st.booleans(),
)
def test_top_k_is_the_full_order_cut_to_k(
    nodes: list[dict[str, Any]], pods: list[dict[str, Any]], pod: dict[str, Any], args: FitArgs, top: int,
    filters: bool,
) -> None:
    state = cluster(nodes, unique_by_name(pods))
    full = state.rank(pod, _model(args), top=0, filters=filters)
    cut = state.rank(pod, _model(args), top=top, filters=filters)
    assert cut.scores == full.scores[:top]
    assert cut.reason_counts == full.reason_counts and cut.feasible_nodes == full.feasible_nodes


@given(
    scores=st.lists(st.integers(0, 3), min_size=1, max_size=60),
    top=st.integers(1, 70),
    order=st.randoms(use_true_random=False),
    int32_keys=st.booleans(),
)
def test_top_k_with_many_ties_prefers_names_in_order(
    scores: list[int], top: int, order: Any, int32_keys: bool
) -> None:
    # Node n's free cpu decides its LeastAllocated score: 4 cores, a 1-core pod per score step.
    names = [f"node-{i:03d}" for i in range(len(scores))]
    indices = list(range(len(scores)))
    order.shuffle(indices)  # rows are created in a random order, so row order is not name order
    state = ClusterState()
    for i in indices:
        state.apply_node({"metadata": {"name": names[i]}, "status": {"allocatable": {"cpu": "4", "pods": "99"}}})
        for j in range(scores[i]):
            spec = {"nodeName": names[i], "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}
            state.apply_pod({"metadata": {"name": f"p-{i}-{j}", "namespace": "ns"}, "spec": spec})
    args = FitArgs(strategy=LEAST_ALLOCATED, resources=(ResourceWeight("cpu", 1),))
    incoming = {"metadata": {"name": "x"}, "spec": {"containers": [{"name": "c"}]}}
    # Without int32 keys (a cluster of over 21 million rows) the same keys are partitioned as float64.
    with mock.patch.object(rank, "_INT32_KEY_LIMIT", _INT32_KEY_LIMIT if int32_keys else 0):
        got = state.rank(incoming, _model(args), top=top, filters=False).scores
    want = sorted(((n, s) for n, s in state.rank(incoming, _model(args), top=0, filters=False).scores),
                  key=lambda kv: (-kv[1], kv[0]))
    assert list(got) == want[:top]
    assert len({s for _, s in want}) == len(set(scores))


BOUNDARY = st.one_of(
    st.integers(1, 2**20),
    st.integers(2**46 - 2**10, 2**46 + 2**10),
    st.integers(2**52, 2**53 + 2**10),
    st.integers(2**55, 2**56),  # the largest values whose x 100 still fits int64 (no Go wrap-around)
)


@SETTINGS
@given(
    alloc=st.lists(BOUNDARY, min_size=1, max_size=4),
    used_fraction=st.lists(st.integers(0, 101), min_size=4, max_size=4),
    nudge=st.integers(-2, 2),
    strategy=st.sampled_from([LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO]),
    weight=st.integers(1, 3),
)
def test_float_path_is_exact_near_its_limits(
    alloc: list[int], used_fraction: list[int], nudge: int, strategy: str, weight: int
) -> None:
    """Memory allocatable in plain bytes around 2**46 and 2**53; the bound pod uses a whole percentage
    of it, nudged by a few bytes, so that (allocatable - requested) * 100 / allocatable is an integer or
    a hair away from one."""
    nodes, pods = [], []
    for i, amount in enumerate(alloc):
        name = f"n{i}"
        nodes.append({"metadata": {"name": name}, "status": {"allocatable": {"memory": str(amount), "pods": "9"}}})
        used = max(0, amount * used_fraction[i] // 100 + nudge)
        pods.append(_bound(i, name, {"memory": str(used)}))
    shape = (ShapePoint(0, 0), ShapePoint(100, 10)) if strategy == REQUESTED_TO_CAPACITY_RATIO else None
    args = FitArgs(strategy=strategy, resources=(ResourceWeight("memory", weight), ResourceWeight("cpu", 1)),
                   shape=shape)
    incoming = {"metadata": {"name": "x"}, "spec": {"containers": [{"name": "c", "resources": {
        "requests": {"memory": "1", "cpu": "100m"}}}]}}
    _assert_scores_are_the_scalar_models(nodes, pods, incoming, args)


def test_cached_allocatable_follows_node_updates() -> None:
    args = FitArgs(strategy=LEAST_ALLOCATED, resources=(ResourceWeight("cpu", 1),))
    state = ClusterState()
    incoming = {"metadata": {"name": "x"}, "spec": {"containers": [{"name": "c", "resources": {
        "requests": {"cpu": "1"}}}]}}
    request = fit_score_request(incoming)
    updates = [("n", "4"), ("n", "4"), ("n", "8"), ("n", "2"), (None, None), ("m", "10"), ("o", "3")]
    for name, cpu in updates:
        if name is None:
            state.delete_node("n")
            continue
        node = {"metadata": {"name": name}, "status": {"allocatable": {"cpu": cpu, "pods": "9"}}}
        state.apply_node(node)
        got = dict(state.rank(incoming, _model(args), top=0, filters=False).scores)
        (view,) = node_views([node], [])
        assert got[name] == fit_score_node(args, request, view.fit_requested, view.allocatable).score


def test_reason_counts_read_late_describe_the_state_that_was_ranked() -> None:
    # The counts are worked out on first use, which in the webhook is after the state's lock is released
    # and watch events may have changed it: they must still describe the state the pod was ranked on.
    state = ClusterState()
    for i in range(4):
        spec = {"unschedulable": True} if i < 2 else {}
        state.apply_node({"metadata": {"name": f"n{i}"}, "spec": spec,
                          "status": {"allocatable": {"cpu": "1", "pods": "9"}}})
    big = {"metadata": {"name": "x"}, "spec": {"containers": [{"name": "c", "resources": {
        "requests": {"cpu": "2"}}}]}}
    ranking = state.rank(big, _model(FitArgs()), top=0)
    for i in range(4):  # now every node is cordoned
        state.apply_node({"metadata": {"name": f"n{i}"}, "spec": {"unschedulable": True},
                          "status": {"allocatable": {"cpu": "1", "pods": "9"}}})
    assert dict(ranking.reason_counts) == {"node(s) were unschedulable": 2, "Insufficient cpu": 2}
    assert dict(state.rank(big, _model(FitArgs()), top=0).reason_counts) == {"node(s) were unschedulable": 4}


def test_too_many_pods_follows_binds_deletes_and_allocatable_changes() -> None:
    # The store keeps "one more pod would exceed allocatable pods" per node; every change to either side
    # must reach the filter, and a ranking's counts read later must not see the changes made after it.
    state = ClusterState()

    def set_pods_allocatable(value: str) -> None:
        state.apply_node({"metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "8", "pods": value}}})

    incoming = {"metadata": {"name": "x"}, "spec": {"containers": [{"name": "c"}]}}

    def too_many() -> int:
        return state.rank(incoming, _model(FitArgs()), top=0).reason_counts.get(REASON_TOO_MANY_PODS, 0)

    set_pods_allocatable("2")
    seen = [too_many()]
    state.apply_pod(_bound(0, "n", {}))
    seen.append(too_many())
    state.apply_pod(_bound(1, "n", {}))
    seen.append(too_many())
    full = state.rank(incoming, _model(FitArgs()), top=0)
    set_pods_allocatable("3")
    seen.append(too_many())
    assert dict(full.reason_counts) == {REASON_TOO_MANY_PODS: 1}  # read after the node stopped being full
    state.apply_pod(_bound(2, "n", {}))
    seen.append(too_many())
    state.delete_pod("ns", "p0")
    seen.append(too_many())
    set_pods_allocatable("1")
    seen.append(too_many())
    assert seen == [0, 0, 1, 0, 1, 0, 1]


def test_equal_scores_rank_by_name_whatever_the_remainder() -> None:
    # n-b's weighted sum is odd (50 + 51), n-a's even (50 + 50): both score 50 after Go's integer division,
    # so the name decides. Ordering by the unrounded mean would put n-b first.
    state = ClusterState()
    for name, cpu_used, mem_used in (("n-a", "400m", "490"), ("n-b", "400m", "480"), ("n-c", "900m", "0")):
        state.apply_node({"metadata": {"name": name}, "status": {"allocatable": {
            "cpu": "1", "memory": "1000", "pods": "9"}}})
        spec = {"nodeName": name, "containers": [{"name": "c", "resources": {"requests": {
            "cpu": cpu_used, "memory": mem_used}}}]}
        state.apply_pod({"metadata": {"name": f"p-{name}", "namespace": "ns"}, "spec": spec})
    incoming = {"metadata": {"name": "x"}, "spec": {"containers": [{"name": "c", "resources": {"requests": {
        "cpu": "100m", "memory": "10"}}}]}}
    ranking = state.rank(incoming, _model(FitArgs()), top=0)
    assert ranking.scores[:2] == (("n-a", 50), ("n-b", 50))
    assert state.rank(incoming, _model(FitArgs()), top=1).scores == (("n-a", 50),)


@SETTINGS
@given(
    used=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 8)), min_size=1, max_size=5),
    scores=st.lists(st.integers(0, 10), min_size=2, max_size=3),
    weights=st.tuples(st.integers(1, 4), st.integers(1, 4)),
    order=st.booleans(),
)
def test_ratio_scores_of_zero_drop_out_of_both_sums(
    used: list[tuple[int, int]], scores: list[int], weights: tuple[int, int], order: bool
) -> None:
    """RequestedToCapacityRatio on nodes that all have cpu and memory (the float path): shapes that reach a
    score of 0, so that either resource, first or second in the arguments, can drop out of the average."""
    nodes, pods = [], []
    for i, (cpu, mem) in enumerate(used):
        name = f"n{i}"
        nodes.append({"metadata": {"name": name}, "status": {"allocatable": {"cpu": "4", "memory": "8", "pods": "9"}}})
        pods.append(_bound(i, name, {"cpu": str(cpu), "memory": str(mem)}))
    utilizations = [0, 50, 100][: len(scores)]
    shape = tuple(ShapePoint(u, s) for u, s in zip(utilizations, scores, strict=True))
    resources = (ResourceWeight("cpu", weights[0]), ResourceWeight("memory", weights[1]))
    args = FitArgs(strategy=REQUESTED_TO_CAPACITY_RATIO, resources=resources if order else resources[::-1],
                   shape=shape)
    incoming = {"metadata": {"name": "x"}, "spec": {"containers": [{"name": "c", "resources": {
        "requests": {"cpu": "0", "memory": "0"}}}]}}
    _assert_scores_are_the_scalar_models(nodes, pods, incoming, args)


@SETTINGS
@given(
    scores=st.lists(st.integers(0, 3), min_size=2, max_size=60),
    cordoned=st.lists(st.booleans(), min_size=60, max_size=60),
    top=st.integers(1, 70),
    order=st.randoms(use_true_random=False),
    int32_keys=st.booleans(),
)
def test_top_k_leaves_out_infeasible_nodes_whatever_their_names(
    scores: list[int], cordoned: list[bool], top: int, order: Any, int32_keys: bool
) -> None:
    """The top K of a ranking where some nodes are filtered out (cordoned) are the first K of the full
    ranking: the keys that keep infeasible rows below every feasible one must never reach the cut, not even
    when feasible nodes score 0 (MostAllocated on nearly empty nodes; a pod that requests nothing, so
    BalancedAllocation adds nothing)."""
    names = [f"node-{i:03d}" for i in range(len(scores))]
    indices = list(range(len(scores)))
    order.shuffle(indices)
    state = ClusterState()
    for i in indices:
        spec = {"unschedulable": True} if cordoned[i] else {}
        state.apply_node({"metadata": {"name": names[i]}, "spec": spec,
                          "status": {"allocatable": {"cpu": "1000", "memory": "4Gi", "pods": "99"}}})
        for j in range(scores[i]):
            pod_spec = {"nodeName": names[i], "containers": [{"name": "c", "resources": {"requests": {"cpu": "100"}}}]}
            state.apply_pod({"metadata": {"name": f"p-{i}-{j}", "namespace": "ns"}, "spec": pod_spec})
    args = FitArgs(strategy=MOST_ALLOCATED, resources=(ResourceWeight("cpu", 1),))  # 0, 10, 20 or 30
    incoming = {"metadata": {"name": "x"}, "spec": {"containers": [{"name": "c"}]}}
    with mock.patch.object(rank, "_INT32_KEY_LIMIT", _INT32_KEY_LIMIT if int32_keys else 0):
        got = state.rank(incoming, _model(args), top=top).scores
    everything = state.rank(incoming, _model(args), top=0).scores
    assert len(everything) == sum(1 for i in range(len(scores)) if not cordoned[i])
    assert list(got) == list(everything)[:top]
