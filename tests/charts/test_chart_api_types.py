"""Every rendered built-in object survives a round trip through the ``kubernetes`` client's API models.

The models know every field of the Kubernetes API and its type; a field they do not know is dropped and a value
of the wrong type is refused, so a misspelt or misplaced field in a template shows up here as a difference.
"""

from __future__ import annotations

from typing import Any

import pytest
from kubernetes import client

MODELS: dict[tuple[str, str], Any] = {
    ("apps/v1", "Deployment"): client.V1Deployment,
    ("v1", "Service"): client.V1Service,
    ("v1", "ServiceAccount"): client.V1ServiceAccount,
    ("v1", "ConfigMap"): client.V1ConfigMap,
    ("policy/v1", "PodDisruptionBudget"): client.V1PodDisruptionBudget,
    ("networking.k8s.io/v1", "NetworkPolicy"): client.V1NetworkPolicy,
    ("rbac.authorization.k8s.io/v1", "ClusterRole"): client.V1ClusterRole,
    ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding"): client.V1ClusterRoleBinding,
    ("rbac.authorization.k8s.io/v1", "Role"): client.V1Role,
    ("rbac.authorization.k8s.io/v1", "RoleBinding"): client.V1RoleBinding,
    ("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration"): client.V1MutatingWebhookConfiguration,
    ("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration"): client.V1ValidatingWebhookConfiguration,
    ("batch/v1", "Job"): client.V1Job,
    ("batch/v1", "CronJob"): client.V1CronJob,
}
CERT_MANAGER_KINDS = {("cert-manager.io/v1", "Issuer"), ("cert-manager.io/v1", "Certificate")}
CRD_KINDS = CERT_MANAGER_KINDS | {("monitoring.coreos.com/v1", "ServiceMonitor")}  # no client model


def differences(rendered: Any, round_tripped: Any, path: str = "") -> list[str]:
    if isinstance(rendered, dict) and isinstance(round_tripped, dict):
        found = [f"{path}/{k}: not an API field" for k in rendered.keys() - round_tripped.keys()]
        for key in rendered.keys() & round_tripped.keys():
            found += differences(rendered[key], round_tripped[key], f"{path}/{key}")
        return found
    if isinstance(rendered, list) and isinstance(round_tripped, list) and len(rendered) == len(round_tripped):
        return [
            d
            for i, pair in enumerate(zip(rendered, round_tripped, strict=True))
            for d in differences(*pair, f"{path}/{i}")
        ]
    return [] if rendered == round_tripped else [f"{path}: {rendered!r} became {round_tripped!r}"]


def test_rendered_objects_are_valid_api_objects(
    render: Any, scenarios: dict[str, dict[str, Any]], scenario_name: str
) -> None:
    api = client.ApiClient()
    manifests = render(scenarios[scenario_name], "bg", "binpack-system")
    for obj in manifests.objects:
        key = (obj["apiVersion"], obj["kind"])
        if key in CRD_KINDS:
            continue
        assert key in MODELS, f"unexpected kind {key}"
        round_tripped = api.sanitize_for_serialization(MODELS[key].from_dict(obj))  # type: ignore[no-untyped-call]
        assert differences(obj, round_tripped) == [], f"{obj['kind']}/{obj['metadata']['name']}"


def test_the_check_notices_a_misspelt_field() -> None:
    api = client.ApiClient()
    bad = {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": "x"},
        "spec": {"maxUnavailable": 1, "unhealthyPodEvictonPolicy": "AlwaysAllow"},
    }
    round_tripped = api.sanitize_for_serialization(client.V1PodDisruptionBudget.from_dict(bad))  # type: ignore[no-untyped-call]
    assert differences(bad, round_tripped) == ["/spec/unhealthyPodEvictonPolicy: not an API field"]


# Name limits kube-apiserver 1.36 enforces on what the chart renders. CronJob: ValidateCronJobCreate refuses
# more than 52 characters (its Jobs add "-<minutes>" and a Job name must fit 63). Job: its name becomes the
# value of the job-name label of its pods, and a label value has at most 63 characters. Service: a DNS-1035
# label (63).
NAME_LIMITS = {"CronJob": 52, "Job": 63, "Service": 63}
LONGEST_RELEASE = "r" * 53  # Helm refuses longer release names
LONG_NAMES: dict[str, tuple[dict[str, Any], str]] = {
    "longest-release": ({}, LONGEST_RELEASE),
    "longest-fullnameOverride": ({"fullnameOverride": "f" * 50}, "bg"),
    "longest-nameOverride": ({"nameOverride": "n" * 50}, LONGEST_RELEASE),
}


def label_values(node: Any) -> list[tuple[str, str]]:
    """Every (key, value) of every labels or matchLabels map in an object."""
    found: list[tuple[str, str]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("labels", "matchLabels") and isinstance(value, dict):
                found += [(str(k), str(v)) for k, v in value.items()]
            found += label_values(value)
    elif isinstance(node, list):
        for item in node:
            found += label_values(item)
    return found


@pytest.mark.parametrize("case", sorted(LONG_NAMES))
def test_long_release_names_stay_within_the_apiserver_name_limits(render: Any, case: str) -> None:
    values, release = LONG_NAMES[case]
    manifests = render(values, release, "binpack-system")
    for obj in manifests.objects:
        name = obj["metadata"]["name"]
        assert len(name) <= NAME_LIMITS.get(obj["kind"], 253), f"{obj['kind']}/{name}: {len(name)} characters"
        for key, value in label_values(obj):
            assert len(value) <= 63, f"{obj['kind']}/{name}: label {key}={value}"


def test_cronjob_names_of_two_long_releases_differ(render: Any) -> None:
    """Two releases whose fullnames (50 characters) differ only after the 46th still get two CronJobs."""
    names = {render({}, "r" * 45 + last, "binpack-system").one("CronJob")["metadata"]["name"] for last in "xy"}
    assert len(names) == 2 and all(len(n) <= 52 for n in names), names
