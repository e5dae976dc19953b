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
