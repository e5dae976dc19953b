"""Volcano's node oversubscription annotations (``NodeInfo.setOversubscription``, ed72c7c): explain and the
webhook's cluster state add ``volcano.sh/oversubscription-cpu``/``-memory`` to the Volcano allocatable, so
FutureIdle and binpack's capacity carry them; kube-scheduler pods see the plain allocatable.

The expected scores are worked out by hand below from BinPackingScore's formula
``sum((request + used) * weight / allocatable) / sum(weights) * 100``, in float64.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from linter.explain.compute import explain
from linter.model import VolcanoBinpackArgs, VolcanoModel, VolcanoPredicateArgs, default_kube_scheduler_model
from linter.scoring.cluster.state import ClusterState
from linter.scoring.oversubscription import oversubscription

VOLCANO = VolcanoModel(actions=("allocate",), binpack=(VolcanoBinpackArgs(),), predicates=VolcanoPredicateArgs())
GI = 2**30
CPU, MEMORY = "volcano.sh/oversubscription-cpu", "volcano.sh/oversubscription-memory"


def _node(name: str, cpu: str, memory: str = "8Gi", labels: dict[str, str] | None = None,
          over_cpu: str | None = None, over_memory: str | None = None) -> dict[str, Any]:
    """A node with these allocatable cpu and memory, and the oversubscription annotations given."""
    metadata: dict[str, Any] = {"name": name, "labels": labels or {}}
    over = {key: value for key, value in ((CPU, over_cpu), (MEMORY, over_memory)) if value is not None}
    if over:
        metadata["annotations"] = over
    return {"metadata": metadata, "spec": {}, "status": {"allocatable": {"cpu": cpu, "memory": memory, "pods": "110"}}}


def _pod(cpu: str, memory: str = "1Gi", node: str | None = None, name: str = "in") -> dict[str, Any]:
    pod: dict[str, Any] = {"metadata": {"name": name, "namespace": "ns"}, "status": {"phase": "Running"},
                           "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": cpu,
                                                                                            "memory": memory}}}]}}
    if node:
        pod["spec"]["nodeName"] = node
    return pod


def _nodes(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n["name"]: n for n in doc["nodes"]}


@pytest.mark.parametrize(("annotations", "expected"), [
    ({CPU: "2000", MEMORY: "1073741824"}, {"cpu": 2000.0, "memory": float(GI)}),
    ({CPU: "1.5e3"}, {"cpu": 1500.0}),
    ({CPU: "0x1p4"}, {"cpu": 16.0}),  # hex floats are Go float literals
    ({CPU: "1_000"}, {"cpu": 1000.0}),  # so are underscores between digits
    ({CPU: "2 cores"}, {"cpu": 0.0}),  # invalid syntax: ParseFloat's 0, error dropped
    ({CPU: "2000m"}, {"cpu": 0.0}),  # not a quantity: a float literal
    ({CPU: " 2000"}, {"cpu": 0.0}),
    ({CPU: "-500"}, {"cpu": -500.0}),
    ({CPU: "1e400", MEMORY: "-1e400"}, {"cpu": math.inf, "memory": -math.inf}),  # out of range: +-Inf
    ({CPU: "+Inf", MEMORY: "-infinity"}, {"cpu": math.inf, "memory": -math.inf}),
    ({"volcano.sh/oversubscription": "true"}, {}),  # the label's key as an annotation adds nothing
    ({CPU: 2000}, {}),  # never a string in the API: not read
])
def test_annotation_values_as_parse_float_reads_them(annotations: dict[str, object],
                                                      expected: dict[str, float]) -> None:
    assert oversubscription(annotations) == expected


def test_nan_annotation() -> None:
    assert math.isnan(oversubscription({CPU: "NaN"})["cpu"])
    assert oversubscription({CPU: "+NaN"}) == {"cpu": 0.0}  # NaN takes no sign: a syntax error


def test_the_annotation_makes_the_pod_fit_and_changes_the_best_node() -> None:
    """A 5-cpu pod: ``small`` (4 cpu + 2000m, 8Gi + 1Gi) fits only with its annotations; binpack then gives
    (5000/6000 + 1Gi/9Gi) / 2 * 100 = 47.22..., above ``big``'s (5000/8000 + 1Gi/8Gi) / 2 * 100 = 37.5."""
    small = _node("small", "4", over_cpu="2000", over_memory=str(GI))
    big = _node("big", "8")
    doc = explain(VOLCANO, [small, big], [], _pod("5"))
    nodes = _nodes(doc)
    assert nodes["small"]["feasible"] and nodes["big"]["feasible"]
    assert nodes["small"]["score"] == (5000 / 6000 + GI / (9 * GI)) / 2 * 100
    assert nodes["big"]["score"] == 37.5
    assert [n["name"] for n in doc["nodes"]] == ["small", "big"]
    assert nodes["small"]["oversubscription"] == {"cpu": 2000.0, "memory": float(GI)}
    assert [r["allocatable"] for r in nodes["small"]["resources"]] == [6000.0, 9 * GI]
    plain = _nodes(explain(VOLCANO, [_node("small", "4"), big], [], _pod("5")))
    assert plain["small"]["reasons"] == ["Insufficient cpu"]


