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

from webhook.admission.decide import pods
from webhook.admission.decide.pods import PREDICTION_ANNOTATION, PREEMPTION_NAMES_SHOWN
from webhook.admission.encode import encode
from webhook.admission.scheduler_models import SchedulerModels
from webhook.cluster.static import StaticClusterView
from webhook.settings import Settings


def prediction_for(obj: dict[str, Any], view: StaticClusterView) -> dict[str, Any]:
    document = review("Pod", "CREATE", obj, None)
    decision = pods.decide(request_of(document), view, Settings(), SchedulerModels.static())
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
