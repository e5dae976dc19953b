"""HTTP behaviour of the app: health, readiness, bad input (400/413, never 500, never a hang), uid echo, JSON logs."""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import pytest
from conftest import AppFactory
from flask import Flask
from flask.testing import FlaskClient
from webhook_helpers import fixture_review, pod, priority_class, review
from werkzeug.test import EnvironBuilder, run_wsgi_app

from webhook.cluster.static import StaticClusterView

ENDPOINTS = ("/mutate/pods", "/validate/priorityclasses", "/validate/configmaps")


def test_healthz(client: FlaskClient) -> None:
    reply = client.get("/healthz")
    assert reply.status_code == 200 and reply.get_json() == {"status": "ok"}


@pytest.mark.parametrize(("synced", "healthy", "status"), [(True, True, 200), (False, True, 503), (True, False, 503)])
def test_readyz_follows_the_view(
    client: FlaskClient, view: StaticClusterView, synced: bool, healthy: bool, status: int
) -> None:
    view.synced, view.healthy = synced, healthy
    reply = client.get("/readyz")
    assert reply.status_code == status
    assert reply.get_json() == {"synced": synced, "healthy": healthy, "allWorkersReady": True}


def test_unknown_path_and_wrong_method_are_json(client: FlaskClient) -> None:
    for reply, status in ((client.get("/nope"), 404), (client.get("/mutate/pods"), 405)):
        assert reply.status_code == status and reply.is_json and "error" in reply.get_json()


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize(
    ("body", "uid"),
    [
        (b"not json", None),
        (b"{}", None),
        (
            json.dumps({"apiVersion": "admission.k8s.io/v1beta1", "kind": "AdmissionReview", "request": {"uid": "u9"}}),
            "u9",
        ),
        (json.dumps({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {}}), None),
    ],
)
def test_malformed_reviews_get_400_json(client: FlaskClient, endpoint: str, body: bytes | str, uid: str | None) -> None:
    reply = client.post(endpoint, data=body, content_type="application/json")
    assert reply.status_code == 400
    document = reply.get_json()
    assert isinstance(document["error"], str) and document["error"]
    assert document.get("uid") == uid


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_wrong_kind_is_a_well_formed_denial_echoing_the_uid(client: FlaskClient, endpoint: str) -> None:
    document = review("Secret", "CREATE", {"metadata": {"name": "s"}}, uid="abc-123")
    reply = client.post(endpoint, json=document)
    assert reply.status_code == 200
    response = reply.get_json()["response"]
    assert response["uid"] == "abc-123" and response["allowed"] is False
    assert response["status"]["code"] == 400 and response["status"]["reason"] == "BadRequest"


def test_missing_object_is_a_denial(client: FlaskClient) -> None:
    document = review("Pod", "CREATE", None, uid="u-2")
    response = client.post("/mutate/pods", json=document).get_json()["response"]
    assert response["uid"] == "u-2" and response["allowed"] is False and "object" in response["status"]["message"]


def test_body_over_the_limit_by_content_length_is_413(make_app: AppFactory, view: StaticClusterView) -> None:
    client = make_app(view, max_body_bytes=1000).test_client()
    body = json.dumps(review("Pod", "CREATE", pod(), uid="big")).encode() + b" " * 2000
    reply = client.post("/mutate/pods", data=body, content_type="application/json")
    assert reply.status_code == 413 and "1000" in reply.get_json()["error"]


class EndlessBody(io.RawIOBase):
    """A request body that never ends; counts what the server read."""

    def __init__(self) -> None:
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        size = len(buffer)
        buffer[:size] = b" " * size
        self.read_bytes += size
        return size


def _post_chunked(app: Flask, path: str, stream: io.RawIOBase | io.BytesIO) -> tuple[int, Any]:
    """POST with no Content-Length and ``wsgi.input_terminated``: how gunicorn hands over a chunked body."""
    environ = EnvironBuilder(path=path, method="POST", content_type="application/json").get_environ()
    environ.pop("CONTENT_LENGTH", None)
    environ["wsgi.input"] = stream
    environ["wsgi.input_terminated"] = True
    app_iter, status, _ = run_wsgi_app(app, environ, buffered=True)
    return int(status.split()[0]), json.loads(b"".join(app_iter))


def test_chunked_body_is_read_only_up_to_the_limit(make_app: AppFactory, view: StaticClusterView) -> None:
    body = EndlessBody()
    status, document = _post_chunked(make_app(view, max_body_bytes=5000), "/mutate/pods", body)
    assert status == 413 and "5000" in document["error"]
    assert body.read_bytes <= 5000 + 64 * 1024


def test_chunked_body_under_the_limit_is_decoded(make_app: AppFactory, view: StaticClusterView) -> None:
    document = review("Pod", "UPDATE", pod(), pod(), uid="chunked")
    status, reply = _post_chunked(make_app(view), "/mutate/pods", io.BytesIO(json.dumps(document).encode()))
    assert status == 200 and reply["response"] == {"uid": "chunked", "allowed": True}


