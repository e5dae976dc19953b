"""The prediction's ``bestNode`` under the default profile counts ImageLocality (weight 1).

big (8 cpu, 16Gi) beats small (2 cpu, 4Gi) for a 1 cpu / 1Gi pod: Fit + BalancedAllocation 90 + 73 against
62 + 68 (TaintToleration gives both 300). A 900 MiB image on small alone, of 2 nodes, scales to
int(943718400 * 1/2) = 471859200 bytes: floor(100 * (471859200 - 23 MiB) / (1000 MiB - 23 MiB)) = 43, so
small wins 473 to 463 for a pod running that image; a pod with another image still goes to big.
"""

from __future__ import annotations

import json
from typing import Any

from webhook_helpers import apply_response_patch, builtin_priority_classes, node, pod, request_of, review

from webhook.admission.decide import pods
from webhook.admission.decide.pods import PREDICTION_ANNOTATION
from webhook.admission.encode import encode
from webhook.admission.scheduler_models import SchedulerModels
from webhook.cluster.static import StaticClusterView
from webhook.settings import Settings

IMAGE = "registry.example.com/ml/trainer:2.1"


def _view() -> StaticClusterView:
    small = node("small", "2", "4Gi")
    small["status"]["images"] = [{"names": [IMAGE, "registry.example.com/ml/trainer@sha256:00"],
                                  "sizeBytes": 900 * 1024 * 1024}]
    return StaticClusterView(nodes=[node("big", "8", "16Gi"), small], priority_classes=builtin_priority_classes())


def _best(obj: dict[str, Any]) -> str:
    document = review("Pod", "CREATE", obj)
    decision = pods.decide(request_of(document), _view(), Settings(), SchedulerModels.static())
    response = encode(document["request"]["uid"], decision)["response"]
    annotations = apply_response_patch(obj, response)["metadata"]["annotations"]
    return str(json.loads(annotations[PREDICTION_ANNOTATION])["bestNode"])


def _pod(image: str) -> dict[str, Any]:
    return pod(containers=[{"name": "app", "image": image, "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}])


def test_an_image_present_on_one_node_flips_the_best_node() -> None:
    assert _best(_pod(IMAGE)) == "small"
    assert _best(_pod("registry.example.com/other:1")) == "big"
