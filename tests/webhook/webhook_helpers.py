"""Shared builders for the webhook decision/route tests: reviews, recorded fixtures, patch application.

Patches are applied with the independent ``jsonpatch`` library (RFC 6902), so a wrong
pointer escape or an ``add`` under a missing map fails the test the way it would fail
in the API server.
"""

from __future__ import annotations

import base64
import copy
import json
import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import jsonpatch
from paths import SHARED

from webhook.admission.decode import AdmissionRequest, decode
from webhook.cluster.lease import LeaseConflict, LeaseRecord

SHARED = SHARED
ADMISSION = SHARED / "fixtures" / "admission"
WATCH = SHARED / "fixtures" / "watch"
VECTORS = SHARED / "vectors"
FOLDERS = ("priority-plugin-on", "priority-plugin-off")

# The endpoint each recorder URL stands for (the recorder used dashes; the webhook serves nested paths).
ENDPOINT_OF_RECORDED_PATH = {
    "/mutate-pods": "/mutate/pods",
    "/validate-priorityclasses": "/validate/priorityclasses",
    "/validate-configmaps": "/validate/configmaps",
}

GROUP_OF_KIND = {"Pod": "", "ConfigMap": "", "PriorityClass": "scheduling.k8s.io"}
RESOURCE_OF_KIND = {"Pod": "pods", "ConfigMap": "configmaps", "PriorityClass": "priorityclasses"}


def fixture_index(folder: str) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = json.loads((ADMISSION / folder / "index.json").read_text())
    return entries


def fixture_body(folder: str, name: str) -> bytes:
    return (ADMISSION / folder / name).read_bytes()


def fixture_review(folder: str, name: str) -> dict[str, Any]:
    review: dict[str, Any] = json.loads(fixture_body(folder, name))
    return review


def fixture_nodes() -> list[dict[str, Any]]:
    nodes: list[dict[str, Any]] = json.loads((WATCH / "list-nodes.raw.json").read_bytes())["items"]
    return nodes


def fixture_priority_classes() -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = json.loads((WATCH / "list-priorityclasses.raw.json").read_bytes())["items"]
    return items


def builtin_priority_classes() -> list[dict[str, Any]]:
    """The two classes the API server always has, taken from the recorded PriorityClass list."""
    return [pc for pc in fixture_priority_classes() if pc["metadata"]["name"].startswith("system-")]


def review(
    kind: str,
    operation: str,
    obj: Mapping[str, Any] | None,
    old: Mapping[str, Any] | None = None,
    *,
    dry_run: bool = False,
    uid: str | None = None,
) -> dict[str, Any]:
    """An AdmissionReview v1 request the way the API server builds one."""
    source = obj if obj is not None else old
    metadata = (source or {}).get("metadata", {})
    return {
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "request": {
            "uid": uid or str(uuid.uuid4()),
            "kind": {"group": GROUP_OF_KIND.get(kind, ""), "version": "v1", "kind": kind},
            "resource": {
                "group": GROUP_OF_KIND.get(kind, ""),
                "version": "v1",
                "resource": RESOURCE_OF_KIND.get(kind, ""),
            },
            "name": metadata.get("name", ""),
            "namespace": metadata.get("namespace", ""),
            "operation": operation,
            "userInfo": {"username": "tester"},
            "object": copy.deepcopy(dict(obj)) if obj is not None else None,
            "oldObject": copy.deepcopy(dict(old)) if old is not None else None,
            "dryRun": dry_run,
        },
    }


def request_of(document: Mapping[str, Any]) -> AdmissionRequest:
    return decode(json.dumps(document).encode())


def pod(
    name: str = "web",
    *,
    namespace: str = "default",
    requests: Mapping[str, str] | None = None,
    **spec: Any,
) -> dict[str, Any]:
    container: dict[str, Any] = {"name": "app", "image": "registry.k8s.io/pause:3.10"}
    if requests is not None:
        container["resources"] = {"requests": dict(requests)}
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"containers": [container], "schedulerName": "default-scheduler", **spec},
    }


def node(name: str, cpu: str, memory: str, **extra: str) -> dict[str, Any]:
    allocatable = {"cpu": cpu, "memory": memory, "pods": "110", **extra}
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
        "status": {"allocatable": allocatable, "capacity": dict(allocatable)},
    }


def priority_class(name: str, value: int, *, global_default: bool = False, policy: str | None = None) -> dict[str, Any]:
    pc: dict[str, Any] = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name}}
    pc["value"] = value
    if global_default:
        pc["globalDefault"] = True
    if policy is not None:
        pc["preemptionPolicy"] = policy
    return pc


def response_of(reply_json: Mapping[str, Any]) -> dict[str, Any]:
    assert reply_json["apiVersion"] == "admission.k8s.io/v1"
    assert reply_json["kind"] == "AdmissionReview"
    response: dict[str, Any] = reply_json["response"]
    return response


def patch_ops(response: Mapping[str, Any]) -> list[dict[str, Any]]:
    if "patch" not in response:
        return []
    assert response["patchType"] == "JSONPatch"
    ops: list[dict[str, Any]] = json.loads(base64.b64decode(response["patch"], validate=True))
    return ops


def apply_response_patch(obj: Mapping[str, Any], response: Mapping[str, Any]) -> dict[str, Any]:
    """The object as the API server stores it after applying the response's JSONPatch."""
    patched: dict[str, Any] = jsonpatch.apply_patch(copy.deepcopy(dict(obj)), patch_ops(response))
    return patched


class InMemoryLeaseStore:
    """The Lease API as a dict with resourceVersion checks (the boundary; the claim logic is real)."""

    def __init__(self) -> None:
        self.record: LeaseRecord | None = None
        self.version = 0

    def get(self, *, timeout: float | None = None) -> LeaseRecord | None:
        return self.record

    def create(self, holder: str, acquired: datetime, *, timeout: float | None = None) -> None:
        if self.record is not None:
            raise LeaseConflict("exists")
        self._write(holder, acquired)

    def replace(
        self, holder: str, acquired: datetime, expected_resource_version: str, *, timeout: float | None = None
    ) -> None:
        if self.record is None or self.record.resource_version != expected_resource_version:
            raise LeaseConflict("resourceVersion changed")
        self._write(holder, acquired)

    def _write(self, holder: str, acquired: datetime) -> None:
        self.version += 1
        self.record = LeaseRecord(holder, str(self.version), acquired)
