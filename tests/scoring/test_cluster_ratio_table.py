"""RequestedToCapacityRatio's score table (linter.scoring.cluster.ratio_table) and the ranking path that
looks every node's score up in it (one or two scored resources on nodes that all have them): every entry is
the scalar model's score, and ranked scores are the scalar model's whatever the shape, weights, argument
order and utilizations (0..100, over-committed included)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linter.model import REQUESTED_TO_CAPACITY_RATIO, FitArgs, ResourceWeight, ShapePoint
from linter.scoring.cluster.ratio_table import UTILIZATIONS, ratio_score_table
from linter.scoring.strategies import requested_to_capacity_ratio

from .test_cluster_fastpaths import _assert_scores_are_the_scalar_models
from .test_cluster_property import SETTINGS


@st.composite
def shapes(draw: st.DrawFn) -> tuple[ShapePoint, ...]:
    utilizations = sorted(draw(st.sets(st.integers(0, 100), min_size=1, max_size=5)))
    return tuple(ShapePoint(u, draw(st.integers(0, 10))) for u in utilizations)


@settings(max_examples=25, deadline=None)
@given(shape=shapes(), weights=st.lists(st.integers(1, 4) | st.integers(1, 2**39 - 1), min_size=1, max_size=2))
def test_every_table_entry_is_the_scalar_models_score(shape: tuple[ShapePoint, ...], weights: list[int]) -> None:
    """Small weights give quotients that end in exactly .5 (rounded away from zero); large ones (a sum
    below the float path's limit of 2**40) test that the sums stay exact."""
    table = ratio_score_table(shape, tuple(weights))
    count = len(weights)
    assert table.size == UTILIZATIONS**count
    for index, score in enumerate(table.tolist()):
        utilizations = [index // UTILIZATIONS, index % UTILIZATIONS] if count == 2 else [index]
        # an allocatable of 100 makes each requested amount its utilization
        assert score == requested_to_capacity_ratio(utilizations, [100] * count, weights, shape)


def test_table_refuses_what_it_cannot_hold() -> None:
    shape = (ShapePoint(0, 0), ShapePoint(100, 10))
    for weights in ((), (1, 1, 1), (1, 0)):
        with pytest.raises(ValueError, match="1 or 2 positive weights"):
            ratio_score_table(shape, weights)
    with pytest.raises(ValueError, match=r"scores in 0\.\.100"):
        ratio_score_table((ShapePoint(0, 11),), (1,))


_CPU_MILLI = (1000, 1500, 3999, 4000, 7000)
_MEMORY_MI = (512, 1000, 1024, 3000, 8192)


@SETTINGS
@given(
    shape=shapes(),
    weights=st.tuples(st.integers(1, 9), st.integers(1, 9), st.integers(1, 9)),
    count=st.integers(1, 3),
    order=st.permutations(range(3)),
    used=st.lists(st.tuples(st.integers(0, 8000), st.integers(0, 9000), st.integers(0, 5)), min_size=1, max_size=6),
    allocatable=st.lists(st.tuples(st.sampled_from(_CPU_MILLI), st.sampled_from(_MEMORY_MI)), min_size=6, max_size=6),
    request=st.tuples(st.integers(0, 3000), st.integers(0, 3000), st.integers(1, 2)),
)
def test_ranked_ratio_scores_are_the_scalar_models(
    shape: tuple[ShapePoint, ...], weights: tuple[int, int, int], count: int, order: list[int],
    used: list[tuple[int, int, int]], allocatable: list[tuple[int, int]], request: tuple[int, int, int],
) -> None:
    """One, two (the table) or three (the per-resource float path) scored resources, in any order, on nodes
    that all have cpu, memory and GPUs, with utilizations anywhere in 0..100 and over-committed nodes."""
    nodes: list[dict[str, Any]] = []
    pods: list[dict[str, Any]] = []
    for i, (cpu, memory, gpu) in enumerate(used):
        name = f"n{i}"
        cpu_alloc, memory_alloc = allocatable[i]
        nodes.append({"metadata": {"name": name}, "status": {"allocatable": {
            "cpu": f"{cpu_alloc}m", "memory": f"{memory_alloc}Mi", "nvidia.com/gpu": "4", "pods": "9"}}})
        requests = {"cpu": f"{cpu}m", "memory": f"{memory}Mi", "nvidia.com/gpu": str(gpu)}
        pods.append({"metadata": {"name": f"p{i}", "namespace": "ns"},
                     "spec": {"nodeName": name, "containers": [{"name": "c", "resources": {"requests": requests}}]}})
    names = ("cpu", "memory", "nvidia.com/gpu")
    resources = tuple(ResourceWeight(names[i], weights[i]) for i in order[:count])
    args = FitArgs(strategy=REQUESTED_TO_CAPACITY_RATIO, resources=resources, shape=shape)
    incoming_requests = {"cpu": f"{request[0]}m", "memory": f"{request[1]}Mi", "nvidia.com/gpu": str(request[2])}
    incoming = {"metadata": {"name": "x"}, "spec": {"containers": [{"name": "c", "resources": {
        "requests": incoming_requests}}]}}
    _assert_scores_are_the_scalar_models(nodes, pods, incoming, args)