def test_the_annotation_lowers_the_score_of_a_node_that_fits_anyway() -> None:
    """Both nodes fit; ``a``'s 8000m more cpu makes its cpu term 5000/16000, so ``b`` (5000/8000) is the best."""
    doc = explain(VOLCANO, [_node("a", "8", over_cpu="8000"), _node("b", "8")], [], _pod("5"))
    nodes = _nodes(doc)
    assert nodes["a"]["score"] == (5000 / 16000 + 1 / 8) / 2 * 100
    assert nodes["b"]["score"] == 37.5
    assert doc["nodes"][0]["name"] == "b"


def test_bound_pods_count_against_the_raised_allocatable() -> None:
    """FutureIdle = allocatable + annotation - used: 4000 + 3000 - 3000 leaves the 4-cpu pod its 4000m."""
    nodes = [_node("n", "4", over_cpu="3000")]
    assert _nodes(explain(VOLCANO, nodes, [_pod("3", node="n", name="b")], _pod("4")))["n"]["feasible"]
    assert not _nodes(explain(VOLCANO, nodes, [_pod("3", node="n", name="b")], _pod("4.2")))["n"]["feasible"]


def test_the_label_changes_nothing() -> None:
    """``volcano.sh/oversubscription: "false"`` does not switch the annotations off: no scheduler code reads it."""
    labelled = _node("n", "4", labels={"volcano.sh/oversubscription": "false"}, over_cpu="2000")
    labelled["metadata"]["annotations"]["volcano.sh/offline-job-evicting"] = "true"
    assert _nodes(explain(VOLCANO, [labelled], [], _pod("5")))["n"]["feasible"]


def test_kube_scheduler_pods_ignore_the_annotations() -> None:
    doc = explain(default_kube_scheduler_model(), [_node("n", "4", over_cpu="2000")], [], _pod("5"))
    assert not doc["nodes"][0]["feasible"]


@pytest.mark.parametrize(("annotations", "pod_cpu", "reasons"), [
    ({"over_cpu": "NaN"}, "0", ["Insufficient cpu"]),  # 0 < NaN and |0 - NaN| < 0.1 are both false
    ({"over_memory": "NaN"}, "1", ["Insufficient memory"]),
    ({"over_cpu": "-Inf"}, "0", ["Insufficient cpu"]),
    ({"over_cpu": "-4000"}, "0", []),  # 0 idle: |0 - 0| < 0.1
    ({"over_cpu": "-4000"}, "100m", ["Insufficient cpu"]),
    ({"over_cpu": "-3900.05"}, "100m", []),  # 99.95m idle: within minResource (0.1m) of the 100m asked for
    ({"over_cpu": "-3900.2"}, "100m", ["Insufficient cpu"]),
    ({"over_cpu": "+Inf"}, "1000000", []),
    ({"over_cpu": "1e400"}, "1000000", []),  # out of range: +Inf
])
def test_corner_values_in_the_resource_check(annotations: dict[str, str], pod_cpu: str,
                                             reasons: list[str]) -> None:
    node = _nodes(explain(VOLCANO, [_node("n", "4", **annotations)], [], _pod(pod_cpu)))["n"]
    assert (node["feasible"], node["reasons"]) == (not reasons, reasons)


