"""The webhook's fast preemption twin equals the scalar model: every oracle case, and generated
clusters (hypothesis), on nomination, possible nodes, victims, message and the random notes."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linter.model import PreemptionArgs, Profile
from linter.scoring.cluster import reprieve
from linter.scoring.cluster.podtable import PodTable
from linter.scoring.cluster.state import ClusterState
from linter.scoring.preemption import PreemptionOptions, predict_preemption

from .build import node, pdb, pod
from .oracle import ORACLE, cluster

Obj = Mapping[str, Any]


def both(pending: Obj, nodes: Sequence[Obj], pods: Sequence[Obj], pdbs: Sequence[Obj],
         args: PreemptionArgs | None = None, scheduler_names: frozenset[str] | None = None) -> tuple[Any, Any]:
    """``scheduler_names``: the config's profile names (None: the default-scheduler profile alone)."""
    profile = Profile("default-scheduler", preemption=args or PreemptionArgs())
    state = ClusterState()
    for n in nodes:
        state.apply_node(n)
    for p in pods:
        state.apply_pod(p)
    fast = state.preempt(pending, profile, pdbs, scheduler_names=scheduler_names)
    options = PreemptionOptions(args=profile.preemption)
    if scheduler_names is not None:
        options = PreemptionOptions(args=profile.preemption, scheduler_names=scheduler_names)
    scalar = predict_preemption(pending, nodes, pods, pdbs, options)
    return scalar, fast


def assert_equal(scalar: Any, fast: Any) -> None:
    assert fast.needed == scalar.needed
    if not scalar.needed:
        return
    assert fast.message == scalar.message
    assert fast.event_message == scalar.event_message
    assert fast.eligible == scalar.eligible
    assert fast.not_eligible_reason == scalar.not_eligible_reason
    assert fast.nominated_node == scalar.nominated_node
    assert fast.possible_nodes == scalar.possible_nodes
    assert fast.victims == tuple(v.key for v in scalar.victims)
    assert fast.random == scalar.random
    assert sorted(fast.cleared_nominations) == sorted(scalar.cleared_nominations)
    if scalar.choice is not None:
        assert fast.decided_by == scalar.choice.decided_by


@pytest.mark.parametrize("case", ORACLE, ids=[c["id"] for c in ORACLE])
def test_oracle_case_fast(case: dict[str, Any]) -> None:
    nodes, pods, pdbs, pending = cluster(case)
    scalar, fast = both(pending, nodes, pods, pdbs)
    assert_equal(scalar, fast)
    assert fast.nominated_node == case["outcome"]["nominatedNode"] or not case["outcome"]["preemptionNeeded"]


@pytest.mark.parametrize("starts, nominated, random", [
    (("2026-01-03T00:00:00Z", None), "n1", ()),
    ((None, None), None, ("2 nodes tie on all five criteria: the scheduler picks one at random",
                          "the deciding victims have no status.startTime: the scheduler compares them with 'now'")),
])
def test_victims_without_start_time_are_random_only_in_a_tie(
    starts: tuple[str | None, str | None], nominated: str | None, random: tuple[str, ...],
) -> None:
    """'now' beats a real start for certain; only two nodes both at 'now' are a random pick."""
    nodes = [node("n0"), node("n1")]
    pods = [pod("a", "n0", 0, "4", starts[0]), pod("b", "n1", 0, "4", starts[1])]
    scalar, fast = both(pod("p", None, 1000, "4"), nodes, pods, [])
    assert_equal(scalar, fast)
    assert fast.nominated_node == nominated and fast.random == random


STARTS = ["2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z", None]
PRIORITIES = [-2**31, -1000, 0, 100, 200, 500, 1000]
LABELS = [{}, {"app": "web"}, {"app": "db"}, {"app": "web", "tier": "x"}]
# a nominated pod's spec.schedulerName: counted when it names a profile (None and "" are default-scheduler)
SCHEDULERS = [None, "", "default-scheduler", "binpack", "volcano"]
TWO_PROFILES = frozenset({"default-scheduler", "binpack"})


