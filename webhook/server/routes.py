"""HTTP edge: read the body (bounded), decode, call the policy, encode; plus health and metrics.

Each admission view is the same three steps around a pure policy function. The body
is never read unbounded: a Content-Length over ``max_body_bytes`` is refused before
reading (413), and a chunked body is read only up to the cap. One JSON log line per
admission request (uid, kind, operation, decision, latency_ms).

With ``Settings.benchmark_routes`` (off by default; never in production) the blueprint also has
``/bench/allow-all``: the same view code around a policy that allows without looking, so a benchmark
can compare a real review with one that pays only for the body read, decode, encode and log line.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Response, current_app, request
from gunicorn.http.errors import ParseException
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge

from webhook.admission.decide import configmaps, pods, priorityclasses
from webhook.admission.decide.configmaps import Linter
from webhook.admission.decode import AdmissionRequest, MalformedReview, decode
from webhook.admission.encode import Decision, encode, error_body
from webhook.admission.ports import ClusterView, DefaultClassClaim, ViewNotReady
from webhook.admission.scheduler_models import SchedulerModels
from webhook.errors import exception_line
from webhook.jsontext import compact_encoder
from webhook.server.deadline import arrival, gate_seconds
from webhook.server.decodegate import RESERVE, DecodeGate
from webhook.server.jsonlog import JsonLine
from webhook.server.metrics import CONTENT_TYPE, Metrics
from webhook.server.readiness import all_workers_ready, readiness_dir
from webhook.server.tls import peer_names
from webhook.settings import Settings

log = logging.getLogger("webhook.requests")

EXTENSION = "binpack_guard"
READ_CHUNK = 64 * 1024
ALLOW_ALL_PATH = "/bench/allow-all"
ALLOW_ALL_ENDPOINT = "bench_allow_all"
JSON = "application/json"


@dataclass(frozen=True)
class Deps:
    """Everything the views need, wired once by ``create_app``."""

    settings: Settings
    view: ClusterView
    models: SchedulerModels
    claim: DefaultClassClaim | None
    metrics: Metrics
    # a linter for a review whose budget ends at the given time.monotonic(); the server's is bounded
    # (webhook.server.boundedlint), this default is not
    lint_until: Callable[[float], Linter] = lambda deadline: configmaps.lint_in_process
    gate: DecodeGate = field(default_factory=lambda: DecodeGate(Settings().max_body_bytes + RESERVE))


# the float: when the review's time budget ends (time.monotonic(), webhook.server.deadline)
Policy = Callable[[AdmissionRequest, Deps, float], Decision]
CONFIGMAPS, PODS, PRIORITY_CLASSES = "configmaps", "pods", "priorityclasses"

POLICIES: dict[str, tuple[str, Policy]] = {
    "/mutate/pods": (PODS, lambda r, d, deadline: pods.decide(r, d.view, d.settings, d.models, deadline)),
    "/validate/priorityclasses": (
        PRIORITY_CLASSES, lambda r, d, deadline: priorityclasses.decide(r, d.view, claim_for_caller(d), deadline)
    ),
    "/validate/configmaps": (CONFIGMAPS, lambda r, d, deadline: configmaps.decide(r, d.lint_until(deadline))),
}


def budget_seconds(d: Deps, endpoint: str) -> float:
    """How long after its arrival a review may take (webhook.server.deadline): its endpoint's budget from the
    settings (a ConfigMap's is its lint budget); the benchmark's allow-all, the decode gate's wait."""
    budget_ms = {CONFIGMAPS: d.settings.lint_timeout_ms, PODS: d.settings.pod_timeout_ms,
                 PRIORITY_CLASSES: d.settings.priority_class_timeout_ms}.get(endpoint)
    return budget_ms / 1000.0 if budget_ms is not None else d.gate.wait_seconds


def claim_for_caller(d: Deps) -> DefaultClassClaim | None:
    """The globalDefault claim, only for the apiserver: a caller with a verified client certificate (from
    ``client_ca_file``, naming ``apiserver_client_name`` if set). Anyone else gets the cache-only check."""
    if d.claim is None or not d.settings.client_ca_file:
        return None
    names = peer_names(request.environ)
    if not names or (d.settings.apiserver_client_name and d.settings.apiserver_client_name not in names):
        return None
    return d.claim


def allow_all(review: AdmissionRequest, deps: Deps, deadline: float) -> Decision:
    """The benchmark baseline's policy: allow, without looking at the review."""
    return Decision.allow()


def build_blueprint(*, benchmark_routes: bool = False) -> Blueprint:
    bp = Blueprint("binpack_guard", __name__)
    for path, (endpoint, policy) in POLICIES.items():
        bp.add_url_rule(path, endpoint, admission_view(endpoint, policy), methods=["POST"])
    if benchmark_routes:
        bp.add_url_rule(ALLOW_ALL_PATH, ALLOW_ALL_ENDPOINT, admission_view(ALLOW_ALL_ENDPOINT, allow_all),
                        methods=["POST"])
    bp.add_url_rule("/healthz", "healthz", _healthz, methods=["GET"])
    bp.add_url_rule("/readyz", "readyz", _readyz, methods=["GET"])
    bp.add_url_rule("/metrics", "metrics", _metrics, methods=["GET"])
    return bp


def deps() -> Deps:
    found = current_app.extensions[EXTENSION]
    assert isinstance(found, Deps)
    return found


def json_response(document: Any, status: int = 200) -> Response:
    return Response(_COMPACT(document), status=status, content_type=JSON)


_COMPACT = compact_encoder(ensure_ascii=True)


def admission_view(endpoint: str, policy: Policy) -> Callable[[], Response]:
    """A Flask view: bounded body read, ``decode``, ``policy``, ``encode``, metrics and one log line."""

    def view() -> Response:
        started = time.perf_counter()
        arrived = arrival(time.monotonic())
        d = deps()
        body, too_large = _read_body(d.settings.max_body_bytes)
        if too_large is not None:
            # Close the connection: the rest of the body (a chunk may claim 2^64 bytes) is never read.
            code = 400 if too_large.startswith("malformed") else 413
            reply = json_response(error_body(too_large, None, code), code)
            reply.headers["Connection"] = "close"
            return _finish(d, endpoint, started, "too_large" if reply.status_code == 413 else "bad_request",
                           reply, None, message=too_large)
        budget = budget_seconds(d, endpoint)
        gate_wait = gate_seconds(d.gate.wait_seconds, budget)
        with d.gate.admitted(len(body), until=arrived + gate_wait) as admitted:
            if not admitted:  # HTTP 503 without a review, as for an unsynced cache: failurePolicy decides
                message = (f"busy deciding other large reviews: this {len(body)}-byte one waited "
                           f"{gate_wait:g} s for memory; retry")
                reply = json_response(error_body(message, None, 503), 503)
                return _finish(d, endpoint, started, "busy", reply, None, message=message)
            return _decide(d, endpoint, policy, started, body, arrived + budget)

    view.__name__ = f"admission_{endpoint}"
    return view


def _decide(d: Deps, endpoint: str, policy: Policy, started: float, body: bytes, deadline: float) -> Response:
    """Decode, decide and encode one admitted body, whose budget ends at ``deadline``."""
    try:
        review = decode(body)
    except MalformedReview as exc:
        reply = json_response(error_body(str(exc), exc.uid, 400), 400)
        return _finish(d, endpoint, started, "bad_request", reply, None, uid=exc.uid, message=str(exc))
    try:
        decision = policy(review, d, deadline)
    except ViewNotReady as exc:  # HTTP 503 without a review: the webhook's failurePolicy decides
        reply = json_response(error_body(str(exc), review.uid, 503), 503)
        return _finish(d, endpoint, started, "unready", reply, review, uid=review.uid, message=str(exc))
    except Exception as exc:  # a bug: counted as outcome="error" (the shipped alert) with one log line
        message = f"internal error: {exception_line(exc)}"
        reply = json_response(error_body(message, review.uid, 500), 500)
        return _finish(d, endpoint, started, "error", reply, review, uid=review.uid, message=message)
    outcome = "patched" if decision.allowed and decision.patch else "allowed" if decision.allowed else "denied"
    return _finish(d, endpoint, started, outcome, json_response(encode(review.uid, decision)), review, decision)


def _read_body(limit: int) -> tuple[bytes, str | None]:
    """The body, or (b"", reason) when it is over ``limit`` bytes; never reads more than limit + 1."""
    too_large = f"request body over the {limit}-byte limit"
    if request.content_length is not None and request.content_length > limit:
        return b"", too_large
    chunks: list[bytes] = []
    size = 0
    try:
        stream = request.stream
        while size <= limit:
            chunk = stream.read(min(READ_CHUNK, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except RequestEntityTooLarge:
        return b"", too_large
    except BadRequest:  # the client went away mid-body: nothing sensible to decode
        return b"", None
    except (ParseException, ValueError, OSError) as exc:  # gunicorn's InvalidChunkSize, ChunkMissingTerminator...
        return b"", f"malformed request body: {type(exc).__name__}"
    if size > limit:
        return b"", too_large
    return b"".join(chunks), None


def _finish(
    d: Deps,
    endpoint: str,
    started: float,
    outcome: str,
    reply: Response,
    review: AdmissionRequest | None,
    decision: Decision | None = None,
    *,
    uid: str | None = None,
    message: str | None = None,
) -> Response:
    seconds = time.perf_counter() - started
    denial_reason = decision.reason if decision is not None and not decision.allowed else None
    d.metrics.observe(endpoint, outcome, seconds, denial_reason,
                      operation=review.operation if review is not None else "unknown",
                      dry_run=review.dry_run if review is not None else False)
    record: dict[str, Any] = {
        "event": "admission",
        "endpoint": endpoint,
        "uid": review.uid if review is not None else uid,
        "kind": review.kind.kind if review is not None else None,
        "operation": review.operation if review is not None else None,
        "namespace": review.namespace if review is not None else None,
        "name": review.name if review is not None else None,
        "dry_run": review.dry_run if review is not None else None,
        "decision": outcome,
        "status": reply.status_code,
        "latency_ms": round(seconds * 1000.0, 3),
    }
    if decision is not None and not decision.allowed:
        record["code"] = decision.code
        record["reason"] = decision.reason
        record["message"] = decision.message
    elif message is not None:
        record["message"] = message
    # The message is the JSON line itself (encoded only if a formatter reads it); `admission` carries the
    # same fields for webhook.server.jsonlog.JsonFormatter, which puts them on the line it writes.
    level = logging.ERROR if outcome == "error" else logging.INFO
    if log.isEnabledFor(level):
        log.log(level, JsonLine(record), extra={"admission": record})
    return reply


def _healthz() -> Response:
    return json_response({"status": "ok"})


def _readyz() -> Response:
    """503 unless this worker's view is synced and fresh and (with several workers) every live worker's is."""
    view = deps().view
    synced, healthy = view.is_synced(), view.is_healthy()
    shared = readiness_dir()
    workers = all_workers_ready(shared) if shared is not None else True
    body = {"synced": synced, "healthy": healthy, "allWorkersReady": workers}
    return json_response(body, 200 if synced and healthy and workers else 503)


def _metrics() -> Response:
    return Response(deps().metrics.render(), content_type=CONTENT_TYPE)
