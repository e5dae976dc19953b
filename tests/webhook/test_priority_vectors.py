"""Every case of vectors/priority.json through the policy functions, with the exact code, reason and message.

Pods go through ``pods.decide`` (priority resolution + patch, applied with jsonpatch);
PriorityClasses through ``priorityclasses.decide`` plus the field-error list of the
create/update validators (``linter.formats.priorityclass.validate``, used by the webhook) on the decoded objects.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from webhook_helpers import VECTORS, InMemoryLeaseStore, apply_response_patch, request_of, review

from linter.formats.priorityclass import validate as priorityclass
from linter.formats.priorityclass.validate import PriorityClassInfo
from webhook.admission.decide import pods, priorityclasses
from webhook.admission.encode import encode
from webhook.admission.scheduler_models import SchedulerModels
from webhook.cluster.lease import LeaseDefaultClassClaim
from webhook.cluster.static import StaticClusterView
from webhook.settings import Settings

CASES: list[dict[str, Any]] = json.loads((VECTORS / "priority.json").read_text())["cases"]


def _view(case: dict[str, Any]) -> StaticClusterView:
    return StaticClusterView(priority_classes=case["existing"])


def _check_denial(response: dict[str, Any], expected: dict[str, Any]) -> None:
    assert response["allowed"] is False
    assert response["status"] == {
        "code": expected["code"],
        "message": expected["message"],
        "reason": expected["reason"],
    }
    assert "patch" not in response


def test_vectors_cover_every_operation() -> None:
    assert {c["op"] for c in CASES} == {"createPod", "createPriorityClass", "updatePriorityClass"}


@pytest.mark.parametrize("case", [c for c in CASES if c["op"] == "createPod"], ids=lambda c: c["id"])
def test_pod_vector(case: dict[str, Any]) -> None:
    document = review("Pod", "CREATE", case["object"])
    decision = pods.decide(request_of(document), _view(case), Settings(), SchedulerModels.static())
    response = encode(document["request"]["uid"], decision)["response"]
    expected = case["expected"]
    if not expected["allowed"]:
        _check_denial(response, expected)
        return
    assert response["allowed"] is True
    result = apply_response_patch(case["object"], response)
    assert result["spec"]["priority"] == expected["priority"]
    assert result["spec"]["preemptionPolicy"] == expected["preemptionPolicy"]
    assert result["spec"].get("priorityClassName", "") == expected["priorityClassName"]


@pytest.mark.parametrize("case", [c for c in CASES if c["op"] != "createPod"], ids=lambda c: c["id"])
def test_priority_class_vector(case: dict[str, Any]) -> None:
    operation = "CREATE" if case["op"] == "createPriorityClass" else "UPDATE"
    document = review("PriorityClass", operation, case["object"], case.get("old"))
    claim = LeaseDefaultClassClaim(InMemoryLeaseStore())
    decision = priorityclasses.decide(request_of(document), _view(case), claim)
    response = encode(document["request"]["uid"], decision)["response"]
    expected = case["expected"]
    new = priorityclasses.defaulted(case["object"])
    if operation == "CREATE":
        field_errors = [str(e) for e in priorityclass.validate_create(new)]
    else:
        old = priorityclasses.defaulted(case["old"])
        field_errors = [str(e) for e in priorityclass.validate_update(old, new)]
    assert field_errors == expected.get("fieldErrors", [])
    if not expected["allowed"]:
        _check_denial(response, expected)
        return
    assert response == {"uid": document["request"]["uid"], "allowed": True}
    info = PriorityClassInfo.from_object(case["object"])
    assert info.preemption_policy == expected["defaulted"]["preemptionPolicy"]
    assert info.global_default == expected["defaulted"]["globalDefault"]
