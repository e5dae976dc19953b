"""A profile that disables every Filter plugin runs none: kube-scheduler then finds every node feasible
(``findNodesThatPassFilters`` with no filter plugins). The model used to read an empty filter list as
"the default set", so such a profile was filtered as if nothing were disabled."""

from __future__ import annotations

from linter.engine import load_scheduler_model
from linter.explain import explain
from linter.model import KubeSchedulerModel, default_kube_scheduler_model

from .preemption.build import node, pod
from .test_cluster_nominated import state_of

NO_FILTERS = ("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
              "- schedulerName: default-scheduler\n  plugins:\n    filter:\n      disabled:\n      - name: '*'\n")


def _no_filters() -> KubeSchedulerModel:
    model, findings = load_scheduler_model(NO_FILTERS, "c.yaml")
    assert isinstance(model, KubeSchedulerModel), findings
    assert model.profiles[0].filter_plugins == ()
    return model


# cordoned, and too small for the pod's 2 cpus
NODES = [node("small", cpu="1", unschedulable=True)]


def test_explain_finds_every_node_feasible_when_no_filter_runs() -> None:
    pending = pod("p", None, 0, cpu="2")
    assert [n["feasible"] for n in explain(_no_filters(), NODES, [], pending)["nodes"]] == [True]
    assert [n["feasible"] for n in explain(default_kube_scheduler_model(), NODES, [], pending)["nodes"]] == [False]


def test_the_webhook_ranking_finds_every_node_feasible_when_no_filter_runs() -> None:
    state = state_of(*NODES)
    pending = pod("p", None, 0, cpu="2")
    assert state.rank(pending, _no_filters(), top=0).feasible_nodes == 1
    assert state.rank(pending, default_kube_scheduler_model(), top=0).feasible_nodes == 0


def _pinned(*names: str) -> dict[str, object]:
    """A pod pinned to ``names`` the way the DaemonSet controller pins its pods (``matchFields``)."""
    pending = pod("p", None, 0, cpu="2")
    term = {"matchFields": [{"key": "metadata.name", "operator": "In", "values": list(names)}]}
    pending["spec"]["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [term]}}}
    return pending


def test_node_affinity_prefilter_runs_from_the_prefilter_plugins_without_any_filter() -> None:
    # kube-scheduler runs a profile's PreFilter plugins whatever its Filter plugins are: NodeAffinity's
    # PreFilter still narrows a pinned pod to its nodes, or rejects every node when the names conflict
    nodes = [node("a", cpu="1", unschedulable=True), node("b", cpu="1")]
    pinned = explain(_no_filters(), nodes, [], _pinned("a"))["nodes"]
    assert {n["name"]: (n["feasible"], n["reasons"]) for n in pinned} == {
        "a": (True, []), "b": (False, ["node(s) didn't satisfy plugin(s) [NodeAffinity]"])}
    state = state_of(*nodes)
    assert state.rank(_pinned("a"), _no_filters(), top=0).feasible_nodes == 1
    conflict = _pinned("a")
    conflict["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][
        "nodeSelectorTerms"][0]["matchFields"].append({"key": "metadata.name", "operator": "In", "values": ["b"]})
    assert all(n["reasons"] == ["pod affinity terms conflict"]
               for n in explain(_no_filters(), nodes, [], conflict)["nodes"])
    assert state.rank(conflict, _no_filters(), top=0).feasible_nodes == 0


def test_without_node_affinity_at_prefilter_a_pinned_pod_is_not_narrowed() -> None:
    text = NO_FILTERS + "    preFilter:\n      disabled:\n      - name: NodeAffinity\n"
    model, findings = load_scheduler_model(text, "c.yaml")
    assert isinstance(model, KubeSchedulerModel), findings
    assert "NodeAffinity" not in (model.profiles[0].pre_filter_plugins or ())
    nodes = [node("a", cpu="1"), node("b", cpu="1")]
    assert [n["feasible"] for n in explain(model, nodes, [], _pinned("a"))["nodes"]] == [True, True]
