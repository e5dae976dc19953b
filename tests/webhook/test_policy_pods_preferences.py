"""The prediction's ``bestNode`` under the default profile counts TaintToleration and NodeAffinity.

big (8 cpu, 16Gi) beats small (2 cpu, 4Gi, label pool=spot) on NodeResourcesFit + BalancedAllocation for a
1 cpu / 1Gi pod: 90 + 73 against 62 + 68. A preferred term pool=spot (any weight) gives small NodeAffinity's
100 x weight 2 and big 0, so small wins 330 to 163. A PreferNoSchedule taint on small that the pod does not
tolerate takes TaintToleration's 300 from it again (big keeps 300): big wins 463 to 330.
"""

from __future__ import annotations

import json
from typing import Any

from webhook_helpers import apply_response_patch, builtin_priority_classes, node, pod, request_of, review

from webhook.admission.decide import pods
from webhook.admission.decide.pods import PREDICTION_ANNOTATION, SCORES_ANNOTATION
from webhook.admission.encode import encode
from webhook.admission.scheduler_models import SchedulerModels
from webhook.cluster.static import StaticClusterView
from webhook.settings import Settings

PREFERS_SPOT = {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
    {"weight": 1, "preference": {"matchExpressions": [{"key": "pool", "operator": "In", "values": ["spot"]}]}}]}}


def _view(*, tainted: bool = False) -> StaticClusterView:
    small = node("small", "2", "4Gi")
    small["metadata"]["labels"]["pool"] = "spot"
    if tainted:
        small["spec"] = {"taints": [{"key": "spot", "effect": "PreferNoSchedule"}]}
    return StaticClusterView(nodes=[node("big", "8", "16Gi"), small], priority_classes=builtin_priority_classes())


def _prediction(obj: dict[str, Any], view: StaticClusterView) -> tuple[dict[str, Any], dict[str, Any]]:
    document = review("Pod", "CREATE", obj)
    decision = pods.decide(request_of(document), view, Settings(), SchedulerModels.static())
    response = encode(document["request"]["uid"], decision)["response"]
    annotations = apply_response_patch(obj, response)["metadata"]["annotations"]
    return json.loads(annotations[SCORES_ANNOTATION]), json.loads(annotations[PREDICTION_ANNOTATION])


def test_preferred_affinity_flips_the_best_node() -> None:
    requests = {"cpu": "1", "memory": "1Gi"}
    scores, prediction = _prediction(pod(requests=requests), _view())
    assert prediction["bestNode"] == "big" and scores == {"big": 90, "small": 62}
    scores, prediction = _prediction(pod(requests=requests, affinity=PREFERS_SPOT), _view())
    assert prediction["bestNode"] == "small"
    assert list(scores) == ["small", "big"] and scores == {"big": 90, "small": 62}  # Fit's own scores


def test_an_untolerated_prefer_no_schedule_taint_flips_it_back() -> None:
    requests = {"cpu": "1", "memory": "1Gi"}
    _, prediction = _prediction(pod(requests=requests, affinity=PREFERS_SPOT), _view(tainted=True))
    assert prediction["bestNode"] == "big"
    tolerating = pod(requests=requests, affinity=PREFERS_SPOT,
                     tolerations=[{"key": "spot", "operator": "Exists", "effect": "PreferNoSchedule"}])
    _, prediction = _prediction(tolerating, _view(tainted=True))
    assert prediction["bestNode"] == "small"
