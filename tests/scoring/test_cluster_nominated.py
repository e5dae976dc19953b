"""ClusterState.rank's filters count the pods nominated to a node (reference/preemption.md §9, §11.1).

The vectorized twin of tests/scoring/test_explain_nominated.py: the feasible set and the reason counts
count a pending pod nominated to a node with priority >= the ranked pod's (not the pod itself), scores
do not, Volcano's ranking does not, and a pod that no nominated pod counts for costs one O(1) check.
"""

from __future__ import annotations

from typing import Any

from linter.model import KubeSchedulerModel, Profile, VolcanoBinpackArgs, VolcanoModel, default_kube_scheduler_model
from linter.scoring.cluster.nominated import nominated_load
from linter.scoring.cluster.state import ClusterState

from .preemption.build import node, pod

Obj = dict[str, Any]
MODEL = default_kube_scheduler_model()


def state_of(*objs: Obj) -> ClusterState:
    state = ClusterState()
    for obj in objs:
        if obj["kind"] == "Node":
            state.apply_node(obj)
    for obj in objs:
        if obj["kind"] == "Pod":
            state.apply_pod(obj)
    return state


def test_a_higher_priority_nomination_takes_the_cpu() -> None:
    state = state_of(node("n1", cpu="4"), node("n2", cpu="2"), pod("a", "n1", 1, "1"),
                     pod("nomhi", None, 2000, "2", nominated="n1"))
    ranking = state.rank(pod("pre", None, 1000, "2"), MODEL, top=0)
    assert ranking.feasible_nodes == 1 and [name for name, _ in ranking.scores] == ["n2"]
    assert dict(ranking.reason_counts) == {"Insufficient cpu": 1}
    fits_nowhere = state_of(node("n1", cpu="4"), pod("a", "n1", 1, "1"), pod("nomhi", None, 2000, "2", nominated="n1"))
    alone = fits_nowhere.rank(pod("pre", None, 1000, "2"), MODEL, top=0)
    assert alone.feasible_nodes == 0 and dict(alone.reason_counts) == {"Insufficient cpu": 1}


def test_a_nomination_takes_the_last_pod_slot() -> None:
    state = state_of(node("n1", cpu="8", pods="2"), pod("a", "n1", 1, "1"),
                     pod("nomhi", None, 2000, "1", nominated="n1"))
    ranking = state.rank(pod("pre", None, 1000, "1"), MODEL, top=0)
    assert ranking.feasible_nodes == 0 and dict(ranking.reason_counts) == {"Too many pods": 1}


def test_the_first_failing_pass_gives_the_reason() -> None:
    # with the nominated pod both the pod count and cpu fail: NodeResourcesFit reports both, each counted
    state = state_of(node("n1", cpu="4", pods="2"), pod("a", "n1", 1, "1"),
                     pod("nomhi", None, 2000, "2", nominated="n1"))
    assert dict(state.rank(pod("pre", None, 1000, "2"), MODEL, top=0).reason_counts) == {
        "Too many pods": 1, "Insufficient cpu": 1}


def test_lower_priority_and_own_nominations_do_not_count() -> None:
    state = state_of(node("n1", cpu="4"), pod("a", "n1", 1, "1"), pod("nomlo", None, 999, "2", nominated="n1"),
                     pod("pre", None, 1000, "2", nominated="n1"))
    ranking = state.rank(pod("pre", None, 1000, "2", nominated="n1"), MODEL, top=0)
    assert ranking.feasible_nodes == 1 and dict(ranking.reason_counts) == {}


def test_scores_do_not_count_nominated_pods() -> None:
    # both nodes fit even with the nomination; n1's score is the one it has without it
    bare = state_of(node("n1", cpu="8"), node("n2", cpu="8"), pod("a", "n1", 1, "1"))
    nominated = state_of(node("n1", cpu="8"), node("n2", cpu="8"), pod("a", "n1", 1, "1"),
                         pod("nomhi", None, 2000, "4", nominated="n1"))
    incoming = pod("pre", None, 1000, "2")
    assert nominated.rank(incoming, MODEL, top=0).scores == bare.rank(incoming, MODEL, top=0).scores


