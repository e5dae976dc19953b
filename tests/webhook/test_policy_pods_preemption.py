"""Pod CREATE for a pod that fits nowhere: the prediction annotation carries the predicted preemption.

Every oracle-preemption.json case is admitted as the user sent it (the webhook resolves its priority from
the classes), against a view holding the case's nodes, pods and PDBs; the annotation must name the node
and victims a real kube-scheduler 1.36.2 chose, and the event text it wrote.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from scoring.preemption.build import node, pod
from scoring.preemption.oracle import ORACLE, cluster, priority_class_object
from webhook_helpers import apply_response_patch, builtin_priority_classes, request_of, review

from linter.model import KubeSchedulerModel, Profile
from webhook.admission.decide import pods
from webhook.admission.decide.pods import PREDICTION_ANNOTATION, PREEMPTION_NAMES_SHOWN
from webhook.admission.encode import encode
from webhook.admission.scheduler_models import SchedulerModels
from webhook.cluster.static import StaticClusterView
from webhook.settings import Settings


def prediction_for(obj: dict[str, Any], view: StaticClusterView, models: SchedulerModels | None = None,
                   ) -> dict[str, Any]:
    document = review("Pod", "CREATE", obj, None)
    decision = pods.decide(request_of(document), view, Settings(), models or SchedulerModels.static())
    response = encode(document["request"]["uid"], decision)["response"]
    assert response["allowed"], response
    annotations = apply_response_patch(obj, response)["metadata"]["annotations"]
    result: dict[str, Any] = json.loads(annotations[PREDICTION_ANNOTATION])
    return result


@pytest.mark.parametrize("case", ORACLE, ids=[c["id"] for c in ORACLE])
def test_oracle_case_in_the_prediction(case: dict[str, Any]) -> None:
    nodes, bound, pdbs, pending = cluster(case)
    classes = [*builtin_priority_classes(), *(priority_class_object(c) for c in case["priorityClasses"])]
    view = StaticClusterView(nodes=nodes, pods=bound, priority_classes=classes, pdbs=pdbs)
    sent = {k: v for k, v in case["pendingPod"]["sent"].items() if k != "schedulingGates"}
    obj = {"apiVersion": "v1", "kind": "Pod", "status": pending["status"],
           "metadata": {"name": pending["metadata"]["name"], "namespace": "default"}, "spec": sent}
    prediction = prediction_for(obj, view)
    want = case["outcome"]
    if not want["preemptionNeeded"]:
        assert "preemption" not in prediction
        return
    got = prediction["preemption"]
    assert got["eligible"] == want["eligible"]
    assert got["nominatedNode"] == want["nominatedNode"]
    assert sorted(got["victims"]) == want["victims"] and got["victimCount"] == len(want["victims"])
    failed = [e for e in want.get("events") or [] if e.get("reason") == "FailedScheduling"]
    assert got["message"] == (failed[0]["message"] if failed else want["message"])


def test_many_victims_are_counted_and_the_first_few_named() -> None:
    nodes = [node("n1", cpu="64", pods="200")]
    bound = [pod(f"v{i:02}", "n1", 0, "1", start=f"2026-01-01T00:{i:02}:00Z") for i in range(40)]
    view = StaticClusterView(nodes=nodes, pods=bound, priority_classes=builtin_priority_classes())
    pending = pod("big", None, None, "40")
    pending["spec"]["priorityClassName"] = "system-cluster-critical"
    got = prediction_for(pending, view)["preemption"]
    assert got["nominatedNode"] == "n1" and got["victimCount"] == 16
    # the newest pods go first: v39 .. v24, most important (oldest) first
    assert got["victims"] == [f"default/v{i:02}" for i in range(24, 24 + PREEMPTION_NAMES_SHOWN)]


PRIO_1000 = priority_class_object({"name": "prio-1000", "value": 1000})


def _incoming(cpu: str, nominated: str | None = None) -> dict[str, Any]:
    """The pod being admitted: class prio-1000, priority 1000 (as the Priority plugin already set it)."""
    sent = pod("pre", None, 1000, cpu, nominated=nominated)
    sent["spec"]["priorityClassName"] = "prio-1000"
    return sent


def _nominated_cluster(cpu: str = "4", pods_allowed: str = "110", nominee_priority: int = 2000,
                       nominee_cpu: str = "2", a_cpu: str = "1", scheduler: str | None = None) -> StaticClusterView:
    """n1 holds a (priority 1, 1 cpu); nomhi, pending, is nominated to n1 (``spec.schedulerName``: ``scheduler``)."""
    bound = [pod("a", "n1", 1, a_cpu),
             pod("nomhi", None, nominee_priority, nominee_cpu, nominated="n1", scheduler=scheduler)]
    return StaticClusterView(nodes=[node("n1", cpu=cpu, pods=pods_allowed)], pods=bound,
                             priority_classes=[*builtin_priority_classes(), PRIO_1000])


def test_a_higher_priority_nomination_taking_the_cpu_means_preemption() -> None:
    # 1 + 2 (nomhi, priority 2000) + 2 > 4: kube-scheduler's filters fail n1, so it preempts a
    prediction = prediction_for(_incoming("2"), _nominated_cluster())
    assert prediction["feasibleNodes"] == 0 and prediction["unschedulableReasons"] == {"Insufficient cpu": 1}
    got = prediction["preemption"]
    assert (got["nominatedNode"], got["victims"]) == ("n1", ["default/a"])
    assert got["message"] == "0/1 nodes are available: 1 Insufficient cpu."


def test_a_higher_priority_nomination_taking_the_last_pod_slot_means_preemption() -> None:
    view = _nominated_cluster(cpu="8", pods_allowed="2", nominee_cpu="1")
    got = prediction_for(_incoming("1"), view)["preemption"]
    assert (got["nominatedNode"], got["victims"]) == ("n1", ["default/a"])
    assert got["message"] == "0/1 nodes are available: 1 Too many pods."


def test_a_lower_priority_nomination_leaves_the_node_feasible() -> None:
    prediction = prediction_for(_incoming("2"), _nominated_cluster(nominee_priority=999))
    assert prediction["feasibleNodes"] == 1 and "preemption" not in prediction


def test_the_priority_compared_is_the_one_admission_resolves() -> None:
    # the pod carries no spec.priority; its class gives 2000000000, above the nominated pod's 2000
    sent = pod("pre", None, None, "2")
    sent["spec"]["priorityClassName"] = "system-cluster-critical"
    prediction = prediction_for(sent, _nominated_cluster())
    assert prediction["feasibleNodes"] == 1 and "preemption" not in prediction
    # without a class (and no default class) it gets 0, below 2000: the nomination counts
    assert prediction_for(pod("pre", None, None, "2"), _nominated_cluster())["feasibleNodes"] == 0


def test_the_pods_own_nomination_does_not_count() -> None:
    bound = [pod("a", "n1", 1, "1"), pod("pre", None, 1000, "2", nominated="n1")]
    view = StaticClusterView(nodes=[node("n1")], pods=bound, priority_classes=[*builtin_priority_classes(), PRIO_1000])
    prediction = prediction_for(_incoming("2", nominated="n1"), view)
    assert prediction["feasibleNodes"] == 1 and "preemption" not in prediction


def test_a_pod_rejected_at_prefilter_carries_the_scheduler_text() -> None:
    # NodeAffinity's PreFilter rejects the pod outright: its message once, then DynamicResources'
    # PostFilter Error ("not found", its PreFilter never ran); DefaultPreemption does nothing
    view = StaticClusterView(nodes=[node("n1", cpu="1"), node("n2", cpu="1")], pods=[pod("a", "n1", 1, "1")],
                             priority_classes=[*builtin_priority_classes(), PRIO_1000])
    sent = _incoming("1")
    sent["spec"]["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": [name]}
                                               for name in ("n1", "n2")]}]}}}
    got = prediction_for(sent, view)["preemption"]
    assert got["message"] == "0/2 nodes are available: pod affinity terms conflict. not found"
    assert (got["eligible"], got["nominatedNode"], got["victims"]) == (False, None, [])


TWO_PROFILES = SchedulerModels.static(KubeSchedulerModel(profiles=(Profile("default-scheduler"), Profile("binpack"))))


def test_another_schedulers_nomination_does_not_count() -> None:
    # kube-scheduler's nominator holds only pods of its profiles (responsibleForPod): volcano's does not
    for models in (None, TWO_PROFILES):
        prediction = prediction_for(_incoming("2"), _nominated_cluster(scheduler="volcano"), models)
        assert prediction["feasibleNodes"] == 1 and "preemption" not in prediction


def test_a_nomination_of_a_second_profile_counts_in_the_filters_and_the_dry_run() -> None:
    # binpack is a profile of the config: its pod's nomination takes n1's room, as default-scheduler's would
    prediction = prediction_for(_incoming("2"), _nominated_cluster(scheduler="binpack"), TWO_PROFILES)
    assert prediction["feasibleNodes"] == 0 and prediction["preemption"]["victims"] == ["default/a"]
    # a (4 cpu) fills n1; evicting it leaves 4 - 1 (nomhi) < 4: no candidate, unless nomhi is not held
    view = _nominated_cluster(a_cpu="4", nominee_cpu="1", scheduler="binpack")
    got = prediction_for(_incoming("4"), view, TWO_PROFILES)["preemption"]
    assert (got["nominatedNode"], got["victims"]) == (None, [])
    assert got["message"] == ("0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, "
                              "preemption: 0/1 nodes are available: 1 Insufficient cpu.")
    got = prediction_for(_incoming("4"), view)["preemption"]  # the default profile alone
    assert (got["nominatedNode"], got["victims"]) == ("n1", ["default/a"])


def test_an_empty_cluster_predicts_the_schedulers_no_nodes_text() -> None:
    """No node at all: the FailedScheduling text is ErrNoNodesAvailable's and nothing is preempted."""
    view = StaticClusterView(nodes=[], pods=[], priority_classes=builtin_priority_classes())
    obj = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
           "spec": {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "1"}}}]}}
    prediction = prediction_for(obj, view)
    assert prediction["feasibleNodes"] == prediction["totalNodes"] == 0
    assert prediction["unschedulableReasons"] == {}
    preemption = prediction["preemption"]
    assert preemption["message"] == "no nodes available to schedule pods"
    assert preemption["eligible"] is False and preemption["nominatedNode"] is None
    assert preemption["victims"] == [] and "no nodes" in preemption["notEligibleReason"]


def test_a_host_port_conflict_is_reported_and_preempts_its_holder() -> None:
    holder, other = pod("holder", "n1", 1, "0"), pod("other", "n1", 1, "0")
    holder["spec"]["containers"][0]["ports"] = [{"containerPort": 8080, "hostPort": 80}]
    view = StaticClusterView(nodes=[node("n1")], pods=[holder, other],
                             priority_classes=[*builtin_priority_classes(), PRIO_1000])
    incoming = _incoming("1")
    incoming["spec"]["containers"][0]["ports"] = [{"containerPort": 80, "hostPort": 80, "hostIP": "10.0.0.1"}]
    prediction = prediction_for(incoming, view)
    text = "node(s) didn't have free ports for the requested pod ports"
    assert prediction["feasibleNodes"] == 0 and prediction["unschedulableReasons"] == {text: 1}
    got = prediction["preemption"]
    assert (got["nominatedNode"], got["victims"]) == ("n1", ["default/holder"])
    assert got["message"] == f"0/1 nodes are available: 1 {text}."
