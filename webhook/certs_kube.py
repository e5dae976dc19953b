"""The Kubernetes side of ``binpack-webhook certs``: two Secrets and the webhook configurations' ``caBundle``.

This module only moves bytes; ``webhook.certs`` decides what they are. It is the one module besides
``webhook.cache`` allowed to import ``kubernetes`` (see the import contracts in pyproject.toml).

Write order, chosen so that a run interrupted at any point leaves a state the next run repairs and in which
the apiserver still trusts the certificate the pods serve:

1. the CA Secret (``ca.crt`` trust bundle + ``ca.key``): the new state is durable before anything trusts it;
2. every webhook's ``clientConfig.caBundle``: the apiserver trusts old and new CA from here on;
3. the TLS Secret mounted by the pods (``tls.crt``, ``tls.key``, ``ca.crt``); kubelet refreshes the files
   within about a minute and the server reloads them.

A webhook configuration that does not exist yet (the pre-install run, before Helm creates it) is skipped.
Every write is conditional on the ``resourceVersion`` read, so a concurrent run fails with a conflict
instead of overwriting; the Job's retry then starts from the fresh state.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import sys
from collections.abc import Callable
from datetime import datetime
from typing import Any

from kubernetes import client, config
from kubernetes.client.exceptions import ApiException
from kubernetes.config import ConfigException

from webhook.certs import CertMaterial, CertPolicy, issue, make_plan
from webhook.certs_x509 import CertificateDataError

ADMISSION_API = "admissionregistration.k8s.io/v1"
LABELS = {"app.kubernetes.io/managed-by": "binpack-webhook-certs", "app.kubernetes.io/component": "certificates"}
JSON_PATCH = "application/json-patch+json"


class CertsKubeError(RuntimeError):
    """A read or write against the apiserver failed; the message is one line."""


def api_client(kubeconfig: str | None) -> client.ApiClient:
    """A client from ``kubeconfig``, or from the pod's service account when None."""
    try:
        configuration = client.Configuration()
        if kubeconfig:
            config.load_kube_config(config_file=kubeconfig, client_configuration=configuration)  # type: ignore[no-untyped-call]
        else:
            config.load_incluster_config(client_configuration=configuration)  # type: ignore[no-untyped-call]
        return client.ApiClient(configuration)
    except (ConfigException, OSError) as exc:
        raise CertsKubeError(f"cannot load Kubernetes client configuration: {exc}") from None


def _fail(what: str, exc: ApiException) -> CertsKubeError:
    detail = exc.reason
    with contextlib.suppress(ValueError, AttributeError, TypeError):
        detail = json.loads(exc.body or b"{}").get("message") or detail
    return CertsKubeError(f"{what}: HTTP {exc.status}: {detail}")


def read_secret(core: client.CoreV1Api, namespace: str, name: str) -> dict[str, Any] | None:
    try:
        # raw JSON (dicts) rather than models: the models drop fields they do not know when written back
        response: Any = core.read_namespaced_secret(name, namespace, _preload_content=False)
    except ApiException as exc:
        if exc.status == 404:
            return None
        raise _fail(f"read Secret {namespace}/{name}", exc) from None
    secret: dict[str, Any] = json.loads(response.data)
    return secret


def decoded(secret: dict[str, Any] | None, key: str) -> bytes:
    if not secret:
        return b""
    return base64.b64decode(secret.get("data", {}).get(key, ""))


def write_secret(
    core: client.CoreV1Api,
    namespace: str,
    name: str,
    existing: dict[str, Any] | None,
    secret_type: str,
    data: dict[str, bytes],
    owner: dict[str, str] | None,
) -> bool:
    """Create or replace the Secret when its data or owner differ; returns whether it wrote."""
    encoded = {k: base64.b64encode(v).decode() for k, v in data.items()}
    body: dict[str, Any] = existing or {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": name, "namespace": namespace, "labels": dict(LABELS)},
        "type": secret_type,
    }
    meta = body["metadata"]
    owners = list(meta.get("ownerReferences") or [])
    if owner is not None and owner not in owners:
        owners = [o for o in owners if (o.get("kind"), o.get("name")) != (owner["kind"], owner["name"])]
        owners.append(owner)
    if existing is not None and body.get("data") == encoded and (meta.get("ownerReferences") or []) == owners:
        return False
    body["data"] = encoded
    if owners:
        meta["ownerReferences"] = owners
    model = client.V1Secret.from_dict(body)
    assert model is not None  # from_dict returns None only for a None argument
    try:
        if existing is None:
            core.create_namespaced_secret(namespace, model, _preload_content=False)
        else:
            core.replace_namespaced_secret(name, namespace, model, _preload_content=False)
    except ApiException as exc:
        raise _fail(f"write Secret {namespace}/{name}", exc) from None
    return True


