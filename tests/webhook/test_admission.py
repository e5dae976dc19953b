"""The AdmissionReview codec: decode errors (with the uid when there is one), and the encoded response shape."""

from __future__ import annotations

import base64
import json

import pytest
from webhook_helpers import FOLDERS, fixture_body, fixture_index, pod, review

from webhook.admission.decode import MalformedReview, decode
from webhook.admission.encode import Decision, encode, error_body
from webhook.admission.patch import PatchOp


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_recorded_review_decodes(folder: str) -> None:
    for entry in fixture_index(folder):
        raw = fixture_body(folder, entry["file"])
        request = decode(raw)
        recorded = json.loads(raw)["request"]
        assert request.uid == recorded["uid"]
        assert request.operation == entry["operation"]
        assert request.kind.kind == entry["kind"]
        assert request.dry_run is entry["dryRun"]
        assert request.name == entry["name"]
        assert request.namespace == (entry["namespace"] or "")
        if entry["operation"] == "DELETE":
            assert request.object is None and request.old_object is not None


def _with(**changes: object) -> bytes:
    document = review("Pod", "CREATE", pod(), uid="u-1")
    for dotted, value in changes.items():
        target = document
        *parents, last = dotted.split("__")
        for key in parents:
            target = target[key]
        if value is _DELETE:
            del target[last]
        else:
            target[last] = value
    return json.dumps(document).encode()


_DELETE = object()


@pytest.mark.parametrize(
    ("body", "fragment", "uid"),
    [
        (b"", "not JSON", None),
        (b"{", "not JSON", None),
        (b"\xff\xfe", "not JSON", None),
        (b"[1, 2]", "not a JSON object", None),
        (b"[" * 100000 + b"]" * 100000, "not JSON", None),
        # a 5,000-digit integer is decoded (Python's 4,300-digit limit lifted), so the review fails on its own terms
        (b'{"n": ' + b"9" * 5000 + b"}", "kind must be AdmissionReview", None),
        (_with(kind="Pod"), "kind must be AdmissionReview", "u-1"),
        (_with(apiVersion="admission.k8s.io/v1beta1"), "apiVersion must be admission.k8s.io/v1", "u-1"),
        (_with(apiVersion=_DELETE), "apiVersion must be", "u-1"),
        (_with(request=None), "request: missing", None),
        (_with(request__uid=_DELETE), "request.uid", None),
        (_with(request__uid=""), "request.uid", None),
        (_with(request__uid=7), "request.uid", None),
        (_with(request__operation="PATCH"), "request.operation", "u-1"),
        (_with(request__object="pod"), "request.object", "u-1"),
        (_with(request__oldObject=[1]), "request.oldObject", "u-1"),
        (_with(request__kind="Pod"), "request.kind", "u-1"),
    ],
)
def test_malformed_reviews(body: bytes, fragment: str, uid: str | None) -> None:
    with pytest.raises(MalformedReview) as caught:
        decode(body)
    assert fragment in str(caught.value)
    assert "\n" not in str(caught.value)
    assert caught.value.uid == uid


def test_encode_allowed_with_patch_and_warnings() -> None:
    decision = Decision.allow([PatchOp("add", "/spec/priority", 0)], warnings=["w1"])
    document = encode("abc", decision)
    assert document["apiVersion"] == "admission.k8s.io/v1" and document["kind"] == "AdmissionReview"
    response = document["response"]
    assert response["uid"] == "abc" and response["allowed"] is True
    assert response["patchType"] == "JSONPatch"
    assert json.loads(base64.b64decode(response["patch"])) == [{"op": "add", "path": "/spec/priority", "value": 0}]
    assert response["warnings"] == ["w1"]
    assert "status" not in response


def test_encode_denial_has_status_and_no_patch() -> None:
    decision = Decision(allowed=False, code=403, reason="Forbidden", message="no", patch=(PatchOp("add", "/a", 1),))
    response = encode("abc", decision)["response"]
    assert response == {"uid": "abc", "allowed": False, "status": {"code": 403, "message": "no", "reason": "Forbidden"}}


def test_error_body_echoes_uid_only_when_known() -> None:
    assert "uid" not in error_body("bad", None, 400)
    assert error_body("bad", "u", 400) == {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                                           "message": "bad", "reason": "BadRequest", "code": 400,
                                           "error": "bad", "uid": "u"}
