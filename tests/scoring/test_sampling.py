"""How many feasible nodes the scheduler looks for (kube-scheduler's ``numFeasibleNodesToFind``, Volcano's
``CalculateNumOfFeasibleNodesToFind`` with its default flags), and where explain and the webhook say so."""

from __future__ import annotations

import pytest

from linter.engine import load_scheduler_model
from linter.explain import explain
from linter.explain.render_text import render_text
from linter.model import KubeSchedulerModel, Profile, VolcanoBinpackArgs, VolcanoModel, default_kube_scheduler_model
from linter.scoring.sampling import kube_scheduler_nodes_to_find, volcano_nodes_to_find
from webhook.admission.decide.pods import PREDICTION_ANNOTATION, fit_annotations

from .preemption.build import node, pod
from .test_cluster_nominated import state_of


@pytest.mark.parametrize(("nodes", "percentage", "expected"), [
    (1, 0, 1), (99, 0, 99), (99, 1, 99),  # under 100 nodes: all of them
    (100, 0, 100), (101, 0, 100),  # 50 % of 101 is 50, raised to the minimum of 100
    (500, 0, 230),  # adaptive: 50 - 500/125 = 46 %
    (5000, 0, 500),  # 50 - 40 = 10 %
    (6000, 0, 300), (65000, 0, 3250),  # 50 - 48 = 2 %, raised to 5 %
    (5000, 30, 1500), (5000, 1, 100), (5000, 100, 5000), (150, 100, 150), (333, 33, 109),
])
def test_kube_scheduler_count(nodes: int, percentage: int, expected: int) -> None:
    assert kube_scheduler_nodes_to_find(nodes, percentage) == expected


def test_without_score_plugins_the_first_feasible_node_is_taken() -> None:
    assert kube_scheduler_nodes_to_find(50, 0, scores=False) == 1
    assert Profile("p", fit=None, balanced=None).has_score_plugins is False
    assert Profile("p", fit=None, balanced=None, score_plugin_weights={"ImageLocality": 1}).has_score_plugins


@pytest.mark.parametrize(("nodes", "expected"), [(100, 100), (101, 100), (500, 230), (5000, 500), (65000, 3250)])
def test_volcano_count_with_its_default_flags(nodes: int, expected: int) -> None:
    assert volcano_nodes_to_find(nodes) == expected


CONFIG = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
percentageOfNodesToScore: 30
profiles:
- schedulerName: global
- schedulerName: own
  percentageOfNodesToScore: 70
- schedulerName: adaptive
  percentageOfNodesToScore: 0
- schedulerName: nothing-scores
  plugins:
    score:
      disabled: [{name: "*"}]
"""


def _model() -> KubeSchedulerModel:
    model, findings = load_scheduler_model(CONFIG, "c.yaml")
    assert isinstance(model, KubeSchedulerModel), findings
    return model


def test_a_profile_percentage_wins_over_the_global_one_even_when_it_is_0() -> None:
    model = _model()
    percentages = {p.scheduler_name: p.percentage_of_nodes_to_score for p in model.profiles}
    assert percentages == {"global": 30, "own": 70, "adaptive": 0, "nothing-scores": 30}
    nothing = model.profile("nothing-scores")
    assert nothing is not None and nothing.looks_for_one_node
    with_extender, _ = load_scheduler_model(CONFIG + "extenders:\n- urlPrefix: http://x\n  filterVerb: filter\n",
                                            "c.yaml")
    assert isinstance(with_extender, KubeSchedulerModel)
    busy = with_extender.profile("nothing-scores")
    assert busy is not None and not busy.looks_for_one_node  # an extender that filters keeps the count


NODES = [node(f"n{i:03d}", cpu="8") for i in range(300)]


def test_the_webhook_ranking_and_explain_give_the_count_for_the_profile() -> None:
    state = state_of(*NODES)
    model = _model()
    for profile, expected in (("global", 100), ("own", 210), ("adaptive", 144), ("nothing-scores", 1)):
        incoming = pod("p", None, 0, "1", scheduler=profile)
        assert state.rank(incoming, model, top=3).nodes_to_find == expected, profile
        assert explain(model, NODES, [], incoming)["feasibleNodesToFind"] == expected, profile


def test_a_pod_pinned_to_node_names_counts_only_those_nodes() -> None:
    pinned = pod("p", None, 0, "1")
    pinned["spec"]["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": [name]}]}
                              for name in ("n001", "n002", "gone")]}}}  # one name per term: Go's field selector
    model = default_kube_scheduler_model()
    ranking = state_of(*NODES).rank(pinned, model, top=3)
    assert ranking.nodes_to_find == 2 and ranking.feasible_nodes == 2
    assert explain(model, NODES, [], pinned)["feasibleNodesToFind"] == 2


def test_the_prediction_and_explain_text_say_when_the_scheduler_scores_a_subset() -> None:
    model = default_kube_scheduler_model()
    incoming = pod("p", None, 0, "1")
    ranking = state_of(*NODES).rank(incoming, model, top=3)
    assert (ranking.feasible_nodes, ranking.nodes_to_find) == (300, 144)
    prediction = fit_annotations(incoming, "default-scheduler", ranking, 3)[PREDICTION_ANNOTATION]
    assert '"feasibleNodesToFind":144' in prediction
    assert ("kube-scheduler stops filtering once it has found 144 of the 300 feasible nodes, searching from where "
            "its previous search stopped, and scores only those: bestNode is its pick only if it is among "
            "the 144 it finds") in prediction
    assert "note: kube-scheduler stops filtering once it has found 144 of the 300" in render_text(
        explain(model, NODES, [], incoming))


def test_no_note_when_the_scheduler_looks_at_every_feasible_node() -> None:
    model = default_kube_scheduler_model()
    incoming = pod("p", None, 0, "1")
    small = NODES[:99]
    ranking = state_of(*small).rank(incoming, model, top=3)
    assert ranking.nodes_to_find == 99
    prediction = fit_annotations(incoming, "default-scheduler", ranking, 3)[PREDICTION_ANNOTATION]
    assert '"feasibleNodesToFind":99' in prediction and "sampled" not in prediction
    assert "stops filtering" not in render_text(explain(model, small, [], incoming))
    # 300 nodes, of which only 100 fit: all 144 looked for are never found, so every feasible node is scored
    crowded = [node(f"n{i:03d}", cpu="8" if i < 100 else "0") for i in range(300)]
    ranking = state_of(*crowded).rank(incoming, model, top=3)
    assert (ranking.feasible_nodes, ranking.nodes_to_find) == (100, 144)
    assert "sampled" not in fit_annotations(incoming, "default-scheduler", ranking, 3)[PREDICTION_ANNOTATION]


def test_volcano_rankings_carry_its_count() -> None:
    volcano = VolcanoModel(actions=("allocate",), binpack=(VolcanoBinpackArgs(),))
    incoming = pod("p", None, 0, "1")
    ranking = state_of(*NODES).rank(incoming, volcano, top=3)
    assert ranking.nodes_to_find == 144  # 50 - 300/125 = 48 %
    note = fit_annotations(incoming, "volcano", ranking, 3)[PREDICTION_ANNOTATION]
    assert "Volcano stops filtering once it has found 144 of the 300 feasible nodes" in note