@st.composite
def clusters(draw: st.DrawFn) -> tuple[Obj, list[Obj], list[Obj], list[Obj], PreemptionArgs]:
    n_nodes = draw(st.integers(1, 5))
    taint = [{"key": "k", "effect": "NoSchedule"}]
    nodes = [node(f"n{i}", cpu=str(draw(st.integers(2, 6))), pods=str(draw(st.integers(2, 6))),
                  allocatable={"example.com/gpu": str(draw(st.integers(0, 2)))},
                  taints=taint if draw(st.integers(0, 5)) == 0 else [])
             for i in range(n_nodes)]
    pods = []
    for i in range(draw(st.integers(0, 14))):
        reqs = {"cpu": f"{draw(st.integers(0, 3)) * 500}m"}
        if draw(st.booleans()):
            reqs["example.com/gpu"] = "1"
        reqs = {k: v for k, v in reqs.items() if v != "0m"}
        meta: dict[str, Any] = {}
        if draw(st.integers(0, 6)) == 0:
            meta = {"deletionTimestamp": "2026-11-23T00:00:00Z",
                    "conditions": [{"type": "DisruptionTarget", "status": "True", "reason": "PreemptionByScheduler"}]}
        pods.append(pod(f"p{i}", f"n{draw(st.integers(0, n_nodes - 1))}", draw(st.sampled_from(PRIORITIES)),
                        requests=reqs, start=draw(st.sampled_from(STARTS)), labels=draw(st.sampled_from(LABELS)),
                        **meta))
    for i in range(draw(st.integers(0, 2))):
        pods.append(pod(f"nom{i}", None, draw(st.sampled_from(PRIORITIES)), f"{draw(st.integers(1, 3))}",
                        nominated=f"n{draw(st.integers(0, n_nodes))}", scheduler=draw(st.sampled_from(SCHEDULERS))))
    pdbs = [pdb(f"b{i}", draw(st.sampled_from([{"matchLabels": {"app": "web"}}, {"matchLabels": {"tier": "x"}}, {}])),
                draw(st.integers(0, 2)), disrupted=("p1",) if draw(st.booleans()) else ())
            for i in range(draw(st.integers(0, 2)))]
    preq = {"cpu": f"{draw(st.integers(1, 4)) * 500}m"}
    if draw(st.booleans()):
        preq["example.com/gpu"] = str(draw(st.integers(1, 2)))
    policy = "Never" if draw(st.integers(0, 8)) == 0 else None
    nominated = f"n{draw(st.integers(0, n_nodes - 1))}" if draw(st.integers(0, 3)) == 0 else None
    pending = pod("pre", None, draw(st.sampled_from(PRIORITIES)), requests=preq, policy=policy, nominated=nominated)
    args = PreemptionArgs(draw(st.sampled_from([10, 50, 0])), draw(st.sampled_from([100, 1, 2, 0])))
    if args.min_candidate_nodes_percentage == 0 and args.min_candidate_nodes_absolute == 0:
        args = PreemptionArgs()
    return pending, nodes, pods, pdbs, args


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clusters())
def test_fast_twin_equals_scalar(case: tuple[Obj, list[Obj], list[Obj], list[Obj], PreemptionArgs]) -> None:
    pending, nodes, pods, pdbs, args = case
    assert_equal(*both(pending, nodes, pods, pdbs, args))
    assert_equal(*both(pending, nodes, pods, pdbs, args, TWO_PROFILES))


def test_all_violating_candidates_beyond_n_agree() -> None:
    nodes = [node(f"n{i}") for i in range(4)]
    pods = [pod(f"v{i}", f"n{i}", i * 10, "4", labels={"app": "x"}) for i in range(4)]
    scalar, fast = both(pod("p", None, 1000, "4"), nodes, pods, [pdb("all", {"matchLabels": {"app": "x"}}, 0)],
                        PreemptionArgs(0, 2))
    assert_equal(scalar, fast)
    assert fast.possible_nodes == ("n0", "n1", "n2")


def test_n_zero_keeps_no_candidate_in_both() -> None:
    nodes = [node("n1"), node("n2"), node("n3")]
    pods = [pod("a", "n1", 100, "4"), pod("b", "n2", 200, "4"), pod("c", "n3", 3000, "4")]
    scalar, fast = both(pod("p", None, 1000, "4"), nodes, pods, [], PreemptionArgs(10, 0))
    assert_equal(scalar, fast)
    assert fast.nominated_node is None and "2 Preemption is not helpful for scheduling." in fast.message


def test_no_nodes_is_errnonodesavailable_in_both() -> None:
    """schedulePod returns ErrNoNodesAvailable before any filter or PostFilter: that text, no preemption."""
    scalar, fast = both(pod("p", None, 1000, "4"), [], [pod("gone", "n1", 0, "4")], [])
    assert_equal(scalar, fast)
    assert fast.needed and not fast.eligible and fast.nominated_node is None and not fast.victims
    assert fast.message == fast.event_message == "no nodes available to schedule pods"


