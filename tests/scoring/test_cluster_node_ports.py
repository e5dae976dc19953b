"""The webhook's cluster state runs NodePorts as explain does: ranking feasibility and reason counts, kept
exact through pod events, nominated pods' ports, and the fast preemption twin equal to the scalar model on
random clusters with host ports (TCP/UDP/SCTP, hostIP unset/0.0.0.0/an address, sidecar and plain init
containers, hostNetwork pods)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from linter.explain import explain
from linter.model import default_kube_scheduler_model
from linter.scoring.cluster.state import ClusterState
from linter.scoring.hostports import REASON_NODE_PORTS
from linter.scoring.preemption import predict_preemption

from .preemption.build import node, pod
from .test_node_ports import port, with_ports

Obj = dict[str, Any]
MODEL = default_kube_scheduler_model()
PROFILE = MODEL.profiles[0]


def state_of(*objs: Obj) -> ClusterState:
    state = ClusterState()
    for obj in objs:
        (state.apply_node if obj["kind"] == "Node" else state.apply_pod)(obj)
    return state


def test_ranking_rejects_the_node_holding_the_port() -> None:
    state = state_of(node("n1"), node("n2"), with_ports(pod("a", "n1", 0), port(80)),
                     with_ports(pod("b", "n2", 0), port(80, "UDP")))
    ranking = state.rank(with_ports(pod("p", None, 0), port(80)), MODEL, top=0)
    assert [name for name, _ in ranking.scores] == ["n2"]
    assert dict(ranking.reason_counts) == {REASON_NODE_PORTS: 1}


def test_the_port_is_free_again_once_its_pod_is_gone_or_moved() -> None:
    holder = with_ports(pod("a", "n1", 0), port(80))
    twin = with_ports(pod("b", "n1", 0), port(80))
    state = state_of(node("n1"), node("n2"), holder, twin)
    wanted = with_ports(pod("p", None, 0), port(80))
    state.delete_pod("default", "a")
    assert state.rank(wanted, MODEL, top=0).feasible_nodes == 1  # b still holds it
    moved = copy.deepcopy(twin)
    moved["spec"]["nodeName"] = "n2"
    state.apply_pod(moved)
    assert [name for name, _ in state.rank(wanted, MODEL, top=0).scores] == ["n1"]
    done = copy.deepcopy(moved)
    done["status"]["phase"] = "Succeeded"
    state.apply_pod(done)
    assert state.rank(wanted, MODEL, top=0).feasible_nodes == 2


def test_a_nominated_pods_port_counts_and_a_pod_without_ports_is_not_filtered() -> None:
    state = state_of(node("n1"), with_ports(pod("nom", None, 5000, nominated="n1"), port(80)))
    assert dict(state.rank(with_ports(pod("p", None, 0), port(80)), MODEL, top=0).reason_counts) == {
        REASON_NODE_PORTS: 1}
    assert state.rank(pod("q", None, 0), MODEL, top=0).feasible_nodes == 1


def test_preemption_evicts_the_holder_and_not_a_higher_priority_one() -> None:
    pending = with_ports(pod("p", None, 1000, "1"), port(80))
    state = state_of(node("n1"), with_ports(pod("low", "n1", 0, "0"), port(80)), pod("other", "n1", 0, "0"))
    got = state.preempt(pending, PROFILE)
    assert (got.nominated_node, got.victims) == ("n1", ("default/low",))
    state = state_of(node("n1"), with_ports(pod("high", "n1", 5000, "0"), port(80)), pod("low", "n1", 0, "0"))
    got = state.preempt(pending, PROFILE)
    text = "1 node(s) didn't have free ports for the requested pod ports."
    assert got.nominated_node is None
    assert got.message == (f"0/1 nodes are available: {text} no new claims to deallocate, preemption: "
                           f"0/1 nodes are available: {text}")


def _port(r: random.Random) -> Obj:
    out: Obj = {"containerPort": r.choice([53, 80]), "hostPort": r.choice([0, 80, 80, 81, 53])}
    for key, values in (("hostIP", [None, "", "0.0.0.0", "10.0.0.1", "10.0.0.2"]),
                        ("protocol", [None, "TCP", "UDP", "SCTP"])):
        value = r.choice(values)
        if value is not None:
            out[key] = value
    return out


def _pod(r: random.Random, name: str, on: str | None, priority: int, nominated: str | None = None) -> Obj:
    made = pod(name, on, priority, r.choice(["0", "1", "2"]), f"2026-01-01T00:00:{r.randrange(60):02d}Z",
               nominated=nominated)
    made["spec"]["containers"][0]["ports"] = [_port(r) for _ in range(r.choice([0, 1, 2]))]
    if r.random() < 0.3:
        init: Obj = {"name": "i", "ports": [_port(r)]}
        if r.random() < 0.6:
            init["restartPolicy"] = "Always"
        made["spec"]["initContainers"] = [init]
    if r.random() < 0.1:
        made["spec"]["hostNetwork"] = True
    return made


def _case(r: random.Random) -> tuple[list[Obj], list[Obj], Obj]:
    nodes = [node(f"n{i}") for i in range(r.randint(1, 3))]
    names = [n["metadata"]["name"] for n in nodes]
    pods = [_pod(r, f"b{i}", r.choice(names), r.choice([0, 10, 2000])) for i in range(r.randint(0, 7))]
    pods += [_pod(r, f"nom{i}", None, r.choice([500, 3000]), r.choice(names)) for i in range(r.choice([0, 0, 1]))]
    pending = _pod(r, "p", None, 1000)
    pending["spec"]["containers"][0]["ports"].append(port(r.choice([80, 81, 53]), r.choice([None, "UDP"])))
    return nodes, pods, pending


@pytest.mark.parametrize("seed", range(4))
def test_the_state_agrees_with_explain_and_the_scalar_preemption(seed: int) -> None:
    r = random.Random(seed)
    for _ in range(150):
        nodes, pods, pending = _case(r)
        state = ClusterState()
        for obj in r.sample(nodes + pods, len(nodes) + len(pods)):
            (state.apply_node if obj["kind"] == "Node" else state.apply_pod)(obj)
        for gone in [p for p in pods if r.random() < 0.3]:  # events must leave the state as a rebuild has it
            state.delete_pod("default", gone["metadata"]["name"])
            state.apply_pod(gone)
        doc = explain(MODEL, nodes, pods, pending)
        ranking = state.rank(pending, MODEL, top=0)
        assert sorted(name for name, _ in ranking.scores) == sorted(n["name"] for n in doc["nodes"] if n["feasible"])
        assert ranking.reason_counts.get(REASON_NODE_PORTS, 0) == sum(
            n["rejectedByPlugin"] == "NodePorts" for n in doc["nodes"])
        if ranking.feasible_nodes:
            continue
        scalar, fast = predict_preemption(pending, nodes, pods), state.preempt(pending, PROFILE)
        assert (fast.message, fast.nominated_node, sorted(fast.possible_nodes)) == (
            scalar.message, scalar.nominated_node, sorted(scalar.possible_nodes))
        assert sorted(fast.victims) == sorted(v.key for v in scalar.victims)


def test_equally_important_pods_differ_by_holding_the_port() -> None:
    state = state_of(node("n1", cpu="3"), with_ports(pod("a", "n1", 0, "1"), port(80)), pod("b", "n1", 0, "1"))
    got = state.preempt(with_ports(pod("p", None, 1000, "1"), port(80)), PROFILE)
    assert (got.victims, got.random) == (("default/a",), ())
