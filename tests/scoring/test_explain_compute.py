"""``linter.explain.explain`` on models built here from the vectors (independent of the config loader).

The explanation must carry the vector numbers in the documented JSON fields, rank nodes
best first, and agree with the real scheduler's measurements (oracle) on feasibility.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from linter.explain import explain
from linter.model import (
    BalancedArgs,
    FitArgs,
    KubeSchedulerModel,
    LegacyPolicyModel,
    LegacyRtcrPriority,
    Profile,
    SchedulerModel,
    VolcanoModel,
)
from linter.scoring.volcano import parse_binpack_arguments

from .test_explain_cli import check_fit
from .vectorfiles import cases

ALL = cases("scoring.json")


def _objects(case: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    nodes, pods = [], []
    for node in case["nodes"]:
        nodes.append({"kind": "Node", "metadata": {"name": node["name"]},
                      "status": {"allocatable": node["allocatable"]}})
        for i, pod in enumerate(node.get("pods", [])):
            pods.append({**pod, "metadata": {"name": f"{node['name']}-{i}"},
                         "spec": {**pod["spec"], "nodeName": node["name"]}})
    return nodes, pods


def model_for(case: dict[str, Any]) -> SchedulerModel:
    if case["engine"] == "volcano-binpack":
        args = parse_binpack_arguments(yaml.safe_load(case["argumentsYaml"]) or {})
        return VolcanoModel(actions=("allocate",), binpack=(args,))
    weight = case.get("pluginWeight", 1)
    fit = FitArgs.from_args(case["args"]) if case["engine"] == "k8s-fit" else FitArgs()
    balanced = BalancedArgs.from_args(case["args"]) if case["engine"] == "k8s-balanced" else BalancedArgs()
    return KubeSchedulerModel(profiles=(Profile("default-scheduler", fit=fit, balanced=balanced,
                                                score_plugin_weights={"NodeResourcesFit": weight}),))


@pytest.mark.parametrize("case", ALL, ids=[c["id"] for c in ALL])
def test_vector_through_explain(case: dict[str, Any]) -> None:
    nodes, pods = _objects(case)
    doc = explain(model_for(case), nodes, pods, case["pod"])
    assert doc["engine"] == ("volcano-binpack" if case["engine"] == "volcano-binpack" else "k8s-fit")
    by_name = {n["name"]: n for n in doc["nodes"]}
    assert set(by_name) == {n["name"] for n in case["nodes"]}
    if case["engine"] == "k8s-fit":
        check_fit(doc, case)
        feasible_scores = [n["total"] for n in doc["nodes"] if n["feasible"]]
        assert feasible_scores == sorted(feasible_scores, reverse=True)
    elif case["engine"] == "k8s-balanced":
        for name, want in case["expected"].items():
            assert by_name[name]["balancedSkipped"] == want["skipped"]
            if not want["skipped"]:
                assert by_name[name]["balancedScore"] == want["score"]
                assert by_name[name]["balancedResources"] == want["resources"]
    else:
        for name, want in case["expected"].items():
            got = by_name[name]
            assert abs(got["score"] - want["score"]) <= 1e-9 * max(1.0, abs(want["score"]))
            assert got["weightSum"] == want["weightSum"]
            assert got["rejectedBy"] == want["rejectedBy"]
            assert got["nodeOrderRegistered"] == want["nodeOrderRegistered"]
        assert doc["effectiveWeights"] == next(iter(case["expected"].values()))["effectiveWeights"]


def test_legacy_policy_reproduces_the_docs_numbers() -> None:
    """The docs computed on the old 0..10 scale; the legacy model must give their node1/node2 values."""
    case = next(c for c in ALL if c["id"] == "docs-rtcr-binary-units")
    claimed = {m[0]: int(m[1]) for m in re.findall(r"(node\d)=(\d+)", case["description"])}
    assert set(claimed) == {"node1", "node2"}
    fit = FitArgs.from_args(case["args"])
    priority = LegacyRtcrPriority("RequestedToCapacityRatioPriority", 2, fit.shape or (), fit.resources)
    nodes, pods = _objects(case)
    doc = explain(LegacyPolicyModel(rtcr=priority), nodes, pods, case["pod"])
    by_name = {n["name"]: n for n in doc["nodes"]}
    for name, score in claimed.items():
        assert by_name[name]["score"] == score
        assert by_name[name]["weightedScore"] == score * 2
    assert [n["name"] for n in doc["nodes"]] == sorted(claimed, key=lambda n: -claimed[n])


ORACLE = cases("oracle-scoring.json")


@pytest.mark.parametrize("case", ORACLE, ids=[c["id"] for c in ORACLE])
def test_oracle_through_explain(case: dict[str, Any]) -> None:
    config = case["schedulerConfig"]
    profile = Profile("default-scheduler", fit=FitArgs.from_args(config["nodeResourcesFitArgs"]),
                      balanced=BalancedArgs.from_args(config["nodeResourcesBalancedAllocationArgs"]),
                      score_plugin_weights={"NodeResourcesFit": config["fitPluginWeightEffective"]})
    nodes = [{"kind": "Node", "metadata": {"name": n["name"]}, "status": {"allocatable": n["allocatable"]}}
             for n in case["nodes"]]
    pods = [{"kind": "Pod", "metadata": {"name": b["name"]}, "spec": b["stored"], "status": {"phase": "Running"}}
            for bound in case["boundPods"].values() for b in bound]
    pending = {"kind": "Pod", "metadata": {"name": case["pendingPod"]["name"]}, "spec": case["pendingPod"]["stored"]}
    doc = explain(KubeSchedulerModel(profiles=(profile,)), nodes, pods, pending)
    outcome = case["outcome"]
    assert sorted(n["name"] for n in doc["nodes"] if not n["feasible"]) == sorted(outcome["infeasibleNodes"])
    for node in doc["nodes"]:
        if node["feasible"]:
            assert node["weightedScore"] == outcome["fitScore"][node["name"]]
            assert node["balancedScore"] == outcome["balancedScore"][node["name"]]
        else:
            assert node["reasons"] and all(r.startswith("Insufficient ") for r in node["reasons"])


def test_volcano_weight_zero_adds_nothing() -> None:
    case = next(c for c in ALL if c["engine"] == "volcano-binpack")
    nodes, pods = _objects(case)
    model = VolcanoModel(actions=("allocate",), binpack=(parse_binpack_arguments({"binpack.weight": 0}),))
    doc = explain(model, nodes, pods, case["pod"])
    assert all(n["score"] == 0.0 and n["nodeOrderRegistered"] is False for n in doc["nodes"])