def test_status_updates_reach_the_twin() -> None:
    """A pod that starts terminating by preemption after it was first seen blocks a re-preemption."""
    nodes = [node("n1")]
    victim = pod("old", "n1", 0, "2")
    pods = [victim, pod("x", "n1", 5000, "2")]
    state = ClusterState()
    state.apply_node(nodes[0])
    for p in pods:
        state.apply_pod(p)
    pending = pod("p", None, 1000, "2", nominated="n1")
    profile = Profile("default-scheduler")
    assert state.preempt(pending, profile).eligible
    state.apply_pod({**victim, "metadata": {**victim["metadata"], "deletionTimestamp": "2026-11-23T00:00:00Z"},
                     "status": {**victim["status"], "conditions": [
                         {"type": "DisruptionTarget", "status": "True", "reason": "PreemptionByScheduler"}]}})
    assert not state.preempt(pending, profile).eligible
    state.delete_pod("default", "old")
    assert state.preempt(pending, profile).candidates == 0


def test_a_burst_of_replicas_reuses_the_prediction_until_the_cluster_changes() -> None:
    state = ClusterState()
    state.apply_node(node("n1"))
    state.apply_pod(pod("a", "n1", 0, "4"))
    profile = Profile("default-scheduler")
    first = state.preempt(pod("replica-1", None, 1000, "2"), profile)
    assert state.preempt(pod("replica-2", None, 1000, "2"), profile) is first  # same shape, no event between
    assert state.preempt(pod("replica-2", None, 1000, "3"), profile) is not first  # another shape
    state.apply_pod(pod("b", "n1", 500, "0"))  # any event
    again = state.preempt(pod("replica-3", None, 1000, "2"), profile)
    assert again is not first and again.victims == first.victims == ("default/a",)
    state.delete_pod("default", "a")
    assert not state.preempt(pod("replica-4", None, 1000, "2"), profile).needed


