"""The chart lints and renders under the main value sets, and the rendered objects hold the promised properties."""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from paths import SHARED

from linter.model import KubeSchedulerModel
from webhook.admission.decide import priority
from webhook.admission.scheduler_models import ModelLoadError, load_model
from webhook.certs import cli as certs
from webhook.settings import Settings, env_name

RELEASE = "bg"
NAMESPACE = "binpack-system"
FULLNAME = f"{RELEASE}-binpack-guard"

Manifests = Any  # tests/charts/conftest.Manifests


@pytest.fixture
def scenario(scenario_name: str, scenarios: dict[str, dict[str, Any]], render: Any) -> tuple[str, Manifests]:
    return scenario_name, render(scenarios[scenario_name], RELEASE, NAMESPACE)


def test_helm_lint_strict_is_clean(scenario_name: str, scenarios: dict[str, dict[str, Any]], lint: Any) -> None:
    report = lint(scenarios[scenario_name], NAMESPACE)
    problems = [m for m in report["messages"] if m["severity"] >= 2]
    assert report["errors"] == [] and problems == [], report


def pod_specs(m: Manifests) -> list[tuple[str, dict[str, Any]]]:
    """Every pod template in the render, named."""
    specs = [(f"Deployment/{d['metadata']['name']}", d["spec"]["template"]["spec"]) for d in m.all("Deployment")]
    specs += [(f"Job/{j['metadata']['name']}", j["spec"]["template"]["spec"]) for j in m.all("Job")]
    specs += [
        (f"CronJob/{c['metadata']['name']}", c["spec"]["jobTemplate"]["spec"]["template"]["spec"])
        for c in m.all("CronJob")
    ]
    return specs


