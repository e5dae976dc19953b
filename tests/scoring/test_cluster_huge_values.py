"""Amounts and weights past int64: the webhook's ClusterState and explain's scalar model agree with Go.

* NodeResourcesFit computes ``x * 100`` in int64 (least_allocated.go, most_allocated.go,
  requested_to_capacity_ratio.go), which wraps for an allocatable above about 82Pi;
* Volcano reads quantities with ``float64(q.MilliValue())``, which wraps (or is 0) past int64
  instead of failing, and multiplies ``MaxNodeScore * int64(binpack.weight)`` in int64 (binpack.go).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from linter.goint import wrap_int64
from linter.model import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    BalancedArgs,
    FitArgs,
    KubeSchedulerModel,
    Profile,
    ResourceWeight,
    ShapePoint,
    VolcanoBinpackArgs,
    VolcanoModel,
)
from linter.scoring.balanced import balanced_score_node
from linter.scoring.cluster.state import ClusterState
from linter.scoring.feasibility import fit_filter
from linter.scoring.nodes import node_views
from linter.scoring.requests import fit_score_request, volcano_request
from linter.scoring.strategies import fit_score_node
from linter.scoring.volcano import binpack_score_node

from .test_cluster_property import SETTINGS, cluster

HUGE = ["64Pi", "92Pi", "100Pi", "1Ei", "7Ei", "8E", "9223372036854775807", "10000000000000000", "1e16", "16Gi"]
REQUEST = ["1Gi", "3Pi", "50Pi", "1Ei", "0", "1500m", "9e18"]
NAMES = ["memory", "ephemeral-storage", "example.com/foo"]


def _node(name: str, allocatable: dict[str, str]) -> dict[str, Any]:
    return {"metadata": {"name": name}, "status": {"allocatable": {"cpu": "4", **allocatable}}}


def _pod(name: str, requests: dict[str, str], node: str | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "c", "resources": {"requests": requests}}]}
    if node:
        spec["nodeName"] = node
    return {"metadata": {"name": name, "namespace": "ns"}, "spec": spec}


requests_st = st.dictionaries(st.sampled_from(NAMES), st.sampled_from(REQUEST), max_size=3)
allocatable_st = st.dictionaries(st.sampled_from(NAMES), st.sampled_from(HUGE), max_size=3)
SHAPE = (ShapePoint(0, 0), ShapePoint(100, 10))


@SETTINGS
@given(
    allocatables=st.lists(allocatable_st, min_size=1, max_size=3),
    bound=st.lists(requests_st, max_size=3),
    incoming=requests_st,
    strategy=st.sampled_from([LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO]),
    weights=st.lists(st.integers(1, 100), min_size=4, max_size=4),
)
def test_fit_scores_agree_on_huge_amounts(
    allocatables: list[dict[str, str]],
    bound: list[dict[str, str]],
    incoming: dict[str, str],
    strategy: str,
    weights: list[int],
) -> None:
    nodes = [_node(f"n{i}", a) for i, a in enumerate(allocatables)]
    pods = [_pod(f"p{i}", r, f"n{i % len(nodes)}") for i, r in enumerate(bound)]
    pod = _pod("incoming", {"cpu": "1", **incoming})
    resources = tuple(ResourceWeight(n, w) for n, w in zip(["cpu", *NAMES], weights, strict=True))
    args = FitArgs(strategy=strategy, resources=resources,
                   shape=SHAPE if strategy == REQUESTED_TO_CAPACITY_RATIO else None)
    model = KubeSchedulerModel(profiles=(Profile("default-scheduler", fit=args),))
    got = dict(cluster(nodes, pods).rank(pod, model, top=0, filters=False).scores)
    request = fit_score_request(pod)
    want = {v.name: fit_score_node(args, request, v.fit_requested, v.allocatable).score
            for v in node_views(nodes, pods)}
    assert got == want


@pytest.mark.parametrize(("memory", "score"), [("64Pi", 87), ("100Pi", 6), ("1Ei", 39), ("7Ei", 37)])
def test_least_allocated_wraps_like_go(memory: str, score: int) -> None:
    # cpu (4000 - 1000) * 100 / 4000 = 75; memory wrap(alloc - 1Gi) * 100 in int64, then / alloc; mean of both
    nodes = [_node("n", {"memory": memory})]
    pod = _pod("p", {"cpu": "1", "memory": "1Gi"})
    view = node_views(nodes, [])[0]
    assert fit_score_node(FitArgs(), fit_score_request(pod), view.fit_requested, view.allocatable).score == score
    model = KubeSchedulerModel(profiles=(Profile("default-scheduler"),))
    assert dict(cluster(nodes, []).rank(pod, model, top=0, filters=False).scores) == {"n": score}


def test_fit_filter_free_amount_wraps_like_go() -> None:
    # The bound pods request 13,611,686,018,427,387,000m cpu: NodeInfo's int64 sum wraps to
    # -4,835,058,055,282,164,616, so fitsRequest's allocatable - requested is 4,835,058,055,282,172,616
    # and 64 cpu is not insufficient.
    nodes = [_node("n", {"cpu": "8", "pods": "110"})]
    pods = [_pod("a", {"cpu": "4611686018427387"}, "n"), _pod("b", {"cpu": "9e15"}, "n")]
    view = node_views(nodes, pods)[0]
    assert fit_filter({"cpu": 64000}, 2, view.requested, view.allocatable) == []
    assert fit_filter({"cpu": 64000}, 2, {"cpu": 9000}, view.allocatable) == ["Insufficient cpu"]


def test_balanced_without_pod_is_the_int64_node_sum() -> None:
    # cpu: node 9e18m, pod 4,611,686,018,427,387,000m; with the pod the int64 sum wraps to
    # -4,835,058,055,282,164,616 (fraction -4835.06), without it it is 9e18 (fraction 9000, capped at 1).
    # memory 1.5Gi/1Gi and 1Gi/1Gi: both 1. b_with = int64((1 - |(-4835.06 - 1) / 2|) * 100) = -241702,
    # b_without = 100, score = 50 + (50 - 241702 - 100) / 2 = -120826 (balanced_allocation.go).
    nodes = [_node("n", {"cpu": "1e12", "memory": "1Gi"})]
    pods = [_pod("a", {"cpu": "9e15", "memory": "1Gi"}, "n")]
    view = node_views(nodes, pods)[0]
    got = balanced_score_node(BalancedArgs(), {"cpu": 4611686018427387000, "memory": 536870912},
                              view.requested, view.allocatable)
    assert [(r.requested, r.allocated) for r in got.resources] == [
        (-4835058055282164616, 9000000000000000000), (1610612736, 1073741824)]
    assert (got.with_pod, got.without_pod, got.score) == (-241702, 100, -120826)


def test_node_past_volcano_int64_is_stored_and_scored() -> None:
    # 10Pi of ephemeral-storage is 1.1e19 milli-units: Volcano's MilliValue wraps, kube-scheduler reads 10Pi.
    state = ClusterState()
    state.apply_node(_node("n1", {"memory": "8Gi", "pods": "110", "ephemeral-storage": "10Pi"}))
    assert (state.node_count, state.store.size) == (1, 1)
    col = state.store.resource_index["ephemeral-storage"]
    assert state.store.vc_alloc[col, 0] == float(wrap_int64(10 * 2**50 * 1000))
    model = KubeSchedulerModel(profiles=(Profile("default-scheduler"),))
    ranking = state.rank(_pod("p", {"cpu": "1"}), model, top=0)
    assert ranking.scores == (("n1", 86),) and ranking.total_nodes == 1


def test_node_update_out_of_int64_changes_nothing() -> None:
    state = ClusterState()
    with pytest.raises(ValueError, match=r"node n1: status.allocatable.cpu: .* out of kube-scheduler's int64 range"):
        state.apply_node(_node("n1", {}) | {"status": {"allocatable": {"cpu": "9223372036854775807"}}})
    assert (state.node_count, state.store.size) == (0, 0)


def _binpack(nodes: list[dict[str, Any]], pods: list[dict[str, Any]], pod: dict[str, Any],
             args: VolcanoBinpackArgs) -> tuple[dict[str, float], dict[str, float]]:
    model = VolcanoModel(actions=("allocate",), binpack=(args,))
    got = {k: float(v) for k, v in cluster(nodes, pods).rank(pod, model, top=0, filters=False).scores}
    task = volcano_request(pod)
    want = {v.name: binpack_score_node(args, task, v.volcano_used, v.volcano_allocatable).score
            for v in node_views(nodes, pods)}
    return got, want


def test_binpack_weight_product_wraps_in_int64() -> None:
    args = VolcanoBinpackArgs(weight=10**17, resources={"cpu": 1, "memory": 1}, enable_node_order=True)
    got, want = _binpack([_node("n1", {})], [], _pod("p", {"cpu": "1"}), args)
    assert got == want == {"n1": 0.25 * float(wrap_int64(100 * 10**17))}


def test_binpack_counts_each_container_rounded_up() -> None:
    args = VolcanoBinpackArgs(weight=1, resources={"cpu": 1, "memory": 1}, enable_node_order=True)
    pod = {"metadata": {"name": "p", "namespace": "ns"},
           "spec": {"containers": [{"name": f"c{i}", "resources": {"requests": {"cpu": "1.0005"}}} for i in (1, 2)]}}
    bound = [dict(pod, metadata={"name": "b", "namespace": "ns"}, spec={**pod["spec"], "nodeName": "n1"})]
    got, want = _binpack([_node("n1", {"cpu": "8", "memory": "8Gi"})], bound, pod, args)
    assert got == want == {"n1": (2002 + 2002) / 8000 * 100}


@SETTINGS
@given(
    allocatables=st.lists(allocatable_st, min_size=1, max_size=3),
    bound=st.lists(requests_st, max_size=3),
    incoming=requests_st,
    weight=st.sampled_from([1, -3, 10**17, 2**62, -(2**63)]),
)
def test_binpack_scores_agree_on_huge_amounts(
    allocatables: list[dict[str, str]], bound: list[dict[str, str]], incoming: dict[str, str], weight: int
) -> None:
    nodes = [_node(f"n{i}", a) for i, a in enumerate(allocatables)]
    pods = [_pod(f"p{i}", r, f"n{i % len(nodes)}") for i, r in enumerate(bound)]
    args = VolcanoBinpackArgs(weight=weight, resources={"cpu": 1, "memory": 2, "ephemeral-storage": 1,
                                                        "example.com/foo": 3}, enable_node_order=True)
    got, want = _binpack(nodes, pods, _pod("incoming", {"cpu": "1", **incoming}), args)
    assert got.keys() == want.keys()
    for name, score in want.items():
        assert abs(got[name] - score) <= 1e-9 * max(1.0, abs(score)), name
