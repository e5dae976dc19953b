"""values.schema.json (and the chart's own checks) reject bad values at install time with a message naming the field."""

from __future__ import annotations

from typing import Any

import helm_python as helm
import pytest

NAMESPACE = "binpack-system"

BAD_VALUES: list[tuple[dict[str, Any], str]] = [
    ({"replicaCount": 0}, "/replicaCount"),
    ({"replicaCount": "two"}, "/replicaCount"),
    ({"webhooks": {"pods": {"failurePolicy": "Sometimes"}}}, "/webhooks/pods/failurePolicy"),
    ({"webhooks": {"pods": {"timeoutSeconds": 31}}}, "/webhooks/pods/timeoutSeconds"),
    ({"webhooks": {"pods": {"reinvocationPolicy": "Always"}}}, "/webhooks/pods/reinvocationPolicy"),
    ({"webhooks": {"configMaps": {"timeoutSeconds": 0}}}, "/webhooks/configMaps/timeoutSeconds"),
    ({"webhooks": {"namespaceExemptions": ["Not_A_Namespace"]}}, "/webhooks/namespaceExemptions/0"),
    ({"servr": {"port": 8443}}, "servr"),
    ({"server": {"port": 443}}, "/server/port"),
    ({"server": {"logLevel": "LOUD"}}, "/server/logLevel"),
    ({"securityContext": {"readOnlyRootFilesystem": False}}, "/securityContext/readOnlyRootFilesystem"),
    ({"securityContext": {"allowPrivilegeEscalation": True}}, "/securityContext/allowPrivilegeEscalation"),
    ({"podSecurityContext": {"runAsNonRoot": False}}, "/podSecurityContext/runAsNonRoot"),
    ({"resources": {"limits": {"memory": "lots"}}}, "/resources/limits/memory"),
    ({"certs": {"servingValidityDays": 0}}, "/certs/servingValidityDays"),
    ({"certManager": {"renewBefore": "30 days"}}, "/certManager/renewBefore"),
    ({"topologySpread": {"whenUnsatisfiable": "Never"}}, "/topologySpread/whenUnsatisfiable"),
    ({"image": {"pullPolicy": "Sometimes"}}, "/image/pullPolicy"),
    ({"scoring": {"volcano": {"existingConfigMap": {"name": "Bad Name"}}}}, "/scoring/volcano/existingConfigMap/name"),
    ({"scoring": {"kubeScheduler": {"build": "volcano"}}}, "/scoring/kubeScheduler/build"),
    ({"metrics": {"port": 70000}}, "/metrics/port"),
    ({"metrics": {"serviceMonitor": {"interval": "30 seconds"}}}, "/metrics/serviceMonitor/interval"),
]

# Rules a JSON schema cannot say clearly; the templates fail with their own message.
BAD_COMBINATIONS: list[tuple[dict[str, Any], str]] = [
    (
        {
            "scoring": {
                "kubeScheduler": {"inline": "kind: KubeSchedulerConfiguration", "existingConfigMap": {"name": "x"}}
            }
        },
        "scoring.kubeScheduler: set either inline or existingConfigMap.name, not both",
    ),
    (
        {"certs": {"servingValidityDays": 365, "caValidityDays": 300}},
        "certs.servingValidityDays must be shorter than certs.caValidityDays",
    ),
    (
        {"metrics": {"port": 0, "serviceMonitor": {"enabled": True}}},
        "metrics.serviceMonitor.enabled needs metrics.port",
    ),
]


@pytest.mark.parametrize(("values", "path"), BAD_VALUES, ids=[p for _, p in BAD_VALUES])
def test_schema_rejects_bad_values_naming_the_field(render: Any, lint: Any, values: dict[str, Any], path: str) -> None:
    with pytest.raises(helm.HelmValuesError) as caught:
        render(values, "bg", NAMESPACE)
    assert path in str(caught.value)
    report = lint(values, NAMESPACE)
    assert any(path in error for error in report["errors"]), report


@pytest.mark.parametrize(("values", "message"), BAD_COMBINATIONS,
                         ids=["inline-and-existing", "serving-outlives-ca", "monitor-without-port"])
def test_templates_reject_contradictory_values(render: Any, values: dict[str, Any], message: str) -> None:
    with pytest.raises(helm.HelmRenderError) as caught:
        render(values, "bg", NAMESPACE)
    assert message in str(caught.value)


@pytest.mark.parametrize(("values", "release", "name"), [
    ({}, "1bg", "1bg-binpack-guard"),
    ({}, "bg.prod", "bg.prod-binpack-guard"),
    ({"fullnameOverride": "Guard"}, "bg", "Guard"),
])
def test_a_name_the_apiserver_refuses_for_the_service_fails_the_render(
        render: Any, values: dict[str, Any], release: str, name: str) -> None:
    with pytest.raises(helm.HelmRenderError) as caught:
        render(values, release, NAMESPACE)
    assert f'the objects would be named "{name}", which is not a valid Service name' in str(caught.value)


def test_the_shipped_values_pass_the_schema(chart: Any) -> None:
    chart.validate_schema({})
    chart.validate_schema(chart.values)