def _configuration(api: client.AdmissionregistrationV1Api, kind: str, name: str) -> dict[str, Any] | None:
    read = api.read_mutating_webhook_configuration if kind == "Mutating" else api.read_validating_webhook_configuration
    try:
        response: Any = read(name, _preload_content=False)
    except ApiException as exc:
        if exc.status == 404:
            return None
        raise _fail(f"read {kind}WebhookConfiguration {name}", exc) from None
    found: dict[str, Any] = json.loads(response.data)
    return found


def patch_ca_bundle(api: client.AdmissionregistrationV1Api, kind: str, name: str, bundle: bytes) -> str:
    """Set every webhook's ``clientConfig.caBundle`` in one configuration; returns what happened."""
    current = _configuration(api, kind, name)
    if current is None:
        return "not found, skipped"
    wanted = base64.b64encode(bundle).decode()
    ops: list[dict[str, Any]] = []
    for index, hook in enumerate(current.get("webhooks") or []):
        if (hook.get("clientConfig") or {}).get("caBundle") == wanted:
            continue
        # "test" pins the entry by name, so a concurrent reorder fails the patch instead of mis-assigning.
        ops.append({"op": "test", "path": f"/webhooks/{index}/name", "value": hook["name"]})
        ops.append({"op": "add", "path": f"/webhooks/{index}/clientConfig/caBundle", "value": wanted})
    if not ops:
        return "caBundle unchanged"
    patch = (
        api.patch_mutating_webhook_configuration if kind == "Mutating" else api.patch_validating_webhook_configuration
    )
    try:
        patch(name, ops, _content_type=JSON_PATCH, _preload_content=False)
    except ApiException as exc:
        raise _fail(f"patch {kind}WebhookConfiguration {name}", exc) from None
    return f"caBundle set on {len(ops) // 2} webhook(s)"


def owner_reference(api: client.AdmissionregistrationV1Api, name: str | None) -> dict[str, str] | None:
    """An ownerReference to the MutatingWebhookConfiguration ``name`` (None when unset or absent)."""
    if not name:
        return None
    found = _configuration(api, "Mutating", name)
    if found is None:
        return None
    uid = found["metadata"]["uid"]
    return {"apiVersion": ADMISSION_API, "kind": "MutatingWebhookConfiguration", "name": name, "uid": uid}


def reconcile(args: argparse.Namespace, now: datetime, policy: CertPolicy) -> int:
    """Read, plan, issue, write in the documented order; one line per step. Returns the exit code."""
    try:
        _reconcile(api_client(args.kubeconfig), args, now, policy, emit=lambda line: print(line, flush=True))
    except (CertsKubeError, CertificateDataError) as exc:
        print(f"binpack-webhook certs: {exc}", file=sys.stderr)
        return 1
    return 0


def _reconcile(
    api: client.ApiClient, args: argparse.Namespace, now: datetime, policy: CertPolicy, emit: Callable[[str], None]
) -> None:
    core = client.CoreV1Api(api)
    admission = client.AdmissionregistrationV1Api(api)
    ns = args.namespace
    ca_secret = read_secret(core, ns, args.ca_secret)
    tls_secret = read_secret(core, ns, args.tls_secret)
    current = CertMaterial(
        ca_bundle=decoded(ca_secret, "ca.crt"),
        ca_key=decoded(ca_secret, "ca.key"),
        tls_cert=decoded(tls_secret, "tls.crt"),
        tls_key=decoded(tls_secret, "tls.key"),
    )
    plan = make_plan(current, now, policy)
    material = issue(plan, current, now, policy)
    owner = owner_reference(admission, args.owner_mutating_webhook_configuration)
    emit(f"certs: {plan.action.value}: {plan.reason}")
    ca_data = {"ca.crt": material.ca_bundle, "ca.key": material.ca_key}
    wrote = write_secret(core, ns, args.ca_secret, ca_secret, "Opaque", ca_data, owner)
    emit(f"Secret {ns}/{args.ca_secret}: {'written' if wrote else 'unchanged'}")
    targets = [("Mutating", n) for n in args.mutating_webhook_configuration]
    targets += [("Validating", n) for n in args.validating_webhook_configuration]
    for kind, name in targets:
        emit(f"{kind}WebhookConfiguration {name}: {patch_ca_bundle(admission, kind, name, material.ca_bundle)}")
    tls_data = {"tls.crt": material.tls_cert, "tls.key": material.tls_key, "ca.crt": material.ca_bundle}
    wrote = write_secret(core, ns, args.tls_secret, tls_secret, "kubernetes.io/tls", tls_data, owner)
    emit(f"Secret {ns}/{args.tls_secret}: {'written' if wrote else 'unchanged'}")
