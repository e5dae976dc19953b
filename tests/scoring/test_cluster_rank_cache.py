"""The state's kept rankings: a burst of identical pods reuses one, and nothing else ever does.

A kept :class:`Ranking` may be handed out only while it equals what ranking anew would give: the same
pod shape (namespace, spec, status), model, profile, ``top`` and ``filters``, with no node, pod or PDB
event in between, and never for a pod the state itself tracks (its own nomination is then left out).
Only a pod whose request shape was ranked lately is kept, so the second of a burst is the first kept.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linter.model import KubeSchedulerModel, Profile, VolcanoBinpackArgs, VolcanoModel, default_kube_scheduler_model
from linter.scoring.cluster.kept_results import pod_shape_key
from linter.scoring.cluster.state import ClusterState

from .preemption.build import node, pod
from .test_cluster_property import NODE_NAMES, bound_pod, incoming_pod
from .test_cluster_property import node as any_node

MODEL = default_kube_scheduler_model()
VOLCANO = VolcanoModel(actions=("allocate",), binpack=(VolcanoBinpackArgs(),))


def state_of(*objs: dict[str, Any]) -> ClusterState:
    state = ClusterState()
    for obj in objs:
        if obj.get("kind") == "Node":
            state.apply_node(obj)
        else:
            state.apply_pod(obj)
    return state


def test_a_burst_of_replicas_gets_the_kept_ranking_until_an_event() -> None:
    state = state_of(node("n1", cpu="4"), node("n2", cpu="8"), pod("a", "n1", 1, "1"))
    not_kept = state.rank(pod("replica-0", None, 0, "2"), MODEL)  # a request shape not seen lately: not kept
    first = state.rank(pod("replica-1", None, 0, "2"), MODEL)
    assert first is not not_kept and first == not_kept
    assert state.rank(pod("replica-2", None, 0, "2"), MODEL) is first  # another name, same shape
    assert state.rank(pod("replica-2", None, 0, "3"), MODEL) is not first  # another shape
    assert state.rank(pod("replica-2", None, 0, "2", ns="other"), MODEL) is not first  # another namespace
    assert state.rank(pod("replica-2", None, 0, "2"), MODEL, top=1) is not first
    assert state.rank(pod("replica-2", None, 0, "2"), MODEL, filters=False) is not first
    assert state.rank(pod("replica-2", None, 0, "2"), VOLCANO) is not first
    assert state.rank(pod("replica-2", None, 0, "2"), default_kube_scheduler_model()) is not first  # an equal model
    state.apply_pod(pod("b", "n2", 1, "7"))  # n2 has 1 cpu left: the replica now fits on n1 only
    after = state.rank(pod("replica-3", None, 0, "2"), MODEL)
    assert after is not first and after.feasible_nodes == 1 and first.feasible_nodes == 2


def test_node_and_pdb_events_also_end_the_kept_ranking() -> None:
    state = state_of(node("n1", cpu="4"))
    first = state.rank(pod("replica-1", None, 0, "2"), MODEL)
    state.apply_pdb({"metadata": {"name": "b", "namespace": "default"}, "spec": {}, "status": {}})
    second = state.rank(pod("replica-1", None, 0, "2"), MODEL)
    assert second is not first and second == first
    state.apply_node(node("n1", cpu="1"))
    third = state.rank(pod("replica-1", None, 0, "2"), MODEL)
    assert third.feasible_nodes == 0 and dict(third.reason_counts) == {"Insufficient cpu": 1}


def test_a_pod_the_state_tracks_is_ranked_anew_and_not_kept() -> None:
    """The tracked pod's own nomination is left out for it, and counts for a replica of the same shape."""
    state = state_of(node("n1", cpu="4"), pod("a", "n1", 1, "1"), pod("pre", None, 1000, "2", nominated="n1"))
    own = state.rank(pod("pre", None, 1000, "2", nominated="n1"), MODEL, top=0)
    assert own.feasible_nodes == 1
    other = state.rank(pod("other", None, 1000, "2", nominated="n1"), MODEL, top=0)
    assert other.feasible_nodes == 0 and dict(other.reason_counts) == {"Insufficient cpu": 1}
    assert state.rank(pod("pre", None, 1000, "2", nominated="n1"), MODEL, top=0).feasible_nodes == 1


def test_a_pod_the_state_tracks_never_hands_its_preemption_to_a_replica() -> None:
    state = state_of(node("n1", cpu="4"), pod("low", "n1", 1, "3"), pod("pre", None, 1000, "2", nominated="n1"))
    profile = Profile("default-scheduler")
    own = state.preempt(pod("pre", None, 1000, "2", nominated="n1"), profile)
    other = state.preempt(pod("other", None, 1000, "2", nominated="n1"), profile)
    assert own is not other
    fresh = state_of(node("n1", cpu="4"), pod("low", "n1", 1, "3"), pod("pre", None, 1000, "2", nominated="n1"))
    assert other == fresh.preempt(pod("other", None, 1000, "2", nominated="n1"), profile)


def test_keys_tell_apart_what_json_would_write_alike() -> None:
    as_int = {"metadata": {}, "spec": {"nodeSelector": {1: "a"}}}
    as_text = {"metadata": {}, "spec": {"nodeSelector": {"1": "a"}}}
    assert pod_shape_key(as_int) != pod_shape_key(as_text)
    assert pod_shape_key({"spec": {"priority": 1}}) != pod_shape_key({"spec": {"priority": True}})
    named_x, named_y = {"metadata": {"name": "x"}, "spec": {}}, {"metadata": {"name": "y"}, "spec": {}}
    assert pod_shape_key(named_x) == pod_shape_key(named_y)
    assert pod_shape_key({"spec": {"x": object.__new__(type("Local", (), {}))}}) is None  # cannot pickle: not kept


EVENTS = st.lists(st.one_of(
    st.tuples(st.just("node"), any_node()),
    st.tuples(st.just("pod"), bound_pod()),
    st.tuples(st.just("delete"), st.sampled_from(NODE_NAMES)),
    st.tuples(st.just("rank"), st.integers(0, 2)),
), min_size=1, max_size=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(incoming_pod(), min_size=1, max_size=3), EVENTS)
def test_every_kept_ranking_equals_a_ranking_from_scratch(
    incoming: list[dict[str, Any]], events: list[tuple[str, Any]],
) -> None:
    """Events and rankings interleaved: each answer equals that of a state that has seen the same events
    and never ranked before."""
    models: list[KubeSchedulerModel | VolcanoModel] = [MODEL, VOLCANO]
    state = ClusterState()
    applied: list[tuple[str, Any]] = []
    for kind, value in events:
        if kind == "rank":
            for model in models:
                got = state.rank(incoming[value % len(incoming)], model, top=3)
                fresh = ClusterState()
                for event_kind, obj in applied:
                    _apply(fresh, event_kind, obj)
                assert got == fresh.rank(incoming[value % len(incoming)], model, top=3)
            continue
        try:
            _apply(state, kind, value)
        except ValueError:
            continue  # refused as a whole: the state did not change
        applied.append((kind, value))


def _apply(state: ClusterState, kind: str, obj: Any) -> None:
    if kind == "node":
        state.apply_node(obj)
    elif kind == "pod":
        state.apply_pod(obj)
    else:
        state.delete_node(obj)
