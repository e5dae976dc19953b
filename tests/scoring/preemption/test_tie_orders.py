"""Equally important pods on a node that loses in name order (reference/preemption.md §4.3, §10): Go's
sort leaves their order open, another order can give that node other victims that win. Checked on
explain's section and on the webhook's ClusterState.preempt, and against every permutation."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from linter.explain.preemption import preemption_section
from linter.model import Profile
from linter.scoring.cluster.state import ClusterState
from linter.scoring.preemption import FilterSetup, NodeVictims, orders, predict_preemption
from linter.scoring.preemption.choice import selection_key
from linter.scoring.preemption.filters import node_state
from linter.scoring.preemption.pdb import budget_of
from linter.scoring.preemption.pods import pod_facts
from linter.scoring.preemption.victims import importance_key, select_victims

from .build import node, pdb, pod
from .test_fast_twin import assert_equal, both

Obj = Mapping[str, Any]
LATER = "2026-01-05T00:00:00Z"


def fast(pending: Obj, nodes: Sequence[Obj], pods: Sequence[Obj], pdbs: Sequence[Obj] = ()) -> Any:
    state = ClusterState()
    for n in nodes:
        state.apply_node(n)
    for p in pods:
        state.apply_pod(p)
    return state.preempt(pending, Profile("default-scheduler"), pdbs)


def explain(pending: Obj, nodes: Sequence[Obj], pods: Sequence[Obj], pdbs: Sequence[Obj] = ()) -> Any:
    return preemption_section(pending, nodes, pods, pdbs, None, ("NodeResourcesFit",))


TIE_NOTE = ("on n1, default/a, default/b, default/c are equally important (same priority and start time): "
            "the scheduler orders them at random, so the victims among them may differ")


def test_tie_without_start_time_on_the_losing_node_can_win() -> None:
    """The audit's i3: n1 loses with {b, c} in name order, but 4 of Go's 6 orders evict only {a}, which
    ties n2 on criteria 1-4 and wins criterion 5 ("now" is later than z's start)."""
    nodes = [node("n1", cpu="4"), node("n2", cpu="2")]
    pods = [pod("a", "n1", 10, "2", start=None), pod("b", "n1", 10, "1", start=None),
            pod("c", "n1", 10, "1", start=None), pod("z", "n2", 10, "2")]
    pending = pod("pre", None, 1000, "2")
    section = explain(pending, nodes, pods)
    assert section["nominatedNode"] is None and section["victims"] == []
    assert section["possibleNodes"] == ["n1", "n2"] and section["decidedBy"] == "random"
    assert section["random"] == [TIE_NOTE]
    assert [c["node"] for c in section["candidates"]] == ["n2", "n1"]  # n1 with its name-ordered victims
    assert [v["name"] for v in section["candidates"][1]["victims"]] == ["b", "c"]
    got = fast(pending, nodes, pods)
    assert got.nominated_node is None and got.possible_nodes == ("n1", "n2") and got.victims == ()
    assert got.random == (TIE_NOTE,) and got.decided_by == "random"


def test_tie_on_the_name_order_winner_can_make_it_lose() -> None:
    """The audit's i1: n1 wins with {b} in name order; orders starting with b evict {a, c} and n2 wins."""
    nodes = [node("n1", cpu="4"), node("n2", cpu="2")]
    pods = [pod("a", "n1", 10, "1", start=LATER), pod("b", "n1", 10, "2", start=LATER),
            pod("c", "n1", 10, "1", start=LATER), pod("z", "n2", 10, "2")]
    pending = pod("pre", None, 1000, "2")
    section = explain(pending, nodes, pods)
    assert section["nominatedNode"] is None and section["possibleNodes"] == ["n1", "n2"]
    got = fast(pending, nodes, pods)
    assert got.nominated_node is None and got.possible_nodes == ("n1", "n2") and got.random == (TIE_NOTE,)


def test_tie_that_cannot_change_the_winner_stays_certain() -> None:
    """n1's order decides between {a} and {b, c}, all priority 10: n2's single priority-5 victim wins
    criterion 2 either way. On n2, y and z differ but both go in every order: nothing is random."""
    nodes = [node("n1", cpu="4"), node("n2", cpu="2")]
    pods = [pod("a", "n1", 10, "2", start=LATER), pod("b", "n1", 10, "1", start=LATER),
            pod("c", "n1", 10, "1", start=LATER),
            pod("y", "n2", 5, requests={"cpu": "1", "memory": "1Gi"}), pod("z", "n2", 5, "1")]
    pending = pod("pre", None, 1000, "2")
    section = explain(pending, nodes, pods)
    assert section["nominatedNode"] == "n2" and section["possibleNodes"] == ["n2"]
    assert [v["name"] for v in section["victims"]] == ["y", "z"]
    assert section["random"] == [] and section["decidedBy"] == "lowest highest-victim priority"
    got = fast(pending, nodes, pods)
    assert got.nominated_node == "n2" and got.victims == ("default/y", "default/z") and got.random == ()


VIOLATIONS_NOTE = ("on n1, the order of equally important pods changes which of them use up a PodDisruptionBudget's "
                   "allowance, and so the node's PDB violation count (its victims stay the same)")


def test_an_order_that_changes_only_the_violation_count_is_reported() -> None:
    """a (1 cpu) and b (2 cpu) share a PDB with one disruption allowed; b is the victim in both orders, but
    it violates the PDB only when a comes first. Without the violation n1 wins criterion 5 (b started
    after z), with it n2 wins criterion 1: two possible nodes, and the note says why."""
    nodes = [node("n1", cpu="3"), node("n2", cpu="2")]
    web = {"app": "web"}
    pods = [pod("a", "n1", 10, "1", start=LATER, labels=web), pod("b", "n1", 10, "2", start=LATER, labels=web),
            pod("z", "n2", 10, "2")]
    pdbs = [pdb("web", {"matchLabels": web}, 1)]
    pending = pod("pre", None, 1000, "2")
    section = explain(pending, nodes, pods, pdbs)
    assert section["nominatedNode"] is None and section["possibleNodes"] == ["n1", "n2"]
    assert section["random"] == [VIOLATIONS_NOTE]
    got = fast(pending, nodes, pods, pdbs)
    assert got.possible_nodes == ("n1", "n2") and got.random == (VIOLATIONS_NOTE,)


def test_a_violation_count_that_cannot_change_the_winner_stays_certain() -> None:
    """The same n1 alone: it is nominated whatever its violation count, with b."""
    nodes = [node("n1", cpu="3")]
    web = {"app": "web"}
    pods = [pod("a", "n1", 10, "1", start=LATER, labels=web), pod("b", "n1", 10, "2", start=LATER, labels=web)]
    pdbs = [pdb("web", {"matchLabels": web}, 1)]
    pending = pod("pre", None, 1000, "2")
    section = explain(pending, nodes, pods, pdbs)
    assert section["nominatedNode"] == "n1" and [v["name"] for v in section["victims"]] == ["b"]
    assert section["random"] == []
    got = fast(pending, nodes, pods, pdbs)
    assert got.nominated_node == "n1" and got.victims == ("default/b",) and got.random == ()


def test_a_node_with_more_orders_than_the_limit_is_ranked_by_bounds() -> None:
    """Seven different pods tied on n1: 5,040 orders, more than ORDER_LIMIT. n1 is not tried in every
    order, so it may be nominated (its best bound: one victim), and the note says so."""
    nodes = [node("n1", cpu="4"), node("n2", cpu="3")]
    pods = [pod(f"p{i}", "n1", 10, f"{i}00m", start=LATER) for i in range(1, 8)] + [pod("z", "n2", 10, "3")]
    pending = pod("pre", None, 1000, "3")
    bounded = ("on n1, not every order of its equally important pods was tried (more than 720 on the node, or more "
               "than 5040 over all candidate nodes): the node is ranked by bounds (any of its lower-priority pods "
               "may be victims)")
    section = explain(pending, nodes, pods)
    assert section["nominatedNode"] is None and section["possibleNodes"] == ["n1", "n2"]
    assert section["random"][-1] == bounded
    got = fast(pending, nodes, pods)
    assert got.possible_nodes == ("n1", "n2") and got.random[-1] == bounded
    assert len(got.random) == len(section["random"]) == 2  # the tie note of n1, then the bound


# Every permutation, checked against the model: small generated nodes full of ties.

START = st.sampled_from([LATER, None, "2026-01-01T00:00:00Z"])


@st.composite
def tied_clusters(draw: st.DrawFn) -> tuple[Obj, list[Obj], list[Obj], list[Obj]]:
    n_nodes = draw(st.integers(2, 3))
    nodes = [node(f"n{i}", cpu=str(draw(st.integers(2, 3)))) for i in range(n_nodes)]
    pods = []
    for i in range(draw(st.integers(4, 12))):
        labels = draw(st.sampled_from([{}, {"app": "web"}]))
        pods.append(pod(f"p{i}", f"n{draw(st.integers(0, n_nodes - 1))}", draw(st.sampled_from([0, 10])),
                        f"{draw(st.integers(1, 3)) * 500}m", start=draw(START), labels=labels))
    pdbs = [pdb("web", {"matchLabels": {"app": "web"}}, draw(st.integers(0, 1)))] if draw(st.booleans()) else []
    return pod("pre", None, 1000, f"{draw(st.integers(2, 4)) * 500}m"), nodes, pods, pdbs


def _all_keys(pending: Obj, nodes: Sequence[Obj], pods: Sequence[Obj], pdbs: Sequence[Obj]) -> dict[str, set[Any]]:
    """Per candidate node, its selection key under every permutation of its equally important pods: each
    permutation made the name order by renaming the pods (no PDB here lists disrupted pods by name)."""
    me = pod_facts(pending)
    budgets = [budget_of(b) for b in pdbs]
    setup = FilterSetup()
    out: dict[str, set[Any]] = {}
    for n in nodes:
        state = node_state(n)
        mine = [pod_facts(p) for p in pods if p["spec"]["nodeName"] == state.name]
        state.pods = mine
        if not isinstance(select_victims(me, setup, state, (), budgets), NodeVictims):
            continue
        runs = [list(g) for _, g in itertools.groupby(sorted(mine, key=importance_key),
                                                        key=lambda p: importance_key(p)[:2])]
        assume(math.prod(math.factorial(len(r)) for r in runs) <= 1000)  # every permutation, so keep it small
        keys = set()
        for choice in itertools.product(*(itertools.permutations(r) for r in runs)):
            state.pods = [replace(p, name=f"{i:02d}-{p.name}") for run in choice for i, p in enumerate(run)]
            found = select_victims(me, setup, state, (), budgets)
            assert isinstance(found, NodeVictims)
            keys.add(selection_key(found))
        out[state.name] = keys
    return out


def _winners(keys: dict[str, set[Any]]) -> tuple[str, ...]:
    """The nodes that are best (or tied best) under some combination of every node's keys."""
    names = sorted(keys)
    winners = set()
    for combo in itertools.product(*(sorted(keys[n]) for n in names)):
        winners |= {n for n, k in zip(names, combo, strict=True) if k == min(combo)}
    return tuple(sorted(winners))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tied_clusters())
