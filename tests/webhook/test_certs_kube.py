"""``binpack-webhook certs`` against an apiserver: the real ``kubernetes`` client over HTTP to a small in-memory
apiserver on 127.0.0.1 that implements just the calls the command makes (Secrets get/create/update with
resourceVersion conflicts, webhook configurations get and JSON-patch).
"""

from __future__ import annotations

import argparse
import base64
import itertools
import json
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import jsonpatch  # type: ignore[import-untyped,unused-ignore]
import pytest
from cryptography import x509

from webhook.certs import cli as certs
from webhook.certs import kube as certs_kube

NS = "binpack-system"
NAME = "bg-binpack-guard"
ADMISSION = "/apis/admissionregistration.k8s.io/v1/"


class FakeApiServer:
    """Objects by URL path; every mutating request is recorded as (method, path, content-type)."""

    def __init__(self) -> None:
        self.objects: dict[str, dict[str, Any]] = {}
        self.requests: list[tuple[str, str, str]] = []
        self.forbidden: set[str] = set()
        self.before_update: Callable[[str], None] = lambda path: None
        self._versions = itertools.count(100)
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def bump(self, path: str) -> None:
        self.objects[path]["metadata"]["resourceVersion"] = str(next(self._versions))

    def add_webhook_configuration(self, kind: str, hooks: list[str]) -> None:
        path = f"{ADMISSION}{kind.lower()}webhookconfigurations/{NAME}"
        webhooks = [
            {
                "name": h,
                "admissionReviewVersions": ["v1"],
                "sideEffects": "None",
                "clientConfig": {"service": {"name": NAME, "namespace": NS, "port": 443}},
            }
            for h in hooks
        ]
        self.objects[path] = {"metadata": {"name": NAME, "uid": f"uid-{kind}"}, "webhooks": webhooks}
        self.bump(path)

    def secret(self, name: str) -> dict[str, Any]:
        return self.objects[f"/api/v1/namespaces/{NS}/secrets/{name}"]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _send(self, code: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _status(self, code: int, message: str) -> None:
                self._send(
                    code, {"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": message, "code": code}
                )

            def _body(self) -> Any:
                return json.loads(self.rfile.read(int(self.headers["Content-Length"])))

            def _route(self) -> str | None:
                path = self.path.split("?", 1)[0]
                if self.command != "GET":
                    api.requests.append((self.command, path, self.headers.get("Content-Type", "")))
                if path in api.forbidden:
                    self._status(403, f'secrets "{path.rsplit("/", 1)[-1]}" is forbidden: no RBAC rule')
                    return None
                return path

            def do_GET(self) -> None:
                path = self._route()
                if path is None:
                    return
                if path not in api.objects:
                    self._status(404, f"{path} not found")
                    return
                self._send(200, api.objects[path])

            def do_POST(self) -> None:
                path = self._route()
                if path is None:
                    return
                body = self._body()
                target = f"{path}/{body['metadata']['name']}"
                if target in api.objects:
                    self._status(409, "already exists")
                    return
                body["metadata"]["uid"] = f"uid-{body['metadata']['name']}"
                api.objects[target] = body
                api.bump(target)
                self._send(201, body)

            def do_PUT(self) -> None:
                path = self._route()
                if path is None:
                    return
                body = self._body()
                api.before_update(path)
                if body["metadata"].get("resourceVersion") != api.objects[path]["metadata"]["resourceVersion"]:
                    self._status(409, "the object has been modified; please apply your changes to the latest version")
                    return
                api.objects[path] = body
                api.bump(path)
                self._send(200, body)

            def do_PATCH(self) -> None:
                path = self._route()
                if path is None:
                    return
                assert self.headers["Content-Type"] == "application/json-patch+json"
                try:
                    api.objects[path] = jsonpatch.apply_patch(api.objects[path], self._body())
                except jsonpatch.JsonPatchException as exc:
                    self._status(422, str(exc))
                    return
                api.bump(path)
                self._send(200, api.objects[path])

        return Handler


@pytest.fixture
def apiserver(tmp_path: Path) -> Iterator[tuple[FakeApiServer, Path]]:
    fake = FakeApiServer()
    fake.thread.start()
    port = fake.server.server_port
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        json.dumps(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "clusters": [{"name": "fake", "cluster": {"server": f"http://127.0.0.1:{port}"}}],
                "users": [{"name": "fake", "user": {"token": "test"}}],
                "contexts": [{"name": "fake", "context": {"cluster": "fake", "user": "fake"}}],
                "current-context": "fake",
            }
        )
    )
    yield fake, kubeconfig
    fake.server.shutdown()
    fake.server.server_close()


def parse(kubeconfig: Path) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="binpack-webhook")
    certs.add_parser(parser.add_subparsers())
    return parser.parse_args(
        [
            "certs",
            f"--kubeconfig={kubeconfig}",
            f"--namespace={NS}",
            f"--service={NAME}",
            f"--ca-secret={NAME}-ca",
            f"--tls-secret={NAME}-tls",
            f"--mutating-webhook-configuration={NAME}",
            f"--validating-webhook-configuration={NAME}",
            f"--owner-mutating-webhook-configuration={NAME}",
        ]
    )


def reconcile(kubeconfig: Path, now: datetime) -> int:
    args = parse(kubeconfig)
    return certs_kube.reconcile(args, now, certs.policy_from_args(args))


def data(secret: dict[str, Any], key: str) -> bytes:
    return base64.b64decode(secret["data"][key])


NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def test_install_sequence_then_idempotent_runs(
    apiserver: tuple[FakeApiServer, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    fake, kubeconfig = apiserver
    # pre-install: no webhook configurations yet
    assert reconcile(kubeconfig, NOW) == 0
    out = capsys.readouterr().out
    assert "create-ca" in out and "not found, skipped" in out
    ca_secret, tls_secret = fake.secret(f"{NAME}-ca"), fake.secret(f"{NAME}-tls")
    assert tls_secret["type"] == "kubernetes.io/tls" and set(tls_secret["data"]) == {"tls.crt", "tls.key", "ca.crt"}
    assert ca_secret["type"] == "Opaque" and set(ca_secret["data"]) == {"ca.crt", "ca.key"}
    assert "ownerReferences" not in tls_secret["metadata"]
    # Helm creates the configurations; post-install writes caBundle and takes ownership of the Secrets
    fake.add_webhook_configuration("Mutating", ["pods.binpack-guard.io"])
    fake.add_webhook_configuration("Validating", ["priorityclasses.binpack-guard.io", "configmaps.binpack-guard.io"])
    served = data(tls_secret, "tls.crt")
    assert reconcile(kubeconfig, NOW + timedelta(minutes=1)) == 0
    assert "keep" in capsys.readouterr().out
    bundle = data(fake.secret(f"{NAME}-ca"), "ca.crt")
    for kind in ("mutating", "validating"):
        for hook in fake.objects[f"{ADMISSION}{kind}webhookconfigurations/{NAME}"]["webhooks"]:
            assert base64.b64decode(hook["clientConfig"]["caBundle"]) == bundle
    for secret in (fake.secret(f"{NAME}-ca"), fake.secret(f"{NAME}-tls")):
        assert secret["metadata"]["ownerReferences"] == [
            {
                "apiVersion": "admissionregistration.k8s.io/v1",
                "kind": "MutatingWebhookConfiguration",
                "name": NAME,
                "uid": "uid-Mutating",
            }
        ]
    assert data(fake.secret(f"{NAME}-tls"), "tls.crt") == served
    # a third run writes nothing at all
    fake.requests.clear()
    assert reconcile(kubeconfig, NOW + timedelta(days=1)) == 0
    assert fake.requests == []
    assert "caBundle unchanged" in capsys.readouterr().out


def test_ca_rotation_publishes_the_bundle_before_the_new_serving_certificate(
    apiserver: tuple[FakeApiServer, Path],
) -> None:
    fake, kubeconfig = apiserver
    fake.add_webhook_configuration("Mutating", ["pods.binpack-guard.io"])
    fake.add_webhook_configuration("Validating", ["priorityclasses.binpack-guard.io"])
    assert reconcile(kubeconfig, NOW) == 0
    (old_ca,) = x509.load_pem_x509_certificates(data(fake.secret(f"{NAME}-ca"), "ca.crt"))
    rotation = old_ca.not_valid_before_utc + (old_ca.not_valid_after_utc - old_ca.not_valid_before_utc) * 2 / 3
    fake.requests.clear()
    assert reconcile(kubeconfig, rotation + timedelta(hours=1)) == 0
    assert [(m, p.rsplit("/", 1)[-1]) for m, p, _ in fake.requests] == [
        ("PUT", f"{NAME}-ca"),
        ("PATCH", NAME),
        ("PATCH", NAME),
        ("PUT", f"{NAME}-tls"),
    ]
    bundle = x509.load_pem_x509_certificates(data(fake.secret(f"{NAME}-ca"), "ca.crt"))
    assert len(bundle) == 2 and bundle[1] == old_ca
    hook = fake.objects[f"{ADMISSION}validatingwebhookconfigurations/{NAME}"]["webhooks"][0]
    assert x509.load_pem_x509_certificates(base64.b64decode(hook["clientConfig"]["caBundle"])) == bundle
    served = x509.load_pem_x509_certificate(data(fake.secret(f"{NAME}-tls"), "tls.crt"))
    assert served.issuer == bundle[0].subject


def test_a_concurrent_change_fails_the_run_with_a_conflict(
    apiserver: tuple[FakeApiServer, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    fake, kubeconfig = apiserver
    assert reconcile(kubeconfig, NOW) == 0
    capsys.readouterr()
    fake.before_update = fake.bump  # someone else writes between our read and our update
    (ca_path,) = [p for p in fake.objects if p.endswith(f"{NAME}-ca")]
    fake.objects[ca_path]["data"]["ca.key"] = ""  # forces a rewrite
    assert reconcile(kubeconfig, NOW) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"binpack-webhook certs: write Secret {NS}/{NAME}-ca: HTTP 409: the object has been modified")
    assert err.count("\n") == 1


def test_forbidden_is_one_line_and_exit_1(
    apiserver: tuple[FakeApiServer, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    fake, kubeconfig = apiserver
    fake.forbidden.add(f"/api/v1/namespaces/{NS}/secrets/{NAME}-ca")
    assert reconcile(kubeconfig, NOW) == 1
    err = capsys.readouterr().err
    expected = f'read Secret {NS}/{NAME}-ca: HTTP 403: secrets "{NAME}-ca" is forbidden: no RBAC rule'
    assert err == f"binpack-webhook certs: {expected}\n"


def test_missing_kubeconfig_is_one_line_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert reconcile(tmp_path / "absent", NOW) == 1
    err = capsys.readouterr().err
    assert err.startswith("binpack-webhook certs: cannot load Kubernetes client configuration") and err.count("\n") == 1
