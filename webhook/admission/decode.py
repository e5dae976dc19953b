"""AdmissionReview v1 decoding: request body bytes -> ``AdmissionRequest`` (or ``MalformedReview``).

Decoding is strict about the envelope and lenient about the object: a body that is not
an ``admission.k8s.io/v1`` AdmissionReview with a ``request.uid`` is a ``MalformedReview``
(HTTP 400); anything wrong *inside* a valid review (an object of another kind, a missing
object) is answered with a well-formed denial that echoes the uid, because only then
can the API server show the reason to the user.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from webhook.errors import one_line

API_VERSION = "admission.k8s.io/v1"
OPERATIONS = ("CREATE", "UPDATE", "DELETE", "CONNECT")


class MalformedReview(ValueError):
    """The body is not a usable AdmissionReview; answered with HTTP 400 (``uid`` echoed if known)."""

    def __init__(self, message: str, uid: str | None = None) -> None:
        super().__init__(message)
        self.uid = uid


@dataclass(frozen=True)
class GroupVersionKind:
    group: str
    version: str
    kind: str


@dataclass(frozen=True)
class AdmissionRequest:
    """The parts of ``AdmissionReview.request`` the decisions read."""

    uid: str
    kind: GroupVersionKind
    operation: str
    name: str
    namespace: str
    object: Mapping[str, Any] | None
    old_object: Mapping[str, Any] | None
    dry_run: bool
    sub_resource: str = ""
    username: str = ""


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")  # the only way a lone surrogate gets into JSON text
_MAX_INT_DIGITS = 20  # more digits than any int64/uint64 has: Go's decoders reject it as out of range


def _go_int(text: str) -> int | float:
    """A JSON integer; one longer than any Go integer becomes a float (±inf for absurd lengths) instead of
    hitting Python's 4,300-digit int conversion limit, so it is judged as an out-of-range number."""
    return int(text) if len(text.lstrip("-")) <= _MAX_INT_DIGITS else float(text)


def _replace_lone_surrogates(value: Any) -> Any:
    """Go's JSON decoder turns an unpaired ``\\udXXX`` escape into U+FFFD; do the same, everywhere."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, dict):
        return {_replace_lone_surrogates(k): _replace_lone_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_replace_lone_surrogates(v) for v in value]
    return value


def decode(body: bytes) -> AdmissionRequest:
    """Parse a request body; raise ``MalformedReview`` with a one-line reason on any envelope problem."""
    try:
        document = json.loads(body, parse_int=_go_int)
        if _SURROGATE_ESCAPE.search(body):
            document = _replace_lone_surrogates(document)
    except RecursionError:
        raise MalformedReview("body is not JSON: nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, over-long integers
        raise MalformedReview(f"body is not JSON: {one_line(exc)}") from None
    if not isinstance(document, dict):
        raise MalformedReview("body is not a JSON object")
    request = document.get("request")
    uid = _uid_of(request)
    if document.get("kind") != "AdmissionReview":
        raise MalformedReview(f"kind must be AdmissionReview, got {_short(document.get('kind'))}", uid)
    if document.get("apiVersion") != API_VERSION:
        raise MalformedReview(f"apiVersion must be {API_VERSION}, got {_short(document.get('apiVersion'))}", uid)
    if not isinstance(request, dict):
        raise MalformedReview("request: missing or not an object", uid)
    if uid is None:
        raise MalformedReview("request.uid: missing or not a non-empty string")
    operation = request.get("operation")
    if operation not in OPERATIONS:
        raise MalformedReview(f"request.operation: must be one of {', '.join(OPERATIONS)}", uid)
    obj = request.get("object")
    old = request.get("oldObject")
    for label, value in (("object", obj), ("oldObject", old)):
        if value is not None and not isinstance(value, dict):
            raise MalformedReview(f"request.{label}: must be an object or null", uid)
    user = request.get("userInfo")
    return AdmissionRequest(
        uid=uid,
        kind=_gvk(request.get("kind"), uid),
        operation=operation,
        name=_str(request.get("name")),
        namespace=_str(request.get("namespace")),
        object=obj,
        old_object=old,
        dry_run=request.get("dryRun") is True,
        sub_resource=_str(request.get("subResource")),
        username=_str(user.get("username")) if isinstance(user, dict) else "",
    )


def _uid_of(request: object) -> str | None:
    if isinstance(request, dict):
        uid = request.get("uid")
        if isinstance(uid, str) and uid:
            return uid
    return None


def _gvk(raw: object, uid: str) -> GroupVersionKind:
    if not isinstance(raw, dict) or not isinstance(raw.get("kind"), str):
        raise MalformedReview("request.kind: must be an object with group, version and kind", uid)
    return GroupVersionKind(_str(raw.get("group")), _str(raw.get("version")), raw["kind"])


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _short(value: object) -> str:
    if not isinstance(value, str):
        return "null" if value is None else f"a JSON {type(value).__name__}"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
