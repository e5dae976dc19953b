"""Every case of vectors/scoring.json through the public scoring API, comparing every field given."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from linter.model import BalancedArgs, FitArgs
from linter.scoring.requests import actual_request, fit_score_request, volcano_request
from linter.scoring.strategies import balanced_score_node, fit_score_node
from linter.scoring.volcano import binpack_score_node, parse_binpack_arguments

from .vectorfiles import cases, vector_node_view

FIT = cases("scoring.json", "k8s-fit")
BALANCED = cases("scoring.json", "k8s-balanced")
VOLCANO = cases("scoring.json", "volcano-binpack")


def test_every_engine_is_covered() -> None:
    assert len(FIT) + len(BALANCED) + len(VOLCANO) == len(cases("scoring.json"))


@pytest.mark.parametrize("case", FIT, ids=[c["id"] for c in FIT])
def test_fit_vector(case: dict[str, Any]) -> None:
    args = FitArgs.from_args(case["args"])
    weight = case.get("pluginWeight", 1)
    pod_request = fit_score_request(case["pod"])
    for node in case["nodes"]:
        view = vector_node_view(node)
        got = fit_score_node(args, pod_request, view.fit_requested, view.allocatable)
        want = case["expected"][node["name"]]
        assert got.score == want["score"], node["name"]
        assert got.score * weight == want["weightedScore"], node["name"]
        rows = [{k: r.as_dict()[k] for k in ("name", "weight", "podRequest", "requested", "allocatable")}
                for r in got.resources]
        assert rows == want["resources"], node["name"]


@pytest.mark.parametrize("case", BALANCED, ids=[c["id"] for c in BALANCED])
def test_balanced_vector(case: dict[str, Any]) -> None:
    args = BalancedArgs.from_args(case["args"])
    pod_request = actual_request(case["pod"])
    for node in case["nodes"]:
        view = vector_node_view(node)
        got = balanced_score_node(args, pod_request, view.requested, view.allocatable)
        want = case["expected"][node["name"]]
        assert got.score == want["score"]
        assert got.skipped == want["skipped"]
        if "resources" in want:
            assert [r.as_dict() for r in got.resources] == want["resources"]
        if "podRequests" in want:
            assert dict(got.pod_requests) == want["podRequests"]


def _close(got: float, want: float) -> bool:
    return abs(got - want) <= 1e-9 * max(1.0, abs(want))


@pytest.mark.parametrize("case", VOLCANO, ids=[c["id"] for c in VOLCANO])
def test_volcano_vector(case: dict[str, Any]) -> None:
    args = parse_binpack_arguments(yaml.safe_load(case["argumentsYaml"]) or {})
    task = volcano_request(case["pod"])
    for node in case["nodes"]:
        view = vector_node_view(node)
        got = binpack_score_node(args, task, view.volcano_used, view.volcano_allocatable)
        want = case["expected"][node["name"]]
        assert _close(got.score, want["score"]), (got.score, want["score"])
        assert got.weight_sum == want["weightSum"]
        assert got.node_order_registered == want["nodeOrderRegistered"]
        assert got.rejected_by == want["rejectedBy"]
        assert got.effective_weights() == want["effectiveWeights"]