def test_possible_nodes_are_those_that_win_under_some_permutation(
    case: tuple[Obj, list[Obj], list[Obj], list[Obj]],
) -> None:
    pending, nodes, pods, pdbs = case
    got = predict_preemption(pending, nodes, pods, pdbs)
    keys = _all_keys(pending, nodes, pods, pdbs)
    if not got.needed or not keys:
        return
    assert got.possible_nodes == _winners(keys)
    assert (got.nominated_node is None) == (len(keys) > 0 and len(_winners(keys)) > 1)


@pytest.fixture(params=[(720, 5040), (2, 5040), (720, 3)])
def order_limit(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """The real limits; a node limit so small that most tied nodes are ranked by bounds; a total so small
    that the nodes after the first tied ones (by name) are."""
    node_limit, total = request.param
    monkeypatch.setattr(orders, "ORDER_LIMIT", node_limit)
    monkeypatch.setattr(orders, "TOTAL_ORDER_LIMIT", total)
    return int(node_limit if total == 5040 else 0)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(tied_clusters())
def test_fast_twin_agrees_on_ties(order_limit: int, case: tuple[Obj, list[Obj], list[Obj], list[Obj]]) -> None:
    """Both paths give the same answer, notes included; with the real limit it is every permutation's."""
    pending, nodes, pods, pdbs = case
    scalar, twin = both(pending, nodes, pods, pdbs)
    assert_equal(scalar, twin)
    if order_limit == 720 and twin.needed and twin.eligible:
        keys = _all_keys(pending, nodes, pods, pdbs)
        assert twin.possible_nodes == (_winners(keys) if keys else ())


def test_the_orders_of_all_candidate_nodes_share_one_budget_handed_out_by_node_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two nodes with three different tied pods each (6 orders, 5 beyond the first): with a total of 5 only
    n1, first by name, is tried in every order; n2 is ranked by bounds, on both paths."""
    monkeypatch.setattr(orders, "TOTAL_ORDER_LIMIT", 5)
    nodes = [node("n2", cpu="4"), node("n1", cpu="4")]
    pods = [pod(f"{n}p{i}", n, 10, f"{i}000m") for n in ("n1", "n2") for i in (1, 2, 3)]
    pending = pod("pre", None, 1000, "2")
    scalar, twin = both(pending, nodes, pods, [])
    assert_equal(scalar, twin)
    assert any(note.startswith("on n2, not every order") for note in twin.random), twin.random
    assert not any(note.startswith("on n1, not every order") for note in twin.random), twin.random
