"""The prediction's ``notModelledForPod``: present only when an in-tree plugin the model leaves out acts on
the pod, from the pod's own spec or from the bound pods' required anti-affinity the cache counts."""

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

ANTI = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
    {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}]}}


def _prediction(obj: dict[str, Any], *bound: dict[str, Any]) -> dict[str, Any]:
    view = StaticClusterView(nodes=[node("a", "8", "16Gi"), node("b", "4", "8Gi")], pods=bound,
                             priority_classes=builtin_priority_classes())
    document = review("Pod", "CREATE", obj)
    decision = pods.decide(request_of(document), view, Settings(), SchedulerModels.static())
    response = encode(document["request"]["uid"], decision)["response"]
    result: dict[str, Any] = json.loads(apply_response_patch(obj, response)["metadata"]["annotations"][
        PREDICTION_ANNOTATION])
    return result


def test_a_plain_pod_in_a_plain_cluster_has_no_note() -> None:
    assert "notModelledForPod" not in _prediction(pod(requests={"cpu": "1"}))


def test_the_pods_own_anti_affinity_and_volumes_are_named() -> None:
    volumes = [{"name": "data", "persistentVolumeClaim": {"claimName": "data"}}]
    prediction = _prediction(pod(requests={"cpu": "1"}, affinity=ANTI, volumes=volumes))
    assert set(prediction["notModelledForPod"]["filters"]) == {
        "InterPodAffinity", "VolumeBinding", "VolumeZone", "NodeVolumeLimits", "VolumeRestrictions"}
    assert "scores" not in prediction["notModelledForPod"]


def test_a_bound_pod_with_required_anti_affinity_concerns_every_pod() -> None:
    bound = pod("old", requests={"cpu": "1"}, affinity=ANTI, nodeName="a")
    bound["status"] = {"phase": "Running"}
    prediction = _prediction(pod(requests={"cpu": "1"}), bound)
    assert list(prediction["notModelledForPod"]["filters"]) == ["InterPodAffinity"]
    assert prediction["notModelledForPod"]["filters"]["InterPodAffinity"].startswith("1 bound pod(s)")


def test_spreading_by_default_scores_only_with_two_feasible_nodes() -> None:
    owned = pod(requests={"cpu": "1"})
    owned["metadata"]["ownerReferences"] = [
        {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-1", "uid": "u", "controller": True}]
    assert list(_prediction(owned)["notModelledForPod"]["scores"]) == ["PodTopologySpread"]
    owned["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "6"  # fits on a only: nothing is scored
    prediction = _prediction(owned)
    assert prediction["feasibleNodes"] == 1 and "notModelledForPod" not in prediction