def test_volcano_ranking_does_not_count_kube_scheduler_nominations() -> None:
    state = state_of(node("n1", cpu="4"), pod("a", "n1", 1, "1"), pod("nomhi", None, 2000, "2", nominated="n1"))
    volcano = VolcanoModel(actions=("allocate",), binpack=(VolcanoBinpackArgs(),))
    assert state.rank(pod("pre", None, 1000, "2"), volcano, top=0).feasible_nodes == 1


def test_a_profile_without_the_fit_filter_counts_nothing() -> None:
    model = KubeSchedulerModel(profiles=(Profile("default-scheduler", fit_filter_enabled=False),))
    state = state_of(node("n1", cpu="4"), pod("a", "n1", 1, "1"), pod("nomhi", None, 2000, "2", nominated="n1"))
    assert state.rank(pod("pre", None, 1000, "2"), model, top=0).feasible_nodes == 1


def test_nominations_follow_pod_events() -> None:
    state = state_of(node("n1", cpu="4"), pod("a", "n1", 1, "1"))
    incoming = pod("pre", None, 1000, "2")
    assert state.rank(incoming, MODEL, top=0).feasible_nodes == 1
    state.apply_pod(pod("nomhi", None, 2000, "2", nominated="n1"))
    assert state.rank(incoming, MODEL, top=0).feasible_nodes == 0
    state.apply_pod(pod("nomhi", None, 2000, "2", nominated="n2"))  # nominated elsewhere (no such node)
    assert state.rank(incoming, MODEL, top=0).feasible_nodes == 1
    state.apply_pod(pod("nomhi", None, 2000, "2", nominated="n1"))
    state.apply_pod(pod("nomhi", "n2", 2000, "2"))  # bound elsewhere: the nomination is gone
    assert state.rank(incoming, MODEL, top=0).feasible_nodes == 1
    state.apply_pod(pod("nomhi2", None, 2000, "2", nominated="n1"))
    state.delete_pod("default", "nomhi2")
    assert state.rank(incoming, MODEL, top=0).feasible_nodes == 1


def test_no_nominated_pod_of_the_pods_priority_or_higher_means_no_load() -> None:
    state = state_of(node("n1", cpu="4"), pod("a", "n1", 1, "1"))
    table = state.pod_table
    assert nominated_load(state.store, table, pod("pre", None, 1000, "2")) is None  # none at all
    for i in range(50):
        state.apply_pod(pod(f"nom{i}", None, i, "1", nominated="n1"))
    assert table.nominated_top_priority() == 49
    assert nominated_load(state.store, table, pod("pre", None, 50, "2")) is None  # all lower: O(1), no loop
    load = nominated_load(state.store, table, pod("pre", None, 48, "2"))
    assert load is not None and load.rows.tolist() == [0] and load.pods.tolist() == [2]
    assert load.requests["cpu"].tolist() == [2000]
    state.delete_pod("default", "nom49")
    assert table.nominated_top_priority() == 48


def test_only_nominations_of_the_models_profiles_count() -> None:
    # the nominator holds a pod only when its schedulerName is one of the scheduler's profiles
    # (responsibleForPod in kube-scheduler's informer handlers)
    two = KubeSchedulerModel(profiles=(Profile("default-scheduler"), Profile("binpack")))
    incoming = pod("pre", None, 1000, "2")
    volcano = state_of(node("n1", cpu="4"), pod("a", "n1", 1, "1"),
                       pod("vc", None, 2000, "2", nominated="n1", scheduler="volcano"))
    assert volcano.rank(incoming, MODEL, top=0).feasible_nodes == 1
    assert volcano.rank(incoming, two, top=0).feasible_nodes == 1
    other_profile = state_of(node("n1", cpu="4"), pod("a", "n1", 1, "1"),
                             pod("bp", None, 2000, "2", nominated="n1", scheduler="binpack"))
    assert other_profile.rank(incoming, MODEL, top=0).feasible_nodes == 1  # a scheduler without that profile
    ranking = other_profile.rank(incoming, two, top=0)
    assert ranking.feasible_nodes == 0 and dict(ranking.reason_counts) == {"Insufficient cpu": 1}
    empty_name = state_of(node("n1", cpu="4"), pod("a", "n1", 1, "1"),
                          pod("dflt", None, 2000, "2", nominated="n1", scheduler=""))
    assert empty_name.rank(incoming, MODEL, top=0).feasible_nodes == 0  # "" is default-scheduler
