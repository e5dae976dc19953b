"""ClusterState.rank orders nodes as kube-scheduler picks them: by the sum of the modelled score plugins'
weighted scores (NodeResourcesFit and NodeResourcesBalancedAllocation), as explain's ``total`` does; the
scores it reports stay NodeResourcesFit's own.

Pod cpu 1 / memory 1Gi under the default profile (LeastAllocated cpu:1 memory:1, BalancedAllocation):
* node a (2 cpu, 2Gi): Fit (50 + 50) / 2 = 50; balance 100 with the pod and without: 50 + (50 + 100 - 100) / 2 = 75;
  total 125;
* node b (8 cpu, 1536Mi): Fit (87 + 33) / 2 = 60; balance with the pod |0.125 - 0.667| / 2 = 0.27 -> 72,
  without 100: 50 + (50 + 72 - 100) / 2 = 61; total 121.
b has the better Fit score, a the better total: the scheduler places the pod on a.
"""

from __future__ import annotations

from linter.explain import explain
from linter.model import default_kube_scheduler_model

from .preemption.build import node, pod
from .test_cluster_nominated import state_of

MODEL = default_kube_scheduler_model()
NODES = (node("a", cpu="2", memory="2Gi"), node("b", cpu="8", memory="1536Mi"))
POD = pod("p", None, 0, requests={"cpu": "1", "memory": "1Gi"})


def test_the_best_total_wins_not_the_best_fit_score() -> None:
    ranking = state_of(*NODES).rank(POD, MODEL, top=0)
    assert ranking.scores == (("a", 50), ("b", 60))
    assert ranking.best_node == "a"


def test_the_ranking_is_explains_order() -> None:
    doc = explain(MODEL, list(NODES), [], POD)
    assert [(n["name"], n["score"], n["balancedScore"], n["total"]) for n in doc["nodes"]] == [
        ("a", 50, 75, 425), ("b", 60, 61, 421)]  # + TaintToleration's 100 x 3 on both untainted nodes
    assert [name for name, _ in state_of(*NODES).rank(POD, MODEL, top=1).scores] == ["a"]


def test_a_profile_without_balanced_allocation_ranks_by_the_fit_score() -> None:
    from linter.model import KubeSchedulerModel, Profile

    only_fit = KubeSchedulerModel(profiles=(Profile(scheduler_name="default-scheduler", balanced=None),))
    assert state_of(*NODES).rank(POD, only_fit, top=0).scores == (("b", 60), ("a", 50))