def test_every_pod_is_locked_down(scenario: tuple[str, Manifests]) -> None:
    _, m = scenario
    specs = pod_specs(m)
    assert specs
    for where, spec in specs:
        assert spec["securityContext"]["runAsNonRoot"] is True, where
        assert spec["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}, where
        assert spec["automountServiceAccountToken"] is True, where  # all of them call the API; see comments
        for container in spec["containers"]:
            sc = container["securityContext"]
            assert sc["allowPrivilegeEscalation"] is False, where
            assert sc["readOnlyRootFilesystem"] is True, where
            assert sc["capabilities"] == {"drop": ["ALL"]}, where
            assert "privileged" not in sc or sc["privileged"] is False, where
            assert container["resources"]["requests"] and container["resources"]["limits"], where
    for account in m.all("ServiceAccount"):
        assert account["automountServiceAccountToken"] is False, account["metadata"]["name"]


def test_deployment_serves_https_with_probes_and_spread(scenario: tuple[str, Manifests]) -> None:
    _, m = scenario
    deployment = m.one("Deployment", FULLNAME)
    spec = deployment["spec"]
    pod = spec["template"]["spec"]
    (container,) = pod["containers"]
    assert spec["replicas"] == 2
    assert container["command"] == ["binpack-webhook"] and container["args"] == ["serve"]
    for probe, path in (("readinessProbe", "/readyz"), ("livenessProbe", "/healthz")):
        get = container[probe]["httpGet"]
        assert (get["path"], get["scheme"], get["port"]) == (path, "HTTPS", "https")
    assert container["ports"][0] == {"name": "https", "containerPort": 8443, "protocol": "TCP"}
    assert [p["name"] for p in container["ports"][1:]] in ([], ["metrics"])
    (spread,) = pod["topologySpreadConstraints"]
    assert spread["topologyKey"] == "kubernetes.io/hostname"
    assert spread["labelSelector"]["matchLabels"] == spec["selector"]["matchLabels"]
    env = {e["name"]: e for e in container["env"]}
    assert env["BINPACK_GUARD_LEASE_NAMESPACE"]["valueFrom"] == {"fieldRef": {"fieldPath": "metadata.namespace"}}
    assert env["BINPACK_GUARD_BIND"]["value"] == "0.0.0.0:8443"
    # every file the server is told to read lies on a mounted volume that exists
    mounts = {v["mountPath"]: v["name"] for v in container["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    for name, var in env.items():
        value = var.get("value", "")
        if name.endswith(("_FILE", "_CONFIG")) and value.startswith("/"):
            directory, file_name = value.rsplit("/", 1)
            volume = volumes[mounts[directory]]
            if "configMap" in volume:
                assert [i["path"] for i in volume["configMap"]["items"]] == [file_name], name
    assert volumes[mounts["/etc/binpack-guard/tls"]]["secret"]["secretName"] == f"{FULLNAME}-tls"
    assert "emptyDir" in volumes[mounts["/tmp"]]
    pdb = m.one("PodDisruptionBudget", FULLNAME)
    service = m.one("Service", FULLNAME)
    assert pdb["spec"]["selector"]["matchLabels"] == spec["selector"]["matchLabels"] == service["spec"]["selector"]
    assert pdb["spec"]["maxUnavailable"] == 1
    assert service["spec"]["ports"][0]["targetPort"] == "https"


def _namespace_exemptions(hook: dict[str, Any]) -> tuple[set[str], set[str]]:
    exprs = {e["key"]: e for e in hook["namespaceSelector"]["matchExpressions"]}
    name_expr = exprs["kubernetes.io/metadata.name"]
    opt_out = exprs["binpack-guard.io/ignore"]
    assert name_expr["operator"] == opt_out["operator"] == "NotIn"
    return set(name_expr["values"]), set(opt_out["values"])


def test_webhook_configurations(scenario: tuple[str, Manifests]) -> None:
    name, m = scenario
    mutating = m.one("MutatingWebhookConfiguration", FULLNAME)
    validating = m.one("ValidatingWebhookConfiguration", FULLNAME)
    service = m.one("Service", FULLNAME)
    hooks = {h["name"]: h for h in (mutating["webhooks"] or []) + validating["webhooks"]}
    expected_paths = {
        "priorityclasses.binpack-guard.io": "/validate/priorityclasses",
        "configmaps.binpack-guard.io": "/validate/configmaps",
    }
    if name != "pod-webhook-off":
        expected_paths["pods.binpack-guard.io"] = "/mutate/pods"
    assert {h: hooks[h]["clientConfig"]["service"]["path"] for h in hooks} == expected_paths
    for hook in hooks.values():
        svc = hook["clientConfig"]["service"]
        assert (svc["name"], svc["namespace"], svc["port"]) == (
            FULLNAME,
            NAMESPACE,
            service["spec"]["ports"][0]["port"],
        )
        assert hook["admissionReviewVersions"] == ["v1"]
        # caBundle is injected, never rendered, so upgrades do not wipe it
        assert "caBundle" not in hook["clientConfig"]
    pcs = hooks["priorityclasses.binpack-guard.io"]
    assert (pcs["failurePolicy"], pcs["sideEffects"], pcs["timeoutSeconds"]) == ("Fail", "NoneOnDryRun", 3)
    assert pcs["rules"] == [
        {
            "apiGroups": ["scheduling.k8s.io"],
            "apiVersions": ["v1"],
            "resources": ["priorityclasses"],
            "operations": ["CREATE", "UPDATE", "DELETE"],
            "scope": "Cluster",
        }
    ]
    # cluster-scoped and nothing skipped: every PriorityClass write is checked
    assert "namespaceSelector" not in pcs and "objectSelector" not in pcs and "matchConditions" not in pcs
    cms = hooks["configmaps.binpack-guard.io"]
    assert (cms["failurePolicy"], cms["sideEffects"]) == ("Fail", "None")
    assert cms["rules"][0]["operations"] == ["CREATE", "UPDATE"] and cms["rules"][0]["resources"] == ["configmaps"]
    assert cms["objectSelector"] == {"matchLabels": {"binpack-guard.io/scheduler-config": "true"}}
    assert _namespace_exemptions(cms) == ({"kube-system", "kube-node-lease", NAMESPACE}, {"true"})
    if name == "pod-webhook-off":
        assert mutating["webhooks"] == []
        return
    pods = hooks["pods.binpack-guard.io"]
    assert pods["reinvocationPolicy"] == "IfNeeded" and pods["rules"][0]["resources"] == ["pods"]
    if name == "priority-plugin-off":
        # the webhook is the priority check: no opt-out label, bound pods and UPDATEs included, outages fail
        assert (pods["failurePolicy"], pods["sideEffects"], pods["timeoutSeconds"]) == ("Fail", "None", 3)
        assert pods["rules"][0]["operations"] == ["CREATE", "UPDATE"]
        assert "objectSelector" not in pods
        # only the UPDATEs priority.carry_over can patch reach the webhook; other pod updates never wait on it
        (condition,) = pods["matchConditions"]
        assert condition["expression"] == (
            'request.operation == "CREATE" || !has(object.spec.priority) || !has(object.spec.preemptionPolicy)'
        )
        (names,) = pods["namespaceSelector"]["matchExpressions"]
        assert set(names["values"]) == {"kube-system", "kube-node-lease", NAMESPACE}
        return
    assert (pods["failurePolicy"], pods["sideEffects"], pods["timeoutSeconds"]) == ("Ignore", "None", 3)
    assert pods["rules"][0]["operations"] == ["CREATE"]
    assert _namespace_exemptions(pods) == ({"kube-system", "kube-node-lease", NAMESPACE}, {"true"})
    assert pods["objectSelector"]["matchExpressions"] == [
        {"key": "binpack-guard.io/ignore", "operator": "NotIn", "values": ["true"]}
    ]
    (condition,) = pods["matchConditions"]
    assert (
        condition["expression"]
        == 'request.operation != "DELETE" && (!has(object.spec.nodeName) || object.spec.nodeName == "")'
    )



def test_notes_say_what_the_webhooks_skip_and_give_a_metrics_command_that_runs(
    render: Any, scenarios: dict[str, dict[str, Any]]
) -> None:
    notes = "binpack-guard/templates/NOTES.txt"
    plain = render({}, RELEASE, NAMESPACE).text[notes]
    assert "and any namespace labelled binpack-guard.io/ignore=true." in plain
    # kubectl port-forward runs until interrupted: a curl chained after it with && would never start
    (forward,) = [line for line in plain.splitlines() if "port-forward" in line]
    assert "&&" not in forward and forward.endswith(" &")
    enforcing = render(scenarios["priority-plugin-off"], RELEASE, NAMESPACE)
    (pods,) = enforcing.one("MutatingWebhookConfiguration")["webhooks"]
    assert [e["key"] for e in pods["namespaceSelector"]["matchExpressions"]] == ["kubernetes.io/metadata.name"]
    assert "and any namespace labelled" not in enforcing.text[notes]
    only_configmaps = "for the ConfigMap webhook only, any namespace labelled binpack-guard.io/ignore=true"
    assert only_configmaps in enforcing.text[notes]


def test_notes_show_how_to_see_a_prediction_only_when_pods_are_annotated(
    render: Any, scenarios: dict[str, dict[str, Any]]
) -> None:
    notes = "binpack-guard/templates/NOTES.txt"
    assert "See a prediction:" in render({}, RELEASE, NAMESPACE).text[notes]
    no_pod_webhook = render(scenarios["pod-webhook-off"], RELEASE, NAMESPACE)
    assert no_pod_webhook.one("MutatingWebhookConfiguration")["webhooks"] == []
    assert "See a prediction:" not in no_pod_webhook.text[notes]


def test_updates_the_enforcing_pod_webhook_skips_are_ones_it_leaves_untouched() -> None:
    """The priority-plugin-off matchCondition skips an UPDATE whose pod keeps both fields: carry_over is then empty."""
    review = json.loads((SHARED / "fixtures/admission/priority-plugin-on/pod-update-label.json").read_text())
    new, old = review["request"]["object"], review["request"]["oldObject"]
    assert {"priority", "preemptionPolicy"} <= new["spec"].keys()
    assert priority.carry_over(new, old) == ()
    for dropped in ("priority", "preemptionPolicy"):
        spec = {k: v for k, v in new["spec"].items() if k != dropped}
        assert priority.carry_over({**new, "spec": spec}, old) != (), dropped

def test_apiserver_client_ca_is_mounted_and_named_in_the_environment(render: Any) -> None:
    auth = {"caSecret": "apiserver-client-ca", "clientName": "kube-apiserver", "required": False}
    m = render({"apiserverClientAuth": auth}, RELEASE, NAMESPACE)
    spec = m.one("Deployment")["spec"]["template"]["spec"]
    env = {e["name"]: e.get("value") for e in spec["containers"][0]["env"]}
    mount = next(v for v in spec["containers"][0]["volumeMounts"] if v["name"] == "apiserver-client-ca")
    assert env["BINPACK_GUARD_CLIENT_CA_FILE"] == mount["mountPath"] + "/ca.crt"
    assert env["BINPACK_GUARD_APISERVER_CLIENT_NAME"] == "kube-apiserver"
    volume = next(v for v in spec["volumes"] if v["name"] == "apiserver-client-ca")
    assert volume["secret"]["secretName"] == "apiserver-client-ca"
    assert spec["priorityClassName"] == "system-cluster-critical"
    assert "cpu" not in spec["containers"][0]["resources"]["limits"]
    plain = render({}, RELEASE, NAMESPACE).one("Deployment")["spec"]["template"]["spec"]["containers"][0]
    defaults = {e["name"] for e in plain["env"]}
    assert "BINPACK_GUARD_CLIENT_CA_FILE" not in defaults


def test_release_namespace_and_extra_exemptions_follow_values(render: Any) -> None:
    m = render({"webhooks": {"namespaceExemptions": ["kube-system", "batch-legacy"]}}, RELEASE, "guard")
    pods = m.one("MutatingWebhookConfiguration")["webhooks"][0]
    assert _namespace_exemptions(pods)[0] == {"kube-system", "batch-legacy", "guard"}


def test_failure_policy_and_timeout_are_configurable(render: Any) -> None:
    values = {"webhooks": {"pods": {"failurePolicy": "Fail", "timeoutSeconds": 7, "reinvocationPolicy": "Never"}}}
    pods = render(values, RELEASE, NAMESPACE).one("MutatingWebhookConfiguration")["webhooks"][0]
    assert (pods["failurePolicy"], pods["timeoutSeconds"], pods["reinvocationPolicy"]) == ("Fail", 7, "Never")


@pytest.mark.parametrize(("values_key", "kind", "webhook_name", "setting"), [
    ("configMaps", "ValidatingWebhookConfiguration", "configmaps.binpack-guard.io", "lint_timeout_ms"),
    ("pods", "MutatingWebhookConfiguration", "pods.binpack-guard.io", "pod_timeout_ms"),
    ("priorityClasses", "ValidatingWebhookConfiguration", "priorityclasses.binpack-guard.io",
     "priority_class_timeout_ms"),
])
@pytest.mark.parametrize(("seconds", "budget"), [(1, "500"), (3, "2500"), (10, "9500")])
def test_each_review_budget_follows_its_webhook_timeout(
    render: Any, values_key: str, kind: str, webhook_name: str, setting: str, seconds: int, budget: str
) -> None:
    m = render({"webhooks": {values_key: {"timeoutSeconds": seconds}}}, RELEASE, NAMESPACE)
    webhook = next(w for w in m.one(kind)["webhooks"] if w["name"] == webhook_name)
    env = {e["name"]: e.get("value") for e in m.one("Deployment")["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert (webhook["timeoutSeconds"], env[env_name(setting)]) == (seconds, budget)
    assert getattr(Settings.from_env({env_name(setting): budget}), setting) == int(budget)


def certs_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="binpack-webhook")
    certs.add_parser(parser.add_subparsers())
    return parser


def test_certs_jobs_run_the_real_command_with_consistent_names(render: Any) -> None:
    m = render({}, RELEASE, NAMESPACE)
    jobs = m.all("Job")
    assert {j["metadata"]["annotations"]["helm.sh/hook"] for j in jobs} == {
        "pre-install,pre-upgrade",
        "post-install,post-upgrade",
    }
    cron = m.one("CronJob")
    assert cron["spec"]["concurrencyPolicy"] == "Forbid"
    pod_templates = [j["spec"]["template"]["spec"] for j in jobs] + [
        cron["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    ]
    for pod in pod_templates:
        (container,) = pod["containers"]
        args = certs_parser().parse_args(container["args"])
        assert args.func is certs.run
        assert args.service == m.one("Service")["metadata"]["name"]
        assert args.namespace == NAMESPACE
        assert args.tls_secret == m.one("Deployment")["spec"]["template"]["spec"]["volumes"][0]["secret"]["secretName"]
        assert args.mutating_webhook_configuration == [m.one("MutatingWebhookConfiguration")["metadata"]["name"]]
        assert args.validating_webhook_configuration == [m.one("ValidatingWebhookConfiguration")["metadata"]["name"]]
        assert args.owner_mutating_webhook_configuration == FULLNAME
    hook_accounts = {p["serviceAccountName"] for p in pod_templates[:2]}
    assert hook_accounts == {f"{FULLNAME}-certs-hook"}
    assert pod_templates[2]["serviceAccountName"] == f"{FULLNAME}-certs"
    # hook identities exist only during hooks and are cleaned up afterwards
    for kind in ("ServiceAccount", "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding"):
        hook_obj = m.one(kind, f"{FULLNAME}-certs-hook")
        annotations = hook_obj["metadata"]["annotations"]
        assert annotations["helm.sh/hook"] == "pre-install,pre-upgrade,post-install,post-upgrade"
        assert annotations["helm.sh/hook-delete-policy"] == "before-hook-creation,hook-succeeded"
    for job in jobs:
        assert job["metadata"]["annotations"]["helm.sh/hook-delete-policy"] == "before-hook-creation,hook-succeeded"


def test_cert_manager_replaces_the_jobs(render: Any) -> None:
    m = render({"certManager": {"enabled": True}}, RELEASE, NAMESPACE)
    assert m.all("Job") == [] and m.all("CronJob") == []
    assert not any(o["metadata"]["name"].startswith(f"{FULLNAME}-certs") for o in m.objects)
    serving = m.one("Certificate", f"{FULLNAME}-serving")
    ca = m.one("Certificate", f"{FULLNAME}-ca")
    assert ca["spec"]["isCA"] is True
    assert serving["spec"]["issuerRef"] == {"kind": "Issuer", "name": f"{FULLNAME}-ca"}
    assert m.one("Issuer", f"{FULLNAME}-ca")["spec"]["ca"]["secretName"] == ca["spec"]["secretName"]
    assert m.one("Issuer", f"{FULLNAME}-selfsigned")["spec"] == {"selfSigned": {}}
    # the same names the certs command would put into the certificate
    assert tuple(serving["spec"]["dnsNames"]) == certs.service_dns_names(FULLNAME, NAMESPACE)
    assert "server auth" in serving["spec"]["usages"]
    tls_volume = m.one("Deployment")["spec"]["template"]["spec"]["volumes"][0]
    assert tls_volume["secret"]["secretName"] == serving["spec"]["secretName"]
    for kind in ("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"):
        annotations = m.one(kind)["metadata"]["annotations"]
        assert annotations["cert-manager.io/inject-ca-from"] == f"{NAMESPACE}/{FULLNAME}-serving"


def test_inline_scoring_config_is_stored_unlabelled_and_mounted(
    render: Any, scenarios: dict[str, dict[str, Any]]
) -> None:
    values = scenarios["inline-config"]
    m = render(values, RELEASE, NAMESPACE)
    configmap = m.one("ConfigMap", f"{FULLNAME}-scoring")
    assert configmap["data"] == {
        "scheduler-config.yaml": values["scoring"]["kubeScheduler"]["inline"],
        "volcano-scheduler.conf": values["scoring"]["volcano"]["inline"],
    }
    assert "binpack-guard.io/scheduler-config" not in configmap["metadata"]["labels"]
    pod = m.one("Deployment")["spec"]["template"]["spec"]
    env = {e["name"]: e.get("value") for e in pod["containers"][0]["env"]}
    assert env["BINPACK_GUARD_SCHEDULER_CONFIG"] == "/etc/binpack-guard/kube-scheduler/scheduler-config.yaml"
    assert env["BINPACK_GUARD_VOLCANO_CONFIG"] == "/etc/binpack-guard/volcano/volcano-scheduler.conf"
    sources = {v["name"]: v["configMap"] for v in pod["volumes"] if "configMap" in v}
    assert sources["kube-scheduler-config"]["name"] == sources["volcano-config"]["name"] == f"{FULLNAME}-scoring"

    def checksum(manifests: Manifests) -> str:
        annotations = manifests.one("Deployment")["spec"]["template"]["metadata"]["annotations"]
        return str(annotations["checksum/scoring"])

    assert checksum(m) != checksum(render({}, RELEASE, NAMESPACE))


def test_existing_configmap_is_mounted_by_name_and_key(render: Any, scenarios: dict[str, dict[str, Any]]) -> None:
    m = render(scenarios["existing-configmap"], RELEASE, NAMESPACE)
    assert m.all("ConfigMap") == []
    pod = m.one("Deployment")["spec"]["template"]["spec"]
    sources = {v["name"]: v["configMap"] for v in pod["volumes"] if "configMap" in v}
    assert sources["kube-scheduler-config"] == {
        "name": "my-scheduler",
        "items": [{"key": "config.yaml", "path": "scheduler-config.yaml"}],
    }
    assert sources["volcano-config"]["name"] == "volcano-copy"


def test_scheduler_build_reaches_the_server(render: Any, scenarios: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    def build(values: dict[str, Any]) -> str:
        container = render(values, RELEASE, NAMESPACE).one("Deployment")["spec"]["template"]["spec"]["containers"][0]
        env = {e["name"]: e.get("value") for e in container["env"]}
        variable = "BINPACK_GUARD_SCHEDULER_BUILD"
        return Settings.from_env({variable: env[variable]}).scheduler_build

    assert build({}) == "kube-scheduler"
    assert build(scenarios["scheduler-plugins"]) == "scheduler-plugins"
    # the inline config names an out-of-tree plugin: the server loads it only for the declared build
    config = tmp_path / "scheduler-config.yaml"
    config.write_text(scenarios["scheduler-plugins"]["scoring"]["kubeScheduler"]["inline"], encoding="utf-8")
    model, _ = load_model(str(config), KubeSchedulerModel, "scheduler-plugins")
    assert [p.scheduler_name for p in model.profiles] == ["default-scheduler"]
    with pytest.raises(ModelLoadError, match='"PodState" does not exist'):
        load_model(str(config), KubeSchedulerModel, "kube-scheduler")


def test_defaults_mount_no_scoring_config(render: Any) -> None:
    pod = render({}, RELEASE, NAMESPACE).one("Deployment")["spec"]["template"]["spec"]
    env = {e["name"] for e in pod["containers"][0]["env"]}
    assert "BINPACK_GUARD_SCHEDULER_CONFIG" not in env and "BINPACK_GUARD_VOLCANO_CONFIG" not in env
    assert {v["name"] for v in pod["volumes"]} == {"tls", "tmp"}


def test_server_environment_is_accepted_by_the_real_settings(scenario: tuple[str, Manifests]) -> None:
    """Every BINPACK_GUARD_* variable the chart sets is a Settings field, and Settings accepts the values."""
    _, m = scenario
    container = m.one("Deployment")["spec"]["template"]["spec"]["containers"][0]
    known = {env_name(f.name) for f in dataclasses.fields(Settings)}
    env = {e["name"]: e for e in container["env"]}
    assert set(env) <= known, set(env) - known
    resolved = {name: e.get("value", NAMESPACE) for name, e in env.items()}  # downward API -> the namespace
    settings = Settings.from_env(resolved)
    assert settings.lease_namespace == NAMESPACE and settings.bind == "0.0.0.0:8443"
    assert settings.tls_cert_file == "/etc/binpack-guard/tls/tls.crt"


def test_network_policy_admits_only_the_webhook_and_metrics_ports(render: Any) -> None:
    policy = render({}, RELEASE, NAMESPACE).one("NetworkPolicy")
    assert policy["spec"]["policyTypes"] == ["Ingress"]
    (rule, metrics) = policy["spec"]["ingress"]
    assert rule["ports"] == [{"protocol": "TCP", "port": 8443}] and "from" not in rule
    assert metrics["ports"] == [{"protocol": "TCP", "port": 8081}] and "from" not in metrics
    peers = [{"ipBlock": {"cidr": "10.0.0.0/24"}}]
    narrowed = render({"networkPolicy": {"enabled": True, "webhookFrom": peers}}, RELEASE, NAMESPACE)
    assert narrowed.one("NetworkPolicy")["spec"]["ingress"][0]["from"] == peers
    off = render({"networkPolicy": {"enabled": False, "webhookFrom": []}}, RELEASE, NAMESPACE)
    assert off.all("NetworkPolicy") == []


def test_metrics_port_is_plain_http_beside_the_webhook_port(render: Any, scenarios: dict[str, dict[str, Any]]) -> None:
    m = render({}, RELEASE, NAMESPACE)
    pod = m.one("Deployment")["spec"]["template"]
    container = pod["spec"]["containers"][0]
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert Settings.from_env({"BINPACK_GUARD_METRICS_BIND": env["BINPACK_GUARD_METRICS_BIND"]}).metrics_bind \
        == "0.0.0.0:8081"
    assert {p["name"]: p["containerPort"] for p in container["ports"]} == {"https": 8443, "metrics": 8081}
    assert {p["name"]: p["targetPort"] for p in m.one("Service")["spec"]["ports"]} == \
        {"https": "https", "metrics": "metrics"}
    annotations = pod["metadata"]["annotations"]
    assert (annotations["prometheus.io/scheme"], annotations["prometheus.io/port"]) == ("http", "8081")
    rules = m.one("NetworkPolicy")["spec"]["ingress"]
    assert [r["ports"][0]["port"] for r in rules] == [8443, 8081]
    assert m.all("ServiceMonitor") == []

    off = render(scenarios["metrics-port-off"], RELEASE, NAMESPACE)
    container = off.one("Deployment")["spec"]["template"]["spec"]["containers"][0]
    assert "BINPACK_GUARD_METRICS_BIND" not in {e["name"] for e in container["env"]}
    assert [p["name"] for p in off.one("Service")["spec"]["ports"]] == ["https"]
    assert off.one("Deployment")["spec"]["template"]["metadata"]["annotations"]["prometheus.io/port"] == "8443"
    assert len(off.one("NetworkPolicy")["spec"]["ingress"]) == 1


def test_service_monitor_scrapes_the_metrics_port(render: Any, scenarios: dict[str, dict[str, Any]]) -> None:
    m = render(scenarios["service-monitor"], RELEASE, NAMESPACE)
    monitor = m.one("ServiceMonitor")
    assert monitor["metadata"]["labels"]["release"] == "prometheus"
    assert monitor["spec"]["selector"]["matchLabels"].items() <= m.one("Service")["metadata"]["labels"].items()
    assert monitor["spec"]["endpoints"] == [{"port": "metrics", "path": "/metrics", "scheme": "http",
                                            "interval": "30s", "scrapeTimeout": "10s"}]
    metrics_rule = m.one("NetworkPolicy")["spec"]["ingress"][1]
    assert metrics_rule["from"] == [{"namespaceSelector": {"matchLabels": {"name": "monitoring"}}}]


def test_defaults_fit_two_synced_workers_without_a_cpu_limit(render: Any) -> None:
    pod = render({}, RELEASE, NAMESPACE).one("Deployment")["spec"]["template"]["spec"]
    assert pod["priorityClassName"] == "system-cluster-critical"
    resources = pod["containers"][0]["resources"]
    assert "cpu" not in resources["limits"]  # CFS throttling would stall scoring mid-request
    assert (resources["requests"]["memory"], resources["limits"]["memory"]) == ("512Mi", "1Gi")


@pytest.mark.parametrize(("wait", "threshold"), [(None, 30), (1, 7), (300, 66), (302, 67)])
def test_startup_probe_covers_the_sync_wait(render: Any, wait: int | None, threshold: int) -> None:
    """No worker answers while it syncs, for up to syncWaitSeconds: the startupProbe (which holds the liveness
    probe back) must allow that plus 30 s, and the server must be told the same wait."""
    values = {} if wait is None else {"server": {"syncWaitSeconds": wait}}
    container = render(values, RELEASE, NAMESPACE).one("Deployment")["spec"]["template"]["spec"]["containers"][0]
    probe = container["startupProbe"]
    assert probe["httpGet"] == {"path": "/healthz", "port": "https", "scheme": "HTTPS"}
    assert probe["failureThreshold"] == threshold
    budget = probe["periodSeconds"] * probe["failureThreshold"]
    env = {e["name"]: e.get("value") for e in container["env"]}
    seconds = Settings.from_env({"BINPACK_GUARD_SYNC_WAIT_SECONDS": env["BINPACK_GUARD_SYNC_WAIT_SECONDS"]})
    assert seconds.sync_wait_seconds == (wait or 120)
    assert seconds.sync_wait_seconds + 30 <= budget < seconds.sync_wait_seconds + 40
    assert "initialDelaySeconds" not in container["livenessProbe"]


def test_sync_wait_must_be_positive(render: Any) -> None:
    with pytest.raises(Exception, match="syncWaitSeconds"):
        render({"server": {"syncWaitSeconds": 0}}, RELEASE, NAMESPACE)
