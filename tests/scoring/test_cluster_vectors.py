"""Every k8s-fit / volcano-binpack case of scoring.json and every oracle case, ranked by ClusterState.

scoring.json models the Score step only, so those cases are ranked with ``filters=False``;
the oracle cases come from a real kube-scheduler and are ranked with the filters on, so the
infeasible nodes must come out as well.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from linter.model import FitArgs, KubeSchedulerModel, Profile, VolcanoModel
from linter.scoring.cluster.state import ClusterState
from linter.scoring.volcano import parse_binpack_arguments

from .vectorfiles import cases, load

FIT = cases("scoring.json", "k8s-fit")
VOLCANO = cases("scoring.json", "volcano-binpack")
ORACLE = load("oracle-scoring.json")["cases"]


def _fit_model(args: dict[str, Any] | None, weight: int, *, balanced: bool = True) -> KubeSchedulerModel:
    """``balanced``: BalancedAllocation on with its defaults (it adds to the total the ranking orders by)."""
    profile = Profile(
        scheduler_name="default-scheduler",
        fit=FitArgs.from_args(args),
        score_plugin_weights={"NodeResourcesFit": weight},
        **({} if balanced else {"balanced": None}),
    )
    return KubeSchedulerModel(profiles=(profile,))


def _vector_state(case: dict[str, Any]) -> ClusterState:
    """The case's nodes and their pods (bound by setting spec.nodeName, given unique names)."""
    state = ClusterState()
    for node in case["nodes"]:
        state.apply_node({"metadata": {"name": node["name"]}, "status": {"allocatable": node["allocatable"]}})
        for i, pod in enumerate(node.get("pods", [])):
            bound = copy.deepcopy(pod)
            bound["metadata"] = {"name": f"{node['name']}-{i}", "namespace": "vectors"}
            bound["spec"]["nodeName"] = node["name"]
            state.apply_pod(bound)
    return state


@pytest.mark.parametrize("case", FIT, ids=[c["id"] for c in FIT])
def test_fit_vector_ranked(case: dict[str, Any]) -> None:
    weight = case.get("pluginWeight") or 1
    state = _vector_state(case)
    # scoring.json models NodeResourcesFit alone: so is the ranking's total here
    ranking = state.rank(case["pod"], _fit_model(case["args"], weight, balanced=False), top=0, filters=False)
    assert ranking.engine == "k8s-fit"
    assert ranking.total_nodes == ranking.feasible_nodes == len(case["nodes"])
    got = dict(ranking.scores)
    assert got == {name: want["score"] for name, want in case["expected"].items()}
    for name, want in case["expected"].items():
        assert got[name] * ranking.plugin_weight == want["weightedScore"]
    best = max(case["expected"], key=lambda n: (case["expected"][n]["score"], [-ord(c) for c in n]))
    assert ranking.best_node == best


def _close(got: float, want: float) -> bool:
    return abs(got - want) <= 1e-9 * max(1.0, abs(want))


@pytest.mark.parametrize("case", VOLCANO, ids=[c["id"] for c in VOLCANO])
def test_volcano_vector_ranked(case: dict[str, Any]) -> None:
    args = parse_binpack_arguments(yaml.safe_load(case["argumentsYaml"]) or {})
    model = VolcanoModel(actions=("allocate",), binpack=(args,))
    ranking = _vector_state(case).rank(case["pod"], model, top=0, filters=False)
    assert ranking.engine == "volcano-binpack"
    got = dict(ranking.scores)
    assert set(got) == set(case["expected"])
    for name, want in case["expected"].items():
        assert _close(float(got[name]), want["score"]), (name, got[name], want["score"])


def _oracle_pod(name: str, stored: dict[str, Any]) -> dict[str, Any]:
    return {"metadata": {"name": name, "namespace": "default"}, "spec": copy.deepcopy(stored)}


@pytest.mark.parametrize("case", ORACLE, ids=[c["id"] for c in ORACLE])
def test_oracle_case_ranked(case: dict[str, Any]) -> None:
    config = case["schedulerConfig"]
    state = ClusterState()
    for node in case["nodes"]:
        state.apply_node({"metadata": {"name": node["name"]}, "status": {"allocatable": node["allocatable"]}})
    for node_name, pods in case["boundPods"].items():
        for pod in pods:
            bound = _oracle_pod(pod["name"], pod["stored"])
            assert bound["spec"]["nodeName"] == node_name
            state.apply_pod(bound)
    model = _fit_model(config["nodeResourcesFitArgs"], config["fitPluginWeightEffective"])
    pending = _oracle_pod(case["pendingPod"]["name"], case["pendingPod"]["stored"])
    ranking = state.rank(pending, model, top=0)
    outcome = case["outcome"]
    assert ranking.total_nodes == outcome["evaluatedNodes"]
    assert ranking.feasible_nodes == outcome["feasibleNodes"]
    weighted = {name: score * ranking.plugin_weight for name, score in ranking.scores}
    assert weighted == outcome["fitScore"]
    raw = {name: per_plugin["NodeResourcesFit"]["rawScore"] for name, per_plugin in outcome["internal"].items()}
    assert dict(ranking.scores) == raw
    assert sum(ranking.reason_counts.values()) == len(outcome["infeasibleNodes"])
    # the node the real scheduler bound the pod to, where the modelled total (Fit + BalancedAllocation; the
    # other plugins score every node alike in these cases) has a single best
    totals = {n: f + outcome["balancedScore"].get(n, 0) for n, f in outcome["fitScore"].items()}
    best = [n for n, t in totals.items() if t == max(totals.values())]
    if len(best) == 1 and outcome.get("boundTo"):
        assert ranking.best_node == best[0] == outcome["boundTo"]
