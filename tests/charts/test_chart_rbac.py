"""RBAC is exactly the least privilege the operations guide promises: every grant listed, nothing more."""

from __future__ import annotations

from typing import Any

import pytest

from webhook.server.metrics import CACHE_RESOURCES

RELEASE = "bg"
NAMESPACE = "binpack-system"
FULLNAME = f"{RELEASE}-binpack-guard"
LEASE = "binpack-guard-global-default"

Grant = tuple[str, str, str, str]  # (apiGroup, resource, verb, resourceName or "*")


def grants(role: dict[str, Any]) -> set[Grant]:
    """Flatten rules into single grants, so two roles compare exactly whatever the rule grouping."""
    flat: set[Grant] = set()
    for rule in role["rules"]:
        assert set(rule) <= {"apiGroups", "resources", "verbs", "resourceNames"}, rule
        for group in rule["apiGroups"]:
            for resource in rule["resources"]:
                for verb in rule["verbs"]:
                    for name in rule.get("resourceNames") or ["*"]:
                        flat.add((group, resource, verb, name))
    return flat


# list+watch for every kind the cache mirrors; get only where the server reads one object by name
# (webhook.cluster.kubeclient: read_priority_class). Nodes, pods and PDBs are never read by name.
SERVER_CLUSTER: set[Grant] = {
    (group, resource, verb, "*")
    for group, resource in (("", "nodes"), ("", "pods"), ("scheduling.k8s.io", "priorityclasses"),
                            ("policy", "poddisruptionbudgets"))
    for verb in ("list", "watch")
} | {("scheduling.k8s.io", "priorityclasses", "get", "*")}
API_GROUPS = {"nodes": "", "pods": "", "priorityclasses": "scheduling.k8s.io", "poddisruptionbudgets": "policy"}
SERVER_NAMESPACED: set[Grant] = {
    ("coordination.k8s.io", "leases", "get", LEASE),
    ("coordination.k8s.io", "leases", "update", LEASE),
    ("coordination.k8s.io", "leases", "create", "*"),
}
CERTS_NAMESPACED: set[Grant] = {
    ("", "secrets", verb, name) for verb in ("get", "update") for name in (f"{FULLNAME}-ca", f"{FULLNAME}-tls")
} | {("", "secrets", "create", "*")}
CERTS_CLUSTER: set[Grant] = {
    ("admissionregistration.k8s.io", kind, verb, FULLNAME)
    for kind in ("mutatingwebhookconfigurations", "validatingwebhookconfigurations")
    for verb in ("get", "patch")
}


@pytest.fixture(scope="module", params=[False, True], ids=["certs-jobs", "cert-manager"])
def manifests(request: pytest.FixtureRequest, render: Any) -> Any:
    return render({"certManager": {"enabled": request.param}}, RELEASE, NAMESPACE)


def test_server_roles_are_exact(manifests: Any) -> None:
    assert grants(manifests.one("ClusterRole", FULLNAME)) == SERVER_CLUSTER
    role = manifests.one("Role", FULLNAME)
    assert role["metadata"]["namespace"] == NAMESPACE
    assert grants(role) == SERVER_NAMESPACED


def test_server_can_watch_exactly_what_the_cache_holds(manifests: Any) -> None:
    """If webhook/cluster/cache.py starts or stops watching a resource, the ClusterRole must follow (and this fails)."""
    watched = {(group, resource) for group, resource, verb, _ in grants(manifests.one("ClusterRole", FULLNAME))}
    assert watched == {(API_GROUPS[r], r) for r in CACHE_RESOURCES}


def test_certs_roles_are_exact_for_both_identities(render: Any) -> None:
    m = render({}, RELEASE, NAMESPACE)
    for name in (f"{FULLNAME}-certs", f"{FULLNAME}-certs-hook"):
        assert grants(m.one("Role", name)) == CERTS_NAMESPACED, name
        assert grants(m.one("ClusterRole", name)) == CERTS_CLUSTER, name


def test_no_other_roles_exist(manifests: Any) -> None:
    roles = manifests.names("Role") | manifests.names("ClusterRole")
    expected = {FULLNAME}
    if not manifests.all("Certificate"):
        expected |= {f"{FULLNAME}-certs", f"{FULLNAME}-certs-hook"}
    assert roles == expected


def test_bindings_tie_each_role_to_its_own_account(manifests: Any) -> None:
    accounts = manifests.names("ServiceAccount")
    for kind, role_kind in (("RoleBinding", "Role"), ("ClusterRoleBinding", "ClusterRole")):
        for binding in manifests.all(kind):
            name = binding["metadata"]["name"]
            assert binding["roleRef"] == {"apiGroup": "rbac.authorization.k8s.io", "kind": role_kind, "name": name}
            (subject,) = binding["subjects"]
            assert subject == {"kind": "ServiceAccount", "name": name, "namespace": NAMESPACE}
            assert name in accounts
    # the server runs as the account whose roles are SERVER_*
    pod = manifests.one("Deployment")["spec"]["template"]["spec"]
    assert pod["serviceAccountName"] == FULLNAME


def test_no_wildcards_or_dangerous_verbs_anywhere(manifests: Any) -> None:
    for kind in ("Role", "ClusterRole"):
        for role in manifests.all(kind):
            for group, resource, verb, _ in grants(role):
                assert "*" not in (group, resource, verb), role["metadata"]["name"]
                assert verb not in {"delete", "deletecollection", "escalate", "bind", "impersonate"}