def test_an_infinite_allocatable_scores_a_zero_term() -> None:
    """(request + used) / +Inf is 0: only memory's term counts, 1Gi/8Gi over two weights."""
    node = _nodes(explain(VOLCANO, [_node("n", "4", over_cpu="+Inf")], [], _pod("3")))["n"]
    assert node["score"] == (0.0 + 1 / 8) / 2 * 100


# -------------------------------------------------------------- the webhook's cluster state

def _ranked(state: ClusterState, pod: dict[str, Any]) -> tuple[dict[str, float], dict[str, int]]:
    ranking = state.rank(pod, VOLCANO)
    return dict(ranking.scores), dict(ranking.reason_counts)


def test_a_node_event_that_changes_the_annotation_updates_the_state() -> None:
    state = ClusterState()
    state.apply_node(_node("small", "4"))
    state.apply_node(_node("big", "8"))
    state.apply_pod(_pod("100m", node="big", name="b"))
    incoming = _pod("5")
    big = (5100 / 8000 + 2 / 8) / 2 * 100
    assert _ranked(state, incoming) == ({"big": big}, {"Insufficient cpu": 1})
    state.apply_node(_node("small", "4", over_cpu="2000", over_memory=str(GI)))  # MODIFIED: annotations set
    assert _ranked(state, incoming) == ({"small": (5000 / 6000 + 1 / 9) / 2 * 100, "big": big}, {})
    assert state.rank(incoming, VOLCANO).best_node == "small"
    state.apply_node(_node("small", "4", over_cpu="NaN"))
    assert _ranked(state, incoming)[1] == {"Insufficient cpu": 1}
    state.apply_node(_node("small", "4"))  # removed: the session's NodeInfo is rebuilt from the Node object
    assert _ranked(state, incoming)[1] == {"Insufficient cpu": 1}
    fresh = ClusterState()
    for obj in (_node("small", "4"), _node("big", "8")):
        fresh.apply_node(obj)
    fresh.apply_pod(_pod("100m", node="big", name="b"))
    assert _ranked(fresh, incoming) == _ranked(state, incoming)


def test_kube_scheduler_ranking_ignores_the_annotations() -> None:
    state = ClusterState()
    state.apply_node(_node("n", "4", over_cpu="2000"))
    assert state.rank(_pod("5"), default_kube_scheduler_model()).feasible_nodes == 0


@pytest.mark.parametrize("value", ["2000", "NaN", "+Inf", "-Inf", "-4000", "1e400", "junk", "0x1p11", "-3900.05"])
def test_state_and_explain_agree(value: str) -> None:
    nodes = [_node("a", "4", over_cpu=value, over_memory=value), _node("b", "6"), _node("c", "4", over_cpu=value)]
    pods = [_pod("1", node="b", name="p1"), _pod("500m", "512Mi", node="a", name="p2")]
    state = ClusterState()
    for node in nodes:
        state.apply_node(node)
    for pod in pods:
        state.apply_pod(pod)
    for cpu in ("0", "100m", "3", "4500m"):
        incoming = _pod(cpu, "256Mi")
        doc = explain(VOLCANO, nodes, pods, incoming)
        ranking = state.rank(incoming, VOLCANO)
        assert dict(ranking.scores) == {n["name"]: n["score"] for n in doc["nodes"] if n["feasible"]}
        counts: dict[str, int] = {}
        for node in doc["nodes"]:
            for reason in node["reasons"]:
                counts[reason] = counts.get(reason, 0) + 1
        assert dict(ranking.reason_counts) == counts
