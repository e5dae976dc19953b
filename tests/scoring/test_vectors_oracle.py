"""vectors/oracle-scoring.json: numbers measured from a real kube-scheduler v1.36.2.

Scores are computed from the ``stored`` pod specs through the public API and compared with
the logged NodeResourcesFit score (already x plugin weight), BalancedAllocation, the
infeasible nodes and the scheduler's own internal (allocatable, requested, rawScore).
"""

from __future__ import annotations

from typing import Any

import pytest

from linter.model import BalancedArgs, FitArgs
from linter.scoring.feasibility import check_node
from linter.scoring.nodes import NodeView
from linter.scoring.requests import actual_request, fit_score_request
from linter.scoring.strategies import balanced_score_node, fit_score_node

from .vectorfiles import cases

ORACLE = cases("oracle-scoring.json")


def _views(case: dict[str, Any]) -> list[NodeView]:
    views = []
    for node in case["nodes"]:
        view = NodeView.from_node({"metadata": {"name": node["name"]}, "status": {"allocatable": node["allocatable"]}})
        for bound in case["boundPods"].get(node["name"], []):
            view.add_pod({"metadata": {"name": bound["name"]}, "spec": bound["stored"]})
        views.append(view)
    return views


def test_ten_cases() -> None:
    assert len(ORACLE) == 10


@pytest.mark.parametrize("case", ORACLE, ids=[c["id"] for c in ORACLE])
def test_oracle_case(case: dict[str, Any]) -> None:
    config = case["schedulerConfig"]
    fit_args = FitArgs.from_args(config["nodeResourcesFitArgs"])
    balanced_args = BalancedArgs.from_args(config["nodeResourcesBalancedAllocationArgs"])
    assert [r.name for r in fit_args.resources] == config["fitResourceOrder"]
    assert [r.name for r in balanced_args.resources] == config["balancedResourceOrder"]
    weight = config["fitPluginWeightEffective"]
    pod = {"metadata": {"name": case["pendingPod"]["name"]}, "spec": case["pendingPod"]["stored"]}
    fit_request = fit_score_request(pod)
    real_request = actual_request(pod)
    outcome = case["outcome"]

    infeasible = []
    totals: dict[str, int] = {}
    for view in _views(case):
        verdict = check_node(
            pod,
            view.node,
            pod_request=real_request,
            pod_count=view.pod_count,
            node_requested=view.requested,
            node_allocatable=view.allocatable,
        )
        if not verdict.feasible:
            infeasible.append(view.name)
            assert view.name not in outcome["fitScore"]
            continue
        fit = fit_score_node(fit_args, fit_request, view.fit_requested, view.allocatable)
        balanced = balanced_score_node(balanced_args, real_request, view.requested, view.allocatable)
        assert fit.score * weight == outcome["fitScore"][view.name], view.name
        assert balanced.skipped == outcome["balancedSkipped"]
        if not balanced.skipped:
            assert balanced.score == outcome["balancedScore"][view.name], view.name
        others = sum(plugin[view.name] for plugin in outcome["otherPluginScores"].values())
        balanced_part = 0 if balanced.skipped else balanced.score
        totals[view.name] = fit.score * weight + balanced_part + others
        assert totals[view.name] == outcome["totalScore"][view.name], view.name
        internal = outcome["internal"][view.name]
        fit_internal = internal["NodeResourcesFit"]
        assert [r.allocatable for r in fit.resources] == fit_internal["allocatable"]
        assert [r.requested for r in fit.resources] == fit_internal["requested"]
        assert fit.score == fit_internal["rawScore"]
        if "NodeResourcesBalancedAllocation" in internal:
            bal_internal = internal["NodeResourcesBalancedAllocation"]
            assert [r.allocatable for r in balanced.resources] == bal_internal["allocatable"]
            assert [r.requested for r in balanced.resources] == bal_internal["requested"]
            assert balanced.score == bal_internal["rawScore"]
    assert sorted(infeasible) == sorted(outcome["infeasibleNodes"])
    assert len(case["nodes"]) - len(infeasible) == outcome["feasibleNodes"]
    assert len(case["nodes"]) == outcome["evaluatedNodes"]
    assert totals[outcome["boundTo"]] == max(totals.values())  # boundTo may be any of the tied best
