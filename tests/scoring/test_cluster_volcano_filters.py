"""ClusterState ranks a Volcano pod with Volcano's allocate-action checks (``Action.predicate``,
``PredicatesPlugin.Predicate``), and keeps ``NodeInfo.Releasing`` in step with pod events."""

from __future__ import annotations

from typing import Any

import numpy as np

from linter.explain.compute import explain
from linter.model import VolcanoBinpackArgs, VolcanoModel, VolcanoPredicateArgs
from linter.scoring.cluster.state import ClusterState
from linter.scoring.volcano_feasibility import REASON_POD_NUMBER

VOLCANO = VolcanoModel(actions=("allocate",), binpack=(VolcanoBinpackArgs(),))


def _node(name: str, cpu: str, pods: str = "110", **spec: Any) -> dict[str, Any]:
    return {"metadata": {"name": name}, "spec": spec, "status": {"allocatable": {"cpu": cpu, "memory": "8Gi",
                                                                                 "pods": pods}}}


def _pod(name: str, cpu: str, node: str | None = None, phase: str = "Running",
         deleting: bool = False) -> dict[str, Any]:
    pod: dict[str, Any] = {"metadata": {"name": name, "namespace": "ns"}, "status": {"phase": phase},
                           "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": cpu}}}]}}
    if node:
        pod["spec"]["nodeName"] = node
    if deleting:
        pod["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:00Z"
    return pod


def _state(*objects: dict[str, Any]) -> ClusterState:
    state = ClusterState()
    for obj in objects:
        (state.apply_pod if "containers" in obj.get("spec", {}) else state.apply_node)(obj)
    return state


def test_a_deletion_that_begins_frees_the_room_for_volcano_only() -> None:
    """``getTaskStatus``: Running + deletionTimestamp is Releasing, and ``FutureIdle`` gives its request back."""
    state = _state(_node("n", "2"), _pod("old", "2", "n"))
    incoming = _pod("in", "1")
    ranking = state.rank(incoming, VOLCANO)
    assert (ranking.feasible_nodes, dict(ranking.reason_counts)) == (0, {"Insufficient cpu": 1})
    state.apply_pod(_pod("old", "2", "n", deleting=True))  # a status-only update: same node and requests
    assert state.rank(incoming, VOLCANO).feasible_nodes == 1
    fresh = _state(_node("n", "2"), _pod("old", "2", "n", deleting=True))
    size = state.store.size
    assert np.array_equal(state.store.vc_releasing[:, :size], fresh.store.vc_releasing[:, :size])
    state.apply_pod(_pod("old", "2", "n", phase="Succeeded", deleting=True))  # gone: nothing Releasing left
    assert not np.count_nonzero(state.store.vc_releasing[:, : state.store.size])
    assert state.rank(incoming, VOLCANO).feasible_nodes == 1


def test_predicates_statuses_count_each() -> None:
    """A node counts under each of its reasons (``FitErrors.Error``): the pod-number status, then the first
    stable filter; a node the resource check rejects counts there only."""
    state = _state(_node("full", "4", pods="1", unschedulable=True), _pod("going", "0", "full", deleting=True),
                   _node("small", "1", unschedulable=True))
    ranking = state.rank(_pod("in", "2"), VOLCANO)
    assert dict(ranking.reason_counts) == {REASON_POD_NUMBER: 1, "node(s) were unschedulable": 1,
                                           "Insufficient cpu": 1}
    without = VolcanoModel(actions=("allocate",), binpack=(VolcanoBinpackArgs(),), predicates=None)
    assert state.rank(_pod("in", "2"), without).scores[0][0] == "full"


def test_switched_off_taint_filter_is_not_run() -> None:
    tainted = _node("t", "4", taints=[{"key": "k", "value": "v", "effect": "NoSchedule"}])
    state = _state(tainted)
    assert state.rank(_pod("in", "1"), VOLCANO).feasible_nodes == 0
    off = VolcanoModel(actions=("allocate",), binpack=(VolcanoBinpackArgs(),),
                       predicates=VolcanoPredicateArgs(taint_toleration=False))
    assert state.rank(_pod("in", "1"), off).feasible_nodes == 1


def test_nodes_whose_idle_fits_come_first() -> None:
    """``prioritizeNodes``: Volcano scores the feasible nodes whose Idle fits the task and picks among them;
    a node that fits only with its Releasing pods' room comes after, whatever its binpack score."""
    def gpu_node(name: str) -> dict[str, Any]:
        out = _node(name, "4")
        out["status"]["allocatable"]["example.com/foo"] = "2"
        return out

    going = _pod("going", "2", "a", deleting=True)
    going["spec"]["containers"][0]["resources"]["requests"]["example.com/foo"] = "2"
    incoming = _pod("in", "1")
    incoming["spec"]["containers"][0]["resources"]["requests"]["example.com/foo"] = "1"
    state = _state(gpu_node("a"), gpu_node("b"), going)
    ranking = state.rank(incoming, VOLCANO, top=0)
    assert [name for name, _ in ranking.scores] == ["b", "a"]
    assert ranking.scores[1][1] > ranking.scores[0][1]  # a packs better, yet Volcano takes b
    assert ranking.best_node == "b"
    assert [name for name, _ in state.rank(incoming, VOLCANO, top=1).scores] == ["b"]  # a is the top score
    doc = explain(VOLCANO, [gpu_node("a"), gpu_node("b")], [going], incoming)
    assert [(n["name"], n["feasible"], n["fitsIdle"]) for n in doc["nodes"]] == [("b", True, True),
                                                                                ("a", True, False)]