@pytest.fixture(params=["in-turn-tail", "vectorized-steps"])
def step_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways the twin walks the pods still in play: small clusters take the per-pod tail, so the
    vectorized steps are forced here too (0 rows is never 'few')."""
    if request.param == "vectorized-steps":
        monkeypatch.setattr(reprieve, "_FEW_ROWS", 0)
    return str(request.param)


@st.composite
def churned(draw: st.DrawFn) -> tuple[Obj, list[Obj], list[Obj], list[Obj], PreemptionArgs, list[list[Obj | str]]]:
    """A cluster, then rounds of pod events: deletions, pods re-created with another node, priority or
    start time, and new pods."""
    pending, nodes, pods, pdbs, args = draw(clusters())
    bound = [p for p in pods if p["spec"].get("nodeName")]
    rounds: list[list[Obj | str]] = []
    for r in range(draw(st.integers(1, 3))):
        events: list[Obj | str] = []
        for i in range(draw(st.integers(1, 4))):
            kind = draw(st.sampled_from(["delete", "change", "add"]))
            if kind in ("delete", "change") and bound:
                old = bound[draw(st.integers(0, len(bound) - 1))]
                if kind == "delete":
                    events.append(old["metadata"]["name"])
                    continue
                events.append(pod(old["metadata"]["name"], f"n{draw(st.integers(0, len(nodes) - 1))}",
                                  draw(st.sampled_from(PRIORITIES)), f"{draw(st.integers(0, 3)) * 500}m",
                                  start=draw(st.sampled_from(STARTS)), labels=old["metadata"]["labels"]))
            else:
                events.append(pod(f"new{r}-{i}", f"n{draw(st.integers(0, len(nodes) - 1))}",
                                  draw(st.sampled_from(PRIORITIES)), f"{draw(st.integers(0, 3)) * 500}m",
                                  start=draw(st.sampled_from(STARTS)), labels=draw(st.sampled_from(LABELS))))
        rounds.append(events)
    return pending, nodes, pods, pdbs, args, rounds


# step_mode is meant to hold for every generated case, so its function scope is what is wanted here
@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(churned())
def test_fast_twin_follows_pod_events(
    step_mode: str, case: tuple[Obj, list[Obj], list[Obj], list[Obj], PreemptionArgs, list[list[Obj | str]]],
) -> None:
    """The twin keeps its per-node order across events (repaired in place, or every other round sorted
    anew with the table's slots renumbered); after each round of events it still equals the scalar
    model on the pods as they are then, and its order is the one written out below."""
    pending, nodes, pods, pdbs, args, rounds = case
    profile = Profile("default-scheduler", preemption=args)
    state = ClusterState()
    for n in nodes:
        state.apply_node(n)
    current = {p["metadata"]["name"]: p for p in pods}
    for p in pods:
        state.apply_pod(p)
    state.preempt(pending, profile, pdbs)
    for number, events in enumerate(rounds):
        if number % 2 == 1:  # as after a burst of changes too large to list: sorted anew, slots renumbered
            state.pod_table._touched = None
        for event in events:
            if isinstance(event, str):
                state.delete_pod("default", event)
                current.pop(event, None)
            else:
                state.apply_pod(event)
                current[event["metadata"]["name"]] = event
        fast = state.preempt(pending, profile, pdbs)
        scalar = predict_preemption(pending, nodes, list(current.values()), pdbs, PreemptionOptions(args=args))
        assert_equal(scalar, fast)
        table = state.pod_table
        repaired = ["/".join(table.keys[s]) for s in table.importance.current(table).tolist()]
        assert repaired == sorted(repaired, key=lambda key: _importance(table, table.slot_of[tuple(key.split("/"))]))
        assert len(repaired) == len(table.slot_of)


def _importance(table: PodTable, slot: int) -> tuple[int, int, float, str]:
    """The order the twin keeps, written out: node, priority descending, start (none last), name."""
    start = float(table.start[slot])
    return (int(table.name_id[slot]), -int(table.priority[slot]), math.inf if math.isnan(start) else start,
            "/".join(table.keys[slot]))


@pytest.mark.parametrize("case", ORACLE, ids=[c["id"] for c in ORACLE])
def test_oracle_case_fast_in_both_step_modes(step_mode: str, case: dict[str, Any]) -> None:
    nodes, pods, pdbs, pending = cluster(case)
    scalar, fast = both(pending, nodes, pods, pdbs)
    assert_equal(scalar, fast)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clusters())
def test_fast_twin_equals_scalar_with_vectorized_steps(
    case: tuple[Obj, list[Obj], list[Obj], list[Obj], PreemptionArgs],
) -> None:
    pending, nodes, pods, pdbs, args = case
    saved = reprieve._FEW_ROWS
    reprieve._FEW_ROWS = 0
    try:
        scalar, fast = both(pending, nodes, pods, pdbs, args, TWO_PROFILES)
    finally:
        reprieve._FEW_ROWS = saved
    assert_equal(scalar, fast)



def test_the_pod_limit_ends_the_reprieve_after_a_large_victim(step_mode: str) -> None:
    """The first pod put back is too large, the small ones after it fit until the node's pod limit: the
    walk must count pods as well as resources (both walks, the per-pod tail and the vectorized steps)."""
    nodes = [node("n1", cpu="4", pods="4")]
    pods = [pod("a", "n1", 500, "4"), pod("b", "n1", 400, "0"), pod("c", "n1", 300, "0"),
            pod("d", "n1", 200, "0"), pod("e", "n1", 100, "0")]
    scalar, fast = both(pod("pre", None, 1000, "1"), nodes, pods, [])
    assert_equal(scalar, fast)
    assert fast.victims == ("default/a", "default/e")


def test_only_nominations_of_the_configs_profiles_count_and_are_cleared() -> None:
    """The nominator holds pods of the scheduler's profiles only (responsibleForPod): volcano's pods
    neither reserve nor get cleared, the second profile's do, and the prediction cache tells them apart."""
    nodes = [node("n1", cpu="4")]
    pods = [pod("a", "n1", 0, "4"), pod("vc-high", None, 5000, "1", nominated="n1", scheduler="volcano"),
            pod("bp-high", None, 5000, "1", nominated="n1", scheduler="binpack"),
            pod("vc-low", None, 10, "1", nominated="n1", scheduler="volcano"),
            pod("bp-low", None, 10, "1", nominated="n1", scheduler="binpack")]
    pending = pod("pre", None, 1000, "4")
    scalar, alone = both(pending, nodes, pods, [])
    assert_equal(scalar, alone)
    assert alone.victims == ("default/a",) and alone.cleared_nominations == ()
    scalar, two = both(pending, nodes, pods, [], scheduler_names=TWO_PROFILES)
    assert_equal(scalar, two)
    assert two.candidates == 0 and two.message.endswith("preemption: 0/1 nodes are available: 1 Insufficient cpu.")
    state = ClusterState()
    state.apply_node(nodes[0])
    for p in pods:
        state.apply_pod(p)
    profile = Profile("default-scheduler")
    assert state.preempt(pending, profile).victims == ("default/a",)
    assert state.preempt(pending, profile, scheduler_names=TWO_PROFILES).candidates == 0
    smaller = pod("pre", None, 1000, "3")
    assert state.preempt(smaller, profile, scheduler_names=TWO_PROFILES).cleared_nominations == ("default/bp-low",)
