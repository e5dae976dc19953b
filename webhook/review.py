"""``binpack-webhook review [--cluster-file DUMP] REVIEW.json...``: the webhook's answers without a server.

For testing policies in CI, as ``gator test`` and ``kyverno apply`` do: each file is an AdmissionReview
request (``admission.k8s.io/v1``); it is decided by the same code the server runs, against the dump's cluster
(or an empty one holding only the built-in PriorityClasses), and the AdmissionReview response is printed as
JSON, one document per file in the order given. Exit status: 0 all allowed, 1 at least one denied, 2 a file
that cannot be read or is not an AdmissionReview (one line on stderr naming it; the other files still run), or
a bad option (a ``--server`` that is not an http(s) URL, a bad dump or scheduler config: one line, nothing runs).
No Lease is claimed: the review is a dry run by nature.

``--server URL`` sends each review to a running webhook instead (the path chosen by the object's kind), and
``--patched`` prints the object as the apiserver would store it (the response's JSONPatch applied) instead of
the response: together, the newcomer's one command against ``binpack-webhook serve --cluster-file``.
"""

from __future__ import annotations

import argparse
import base64
import copy
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any, TextIO

import jsonpatch  # type: ignore[import-untyped,unused-ignore]  # newer jsonpatch releases ship types

from linter import textfile
from webhook.admission.decide import configmaps, pods, priorityclasses
from webhook.admission.decode import AdmissionRequest, MalformedReview, decode
from webhook.admission.encode import Decision, encode
from webhook.admission.ports import ClusterView, ViewNotReady
from webhook.admission.scheduler_models import ModelLoadError, SchedulerModels
from webhook.cluster.dumpfile import DumpClusterView, DumpFileError
from webhook.cluster.static import StaticClusterView
from webhook.errors import exception_line
from webhook.settings import Settings, SettingsError

EXIT_ALLOWED, EXIT_DENIED, EXIT_BAD_INPUT = 0, 1, 2
PROG = "binpack-webhook review"
PATHS = {"Pod": "/mutate/pods", "PriorityClass": "/validate/priorityclasses", "ConfigMap": "/validate/configmaps"}
SERVER_TIMEOUT = 30.0


class ServerError(Exception):
    """The webhook at --server did not answer with an AdmissionReview (one line)."""


def decide(request: AdmissionRequest, view: ClusterView, settings: Settings, models: SchedulerModels) -> Decision:
    """Route by the request's kind to the decision the matching endpoint runs."""
    kind = request.kind.kind
    if kind == "Pod":
        return pods.decide(request, view, settings, models)
    if kind == "PriorityClass":
        return priorityclasses.decide(request, view, None)
    if kind == "ConfigMap":
        return configmaps.decide(request, configmaps.linter_for(settings.scheduler_build))
    return Decision.deny(400, "BadRequest", f"binpack-guard has no webhook for kind {kind!r}")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.server and (problem := server_url_problem(args.server)):
        err.write(f"{PROG}: error: --server: {problem}\n")
        return EXIT_BAD_INPUT
    try:
        settings = Settings(scheduler_config=args.scheduler_config, volcano_config=args.volcano_config,
                            **({"top": args.top} if args.top is not None else {}),
                            **({"scheduler_build": args.scheduler_build} if args.scheduler_build else {}))
        models = SchedulerModels(settings.scheduler_config, settings.volcano_config, settings.scheduler_build)
        models.current()
        view: ClusterView = DumpClusterView(args.cluster_file) if args.cluster_file else _empty_cluster()
    except (SettingsError, ModelLoadError, DumpFileError) as exc:
        err.write(f"{PROG}: error: {exc}\n")
        return EXIT_BAD_INPUT
    status = EXIT_ALLOWED
    for path in args.reviews:
        try:
            body = textfile.read_text(path, settings.max_body_bytes).encode("utf-8")
            request = decode(body)
        except textfile.TextFileError as exc:
            err.write(f"{PROG}: error: {path}: {exc.reason}\n")
            status = EXIT_BAD_INPUT
            continue
        except MalformedReview as exc:
            err.write(f"{PROG}: error: {path}: {exc}\n")
            status = EXIT_BAD_INPUT
            continue
        if args.server:
            try:
                answer = _ask_server(args.server, request, body)
            except ServerError as exc:
                err.write(f"{PROG}: error: {path}: {exc}\n")
                status = EXIT_BAD_INPUT
                continue
        else:
            try:
                decision = decide(request, view, settings, models)
            except ViewNotReady as exc:  # cannot happen with a dump or the empty cluster
                decision = Decision.deny(503, "ServiceUnavailable", str(exc))
            except Exception as exc:  # a bug: one line naming the file (the server answers it with a 500)
                err.write(f"{PROG}: internal error: {path}: {exception_line(exc)}\n")
                status = EXIT_BAD_INPUT
                continue
            answer = encode(request.uid, decision)
        response = answer.get("response") or {}
        if args.patched and response.get("allowed") is True:
            out.write(json.dumps(_patched(request.object, response), indent=2) + "\n")
        else:
            out.write(json.dumps(answer, indent=2) + "\n")
        if response.get("allowed") is not True and status == EXIT_ALLOWED:
            status = EXIT_DENIED
    return status


def server_url_problem(url: str) -> str | None:
    """Why ``url`` cannot be the webhook's base URL, or None; urllib would raise on it mid-run."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError as exc:  # e.g. an unclosed IPv6 bracket
        return f"{url!r} is not a URL: {exc}"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"expected an http:// or https:// URL with a host, got {url!r}"
    return None


def _ask_server(url: str, request: AdmissionRequest, body: bytes) -> Mapping[str, Any]:
    path = PATHS.get(request.kind.kind)
    if path is None:
        raise ServerError(f"binpack-guard has no webhook for kind {request.kind.kind!r}")
    post = urllib.request.Request(url.rstrip("/") + path, data=body, method="POST",
                                  headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(post, timeout=SERVER_TIMEOUT) as reply:
            answer = json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        raise ServerError(f"{url}{path}: HTTP {exc.code}: {exc.read()[:300].decode('utf-8', 'replace')}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise ServerError(f"{url}{path}: {exc}") from None
    if not isinstance(answer, dict) or not isinstance(answer.get("response"), dict):
        raise ServerError(f"{url}{path}: the answer is not an AdmissionReview response")
    return answer


def _patched(obj: Mapping[str, Any] | None, response: Mapping[str, Any]) -> Any:
    document = copy.deepcopy(dict(obj or {}))
    if not response.get("patch"):
        return document
    ops = json.loads(base64.b64decode(response["patch"]))
    return jsonpatch.apply_patch(document, ops)


def _empty_cluster() -> StaticClusterView:
    from linter.formats.priorityclass.validate import BUILTIN_CLASSES

    return StaticClusterView(priority_classes=[{"metadata": {"name": c.name}, "value": c.value}
                                               for c in BUILTIN_CLASSES])