def test_one_json_log_line_per_admission_request(client: FlaskClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="webhook.requests")
    client.post(
        "/validate/priorityclasses", json=review("PriorityClass", "CREATE", priority_class("p", 5), uid="log-1")
    )
    client.post("/mutate/pods", json=review("Pod", "CREATE", pod(priorityClassName="missing"), uid="log-2"))
    client.post("/mutate/pods", data=b"junk")
    records = [json.loads(r.getMessage()) for r in caplog.records if r.name == "webhook.requests"]
    assert len(records) == 3
    assert [(r["uid"], r["kind"], r["operation"], r["decision"]) for r in records] == [
        ("log-1", "PriorityClass", "CREATE", "allowed"),
        ("log-2", "Pod", "CREATE", "denied"),
        (None, None, None, "bad_request"),
    ]
    assert all(isinstance(r["latency_ms"], float) and r["latency_ms"] >= 0 for r in records)
    assert records[1]["code"] == 403 and "missing" in records[1]["message"]


def test_unexpected_errors_are_json_500(make_app: AppFactory, caplog: pytest.LogCaptureFixture) -> None:
    class BrokenView(StaticClusterView):
        def priority_classes(self) -> Any:
            raise RuntimeError("boom")

    app = make_app(BrokenView())
    client = app.test_client()
    with caplog.at_level(logging.ERROR, logger="webhook.requests"):
        reply = client.post("/mutate/pods", json=review("Pod", "CREATE", pod(), uid="x"))
    assert reply.status_code == 500
    document = reply.get_json()
    assert (document["error"], document["uid"], document["message"]) == ("internal error: RuntimeError: boom", "x",
                                                                         "internal error: RuntimeError: boom")
    # counted for the shipped alert (outcome="error") and logged once, at ERROR
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and '"decision":"error"' in errors[0].getMessage()
    metrics = client.get("/metrics").get_data(as_text=True)
    name = "binpack_guard_admission_requests_total"
    assert f'{name}{{dry_run="false",endpoint="pods",operation="CREATE",outcome="error"}} 1.0' in metrics


def _as_apiserver_reads_it(reply_json: dict[str, Any]) -> tuple[str, str, int]:
    """What kube-apiserver 1.36's webhook client keeps of a non-2xx JSON body (client-go ``Result.Error``): only a
    body that decodes as a ``v1`` ``Status`` with ``status: Failure`` lends its message; any other body is replaced
    by the HTTP code's generic text (503: "the server is currently unable to handle the request")."""
    if (reply_json.get("kind"), reply_json.get("apiVersion"), reply_json.get("status")) != ("Status", "v1", "Failure"):
        return "", "", 0
    return reply_json["message"], reply_json["reason"], reply_json["code"]


def test_an_unready_view_answers_503_with_a_status_the_apiserver_shows(make_app: AppFactory) -> None:
    client = make_app(StaticClusterView(synced=False)).test_client()
    reply = client.post("/mutate/pods", json=review("Pod", "CREATE", pod(), uid="u-503"))
    assert reply.status_code == 503
    message = ("binpack-guard's cluster cache has not finished its first list; "
               "no decision is taken from it (retry later)")
    assert _as_apiserver_reads_it(reply.get_json()) == (message, "ServiceUnavailable", 503)
    assert reply.get_json()["uid"] == "u-503" and reply.get_json()["error"] == message


@pytest.mark.parametrize(("path", "method", "body", "status", "reason"), [
    ("/mutate/pods", "POST", b"not json", 400, "BadRequest"),
    ("/validate/configmaps", "POST", b"x" * 2000, 413, "RequestEntityTooLarge"),
    ("/nowhere", "GET", b"", 404, "NotFound"),
    ("/mutate/pods", "GET", b"", 405, "MethodNotAllowed"),
], ids=["not-json", "too-large", "no-route", "wrong-method"])
def test_every_error_body_is_a_failed_status(
    make_app: AppFactory, view: StaticClusterView, path: str, method: str, body: bytes, status: int, reason: str
) -> None:
    client = make_app(view, max_body_bytes=1000).test_client()
    reply = client.open(path, method=method, data=body, content_type="application/json")
    message, got_reason, code = _as_apiserver_reads_it(reply.get_json())
    assert (reply.status_code, code, got_reason) == (status, status, reason)
    assert message and message == reply.get_json()["error"]


def test_an_update_review_with_two_objects_near_the_api_servers_size_limit_is_read(
    make_app: AppFactory, view: StaticClusterView
) -> None:
    """The API server takes an object of up to 3 MiB of JSON; an UPDATE review carries two of them."""
    document = fixture_review("priority-plugin-off", "pod-update-label.json")
    env = [{"name": f"V{i:06d}", "value": "x" * 480} for i in range(6100)]
    for side in ("object", "oldObject"):
        document["request"][side]["spec"]["containers"][0]["env"] = env
    body = json.dumps(document)
    assert 3 * 1000 * 1000 < len(json.dumps(document["request"]["object"])) < 3 * 1024 * 1024
    assert len(body) > 6 * 1000 * 1000
    reply = make_app(view).test_client().post("/mutate/pods", data=body, content_type="application/json")
    assert reply.status_code == 200
    assert reply.get_json()["response"]["uid"] == document["request"]["uid"]
