"""TaintToleration and NodeAffinity in explain's ``total`` and in ClusterState.rank's order.

The measured totals of vectors/oracle-scoring.json are the sum of NodeResourcesFit (after its weight),
BalancedAllocation, TaintToleration (100 x weight 3 on those untainted nodes), DynamicResources and
ImageLocality (both 0 there); NodeAffinity skipped those pods (no preferred affinity). explain must give
exactly those totals from the config text alone.

Hand case (three nodes of one size, so Fit and BalancedAllocation tie): node a has two PreferNoSchedule
taints the pod does not tolerate (its NoSchedule toleration does not count) and the label pool=spot, b one
such taint and pool=od, c neither. Pod prefers pool=spot (30) and pool existing (20).
TaintToleration raw a 2, b 1, c 0 -> 100 - 100*2/2 = 0, 100 - 50 = 50, 100; x3 -> 0, 150, 300.
NodeAffinity raw a 50, b 20, c 0 -> 100, 40, 0; x2 -> 200, 80, 0. So c (300) > b (230) > a (200).
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from linter.engine import load_scheduler_model
from linter.explain import explain
from linter.model import KubeSchedulerModel, default_kube_scheduler_model

from .preemption.build import node, pod
from .test_cluster_nominated import state_of
from .vectorfiles import cases

ORACLE = cases("oracle-scoring.json")
MODEL = default_kube_scheduler_model()


def _oracle_inputs(case: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
    nodes = [{"metadata": {"name": n["name"]}, "status": {"allocatable": n["allocatable"]}} for n in case["nodes"]]
    bound = [{"metadata": {"name": b["name"], "namespace": "default"},
              "spec": {**b["stored"], "nodeName": name}, "status": {"phase": "Running"}}
             for name, pods in case["boundPods"].items() for b in pods]
    pending = {"metadata": {"name": case["pendingPod"]["name"], "namespace": "default"},
               "spec": case["pendingPod"]["stored"]}
    return nodes, bound, pending


@pytest.mark.parametrize("case", ORACLE, ids=[c["id"] for c in ORACLE])
def test_explain_reproduces_the_measured_totals(case: dict[str, Any]) -> None:
    model, findings = load_scheduler_model(case["schedulerConfig"]["text"], "sched.yaml")
    assert isinstance(model, KubeSchedulerModel), findings
    doc = explain(model, *_oracle_inputs(case))
    outcome = case["outcome"]
    feasible = {n["name"]: n for n in doc["nodes"] if n["feasible"]}
    assert set(feasible) == set(outcome["totalScore"])
    assert {name: n["total"] for name, n in feasible.items()} == outcome["totalScore"]
    assert {name: n["taintTolerationScore"] * doc["taintTolerationWeight"] for name, n in feasible.items()} \
        == outcome["otherPluginScores"]["TaintToleration"]
    assert doc["nodeAffinitySkipped"] is True and all(n["nodeAffinityScore"] is None for n in doc["nodes"])
    best = max(outcome["totalScore"].values())
    assert outcome["boundTo"] in {name for name, total in outcome["totalScore"].items() if total == best}


def _hand_case() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    nodes = [node("a", labels={"pool": "spot"}, taints=[{"key": "k", "effect": "PreferNoSchedule"},
                                                         {"key": "j", "value": "x", "effect": "PreferNoSchedule"}]),
             node("b", labels={"pool": "od"}, taints=[{"key": "k", "effect": "PreferNoSchedule"}]),
             node("c")]
    incoming = pod("p", None, 0, requests={"cpu": "1", "memory": "1Gi"})
    incoming["spec"]["tolerations"] = [{"key": "j", "operator": "Exists", "effect": "NoSchedule"}]
    incoming["spec"]["affinity"] = {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 30, "preference": {"matchExpressions": [{"key": "pool", "operator": "In", "values": ["spot"]}]}},
        {"weight": 20, "preference": {"matchExpressions": [{"key": "pool", "operator": "Exists"}]}}]}}
    return nodes, incoming


def test_explain_normalises_both_plugins_over_the_feasible_nodes() -> None:
    nodes, incoming = _hand_case()
    doc = explain(MODEL, nodes, [], incoming)
    got = {n["name"]: (n["taintTolerationRaw"], n["taintTolerationScore"], n["nodeAffinityRaw"],
                       n["nodeAffinityScore"], n["total"] - n["weightedScore"] - n["balancedScore"])
           for n in doc["nodes"]}
    assert got == {"a": (2, 0, 50, 100, 200), "b": (1, 50, 20, 40, 230), "c": (0, 100, 0, 0, 300)}
    assert [n["name"] for n in doc["nodes"]] == ["c", "b", "a"]
    assert (doc["taintTolerationWeight"], doc["nodeAffinityWeight"], doc["nodeAffinitySkipped"]) == (3, 2, False)


def test_an_infeasible_node_is_not_normalised_over() -> None:
    """a and b have one untolerated taint each, c (cordoned, so never scored) two: the most among the scored
    nodes is 1, so a and b get 100 - 100*1/1 = 0 (50 if c counted) and c no normalised score."""
    nodes, incoming = _hand_case()
    nodes[2]["spec"] = {"unschedulable": True, "taints": nodes[0]["spec"]["taints"]}
    nodes[0]["spec"]["taints"] = nodes[0]["spec"]["taints"][:1]
    doc = explain(MODEL, nodes, [], incoming)
    by_name = {n["name"]: n for n in doc["nodes"]}
    assert by_name["a"]["taintTolerationScore"] == by_name["b"]["taintTolerationScore"] == 0
    assert by_name["c"]["taintTolerationScore"] is None and by_name["c"]["taintTolerationRaw"] == 2
    assert by_name["c"]["nodeAffinityScore"] is None


def test_the_best_node_depends_on_normalising_over_the_feasible_nodes_only() -> None:
    """a (16 cpu, 64Gi) beats b (2 cpu, 4Gi) on Fit + BalancedAllocation by 168 to 130. The pod prefers
    pool=od (10, b has it) and zone=z (90, only the cordoned c has it). Over the feasible a and b the most is
    10, so b gets 100 x 2 = 200 and wins; over all three it would get floor(100*10/100) = 10 x 2 and lose."""
    nodes = [node("a", cpu="16", memory="64Gi"), node("b", cpu="2", memory="4Gi", labels={"pool": "od"}),
             node("c", cpu="2", memory="4Gi", labels={"zone": "z"}, unschedulable=True)]
    incoming = pod("p", None, 0, requests={"cpu": "1", "memory": "1Gi"})
    incoming["spec"]["affinity"] = {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 10, "preference": {"matchExpressions": [{"key": "pool", "operator": "In", "values": ["od"]}]}},
        {"weight": 90, "preference": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["z"]}]}}]}}
    doc = explain(MODEL, nodes, [], incoming)
    assert [(n["name"], n["total"]) for n in doc["nodes"]] == [("b", 630), ("a", 468), ("c", 130)]
    assert state_of(*nodes).rank(incoming, MODEL, top=1).best_node == "b"


def test_a_profile_without_the_plugins_shows_none() -> None:
    nodes, incoming = _hand_case()
    model, findings = load_scheduler_model(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
        "- schedulerName: default-scheduler\n  plugins:\n    score:\n      disabled: [{name: TaintToleration}]\n"
        "      enabled: [{name: NodeAffinity, weight: 7}]\n", "sched.yaml")
    assert isinstance(model, KubeSchedulerModel), findings
    (profile,) = model.profiles
    assert (profile.taint_toleration_weight, profile.node_affinity_weight) == (0, 7)
    doc = explain(model, nodes, [], incoming)
    assert doc["taintTolerationWeight"] is None and doc["nodeAffinityWeight"] == 7
    assert all(n["taintTolerationScore"] is None and n["taintTolerationRaw"] is None for n in doc["nodes"])
    assert [n["name"] for n in doc["nodes"]] == ["a", "b", "c"]  # 700, 280, 0


def test_the_ranking_orders_by_the_same_total_and_reports_fit_scores() -> None:
    nodes, incoming = _hand_case()
    ranking = state_of(*nodes).rank(incoming, MODEL, top=0)
    assert ranking.scores == (("c", 84), ("b", 84), ("a", 84))  # NodeResourcesFit's own scores
    doc = explain(MODEL, nodes, [], incoming)
    assert [name for name, _ in ranking.scores] == [n["name"] for n in doc["nodes"]]


def test_added_affinity_scores_a_pod_without_its_own() -> None:
    nodes, incoming = _hand_case()
    del incoming["spec"]["affinity"], incoming["spec"]["tolerations"]
    model, findings = load_scheduler_model(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
        "- schedulerName: default-scheduler\n  plugins:\n    score:\n      disabled: [{name: TaintToleration}]\n"
        "  pluginConfig:\n  - name: NodeAffinity\n    args:\n      addedAffinity:\n"
        "        preferredDuringSchedulingIgnoredDuringExecution:\n        - weight: 3\n"
        "          preference: {matchExpressions: [{key: pool, operator: In, values: [od]}]}\n", "sched.yaml")
    assert isinstance(model, KubeSchedulerModel), findings
    assert state_of(*nodes).rank(incoming, model, top=1).best_node == "b"
    assert explain(model, nodes, [], incoming)["nodes"][0]["name"] == "b"


def test_kept_rankings_tell_pods_apart_by_their_preferences() -> None:
    """Equal requests, different preferred affinity and tolerations: each gets its own ranking, however
    often the first was ranked (and kept) before."""
    nodes, incoming = _hand_case()
    plain = copy.deepcopy(incoming)
    del plain["spec"]["affinity"], plain["spec"]["tolerations"]
    state = state_of(*nodes)
    for _ in range(3):  # the third replica of a request shape is the first whose ranking is kept
        assert state.rank(plain, MODEL, top=0).best_node == "c"
    prefers_b = copy.deepcopy(plain)
    prefers_b["spec"]["affinity"] = {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 100, "preference": {"matchExpressions": [{"key": "pool", "operator": "In", "values": ["od"]}]}}]}}
    assert state.rank(prefers_b, MODEL, top=0).best_node == "b"  # 150 + 200 against c's 300 + 0
    tolerant = copy.deepcopy(plain)
    tolerant["spec"]["tolerations"] = [{"operator": "Exists"}]  # tolerates every taint: all three tie
    assert [n for n, _ in state.rank(tolerant, MODEL, top=0).scores] == ["a", "b", "c"]
    assert state.rank(plain, MODEL, top=0).best_node == "c"


@pytest.mark.parametrize("seed", range(40))
def test_the_vectorised_order_is_explains_on_random_clusters(seed: int) -> None:
    """Random taints, labels, cordons, tolerations and preferred terms (some with matchFields): the ranking
    (which evaluates per taint list and label case, normalising over the feasible rows) orders the feasible
    nodes exactly as explain's scalar totals do."""
    rng = random.Random(seed)
    effects = ["PreferNoSchedule", "PreferNoSchedule", "NoSchedule"]
    nodes = []
    for i in range(rng.randint(1, 9)):
        taints = [{"key": rng.choice("kj"), "value": rng.choice(["", "x"]), "effect": rng.choice(effects)}
                  for _ in range(rng.randint(0, 2))]
        labels = {k: rng.choice(["1", "2", "3"]) for k in "pq" if rng.random() < 0.7}
        nodes.append(node(f"n{i}", cpu=rng.choice(["2", "4", "8"]), labels=labels, taints=taints,
                          unschedulable=rng.random() < 0.15))
    incoming = pod("p", None, 0, requests={"cpu": "1", "memory": "1Gi"})
    incoming["spec"]["tolerations"] = [
        {"key": rng.choice("kj"), "operator": "Exists", "effect": rng.choice(["", *effects])}
        for _ in range(rng.randint(0, 2))]
    terms: list[dict[str, Any]] = []
    for _ in range(rng.randint(0, 3)):
        preference: dict[str, Any] = {"matchExpressions": [
            {"key": rng.choice("pq"), "operator": "In", "values": [rng.choice(["1", "2"])]}]}
        if rng.random() < 0.3:
            preference["matchFields"] = [{"key": "metadata.name", "operator": "NotIn", "values": ["n0"]}]
        terms.append({"weight": rng.randint(0, 100), "preference": preference})
    if terms:
        incoming["spec"]["affinity"] = {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": terms}}
    doc = explain(MODEL, nodes, [], incoming)
    ranking = state_of(*nodes).rank(incoming, MODEL, top=0)
    assert [name for name, _ in ranking.scores] == [n["name"] for n in doc["nodes"] if n["feasible"]]
