"""AdmissionReview v1 encoding: a ``Decision`` (what the decide step returns) -> the response document.

An allowed decision carries its JSONPatch base64-encoded with ``patchType: JSONPatch``; a denial carries a
``Status`` (code, reason, message); the request's uid is always echoed. ``error_body`` is the JSON answer of an
HTTP error (400/413/500/503: no usable review, or no decision): a ``v1`` ``Status`` document, because the API
server's webhook client reads a non-2xx body only as a ``Status`` and otherwise reports just the HTTP code's
generic text (e.g. "the server is currently unable to handle the request"), hiding the reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from webhook.admission.decode import API_VERSION
from webhook.admission.patch import PatchOp, encode_patch


@dataclass(frozen=True)
class Decision:
    """A verdict: allowed or not, why (``code``/``reason``/``message``), a patch and warnings."""

    allowed: bool
    code: int = 200
    reason: str = ""
    message: str = ""
    patch: tuple[PatchOp, ...] = ()
    warnings: tuple[str, ...] = ()

    @classmethod
    def allow(cls, patch: Sequence[PatchOp] = (), warnings: Sequence[str] = ()) -> Decision:
        return cls(allowed=True, patch=tuple(patch), warnings=tuple(warnings))

    @classmethod
    def deny(cls, code: int, reason: str, message: str, warnings: Sequence[str] = ()) -> Decision:
        return cls(allowed=False, code=code, reason=reason, message=message, warnings=tuple(warnings))


def encode(uid: str, decision: Decision) -> dict[str, Any]:
    """The AdmissionReview response document for ``decision`` (uid echoed, patch base64 JSONPatch)."""
    response: dict[str, Any] = {"uid": uid, "allowed": decision.allowed}
    if not decision.allowed:
        response["status"] = {"code": decision.code, "message": decision.message, "reason": decision.reason}
    if decision.allowed and decision.patch:
        response["patchType"] = "JSONPatch"
        response["patch"] = encode_patch(decision.patch)
    if decision.warnings:
        response["warnings"] = list(decision.warnings)
    return {"apiVersion": API_VERSION, "kind": "AdmissionReview", "response": response}


# metav1.StatusReason of each HTTP code an error body is sent with (apimachinery's errors.go pairs them so).
_STATUS_REASONS = {
    400: "BadRequest", 403: "Forbidden", 404: "NotFound", 405: "MethodNotAllowed", 413: "RequestEntityTooLarge",
    500: "InternalError", 503: "ServiceUnavailable",
}


def error_body(message: str, uid: str | None, code: int) -> dict[str, Any]:
    """The JSON body of an HTTP ``code`` error answer: a failed ``v1`` ``Status`` carrying ``message`` (which the
    API server then shows, after its "failed calling webhook" prefix), plus ``error`` and ``uid`` for people."""
    body: dict[str, Any] = {
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": message,
        "reason": _STATUS_REASONS.get(code, "InternalError" if code >= 500 else "BadRequest"), "code": code,
        "error": message,
    }
    if uid is not None:
        body["uid"] = uid
    return body
