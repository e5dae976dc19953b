"""The Kubernetes side of ``binpack-webhook certs``: two Secrets and the webhook configurations' ``caBundle``.

This module only moves bytes; ``webhook.certs.plan`` decides what they are. It reaches the apiserver through
``webhook.cluster.kubeclient``, the webhook's only ``kubernetes`` importer (see the import contracts).

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
import sys
from collections.abc import Callable
from datetime import datetime
from typing import Any

from webhook.certs.plan import CertMaterial, CertPolicy, issue, make_plan
from webhook.certs.x509 import CertificateDataError
from webhook.cluster import kubeclient
from webhook.cluster.kubeclient import ApiClient, ApiError, ClientConfigError

ADMISSION_API = "admissionregistration.k8s.io/v1"
LABELS = {"app.kubernetes.io/managed-by": "binpack-webhook-certs", "app.kubernetes.io/component": "certificates"}


class CertsKubeError(RuntimeError):
    """A read or write against the apiserver failed; the message is one line."""


def api_client(kubeconfig: str | None) -> ApiClient:
    """A client from ``kubeconfig``, or from the pod's service account when None."""
    try:
        return kubeclient.service_account_client(kubeconfig)
    except ClientConfigError as exc:
        raise CertsKubeError(str(exc)) from None


def _fail(what: str, exc: ApiError) -> CertsKubeError:
    return CertsKubeError(f"{what}: HTTP {exc.status}: {exc.message}")


def read_secret(api: ApiClient, namespace: str, name: str) -> dict[str, Any] | None:
    try:
        return kubeclient.read_object(api, "Secret", name, namespace)
    except ApiError as exc:
        raise _fail(f"read Secret {namespace}/{name}", exc) from None


def decoded(secret: dict[str, Any] | None, key: str) -> bytes:
    if not secret:
        return b""
    return base64.b64decode(secret.get("data", {}).get(key, ""))


def write_secret(
    api: ApiClient,
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
    try:
        kubeclient.write_secret(api, namespace, name, body, create=existing is None)
    except ApiError as exc:
        raise _fail(f"write Secret {namespace}/{name}", exc) from None
    return True


def _configuration(api: ApiClient, kind: str, name: str) -> dict[str, Any] | None:
    try:
        return kubeclient.read_object(api, f"{kind}WebhookConfiguration", name)
    except ApiError as exc:
        raise _fail(f"read {kind}WebhookConfiguration {name}", exc) from None


def patch_ca_bundle(api: ApiClient, kind: str, name: str, bundle: bytes) -> str:
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
    try:
        kubeclient.json_patch(api, f"{kind}WebhookConfiguration", name, ops)
    except ApiError as exc:
        raise _fail(f"patch {kind}WebhookConfiguration {name}", exc) from None
    return f"caBundle set on {len(ops) // 2} webhook(s)"


def owner_reference(api: ApiClient, name: str | None) -> dict[str, str] | None:
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
    api: ApiClient, args: argparse.Namespace, now: datetime, policy: CertPolicy, emit: Callable[[str], None]
) -> None:
    ns = args.namespace
    ca_secret = read_secret(api, ns, args.ca_secret)
    tls_secret = read_secret(api, ns, args.tls_secret)
    current = CertMaterial(
        ca_bundle=decoded(ca_secret, "ca.crt"),
        ca_key=decoded(ca_secret, "ca.key"),
        tls_cert=decoded(tls_secret, "tls.crt"),
        tls_key=decoded(tls_secret, "tls.key"),
    )
    plan = make_plan(current, now, policy)
    material = issue(plan, current, now, policy)
    owner = owner_reference(api, args.owner_mutating_webhook_configuration)
    emit(f"certs: {plan.action.value}: {plan.reason}")
    ca_data = {"ca.crt": material.ca_bundle, "ca.key": material.ca_key}
    wrote = write_secret(api, ns, args.ca_secret, ca_secret, "Opaque", ca_data, owner)
    emit(f"Secret {ns}/{args.ca_secret}: {'written' if wrote else 'unchanged'}")
    targets = [("Mutating", n) for n in args.mutating_webhook_configuration]
    targets += [("Validating", n) for n in args.validating_webhook_configuration]
    for kind, name in targets:
        emit(f"{kind}WebhookConfiguration {name}: {patch_ca_bundle(api, kind, name, material.ca_bundle)}")
    tls_data = {"tls.crt": material.tls_cert, "tls.key": material.tls_key, "ca.crt": material.ca_bundle}
    wrote = write_secret(api, ns, args.tls_secret, tls_secret, "kubernetes.io/tls", tls_data, owner)
    emit(f"Secret {ns}/{args.tls_secret}: {'written' if wrote else 'unchanged'}")
