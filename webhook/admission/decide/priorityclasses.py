"""PriorityClass admission: the API server's create/update checks and the plugin's one-default rule.

(reference/priority.md §2.) The validation and its message texts are
:mod:`linter.formats.priorityclass.validate` -- the same code the linter runs -- applied in the API
server's order: v1 defaulting, field validation (422 ``Invalid``), then the Priority
plugin's globalDefault uniqueness (403 ``Forbidden``, the lowest-valued existing default
named). What is the webhook's own: fields the API server could never have decoded (400),
the built-in ``system-`` classes being undeletable, and the cluster-wide claim
(``DefaultClassClaim``): two replicas can each see "no default yet" at the same instant, so a
non-dry-run request that makes a class the default must also win the claim; deleting or
un-defaulting a class releases it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from linter import schema
from linter.formats.priorityclass import validate as pc
from linter.formats.priorityclass.handler import SCHEMA_NAME
from webhook.admission.decide.k8serrors import bad_request, forbidden_decision, invalid
from webhook.admission.decide.priority import default_class, object_display_name
from webhook.admission.decode import AdmissionRequest
from webhook.admission.encode import Decision
from webhook.admission.ports import ClusterView, DefaultClassClaim, require_ready

log = logging.getLogger(__name__)

GROUP = "scheduling.k8s.io"
QUALIFIED_RESOURCE = "priorityclasses.scheduling.k8s.io"


class _Malformed(ValueError):
    """A field has a JSON type the API server could never have decoded."""


def decide(
    request: AdmissionRequest, view: ClusterView, claim: DefaultClassClaim | None, until: float | None = None
) -> Decision:
    """Judge a PriorityClass CREATE/UPDATE/DELETE against the view's class snapshot; the claim (and any live
    read it needs) waits no later than ``until``, the review's deadline (``time.monotonic()``)."""
    if request.kind.group != GROUP or request.kind.kind != "PriorityClass":
        return bad_request(f"expected a {GROUP} PriorityClass, got kind {request.kind.kind!r}")
    if request.operation == "DELETE":
        return _delete(request, claim, until)
    if request.operation not in ("CREATE", "UPDATE"):
        return Decision.allow()
    if request.object is None:
        return bad_request(f"request.object: missing on {request.operation}")
    if request.operation == "UPDATE" and request.old_object is None:
        return bad_request("request.oldObject: missing on UPDATE")
    try:
        new = defaulted(request.object)
        old = defaulted(request.old_object) if request.operation == "UPDATE" and request.old_object else None
    except _Malformed as exc:
        return bad_request(str(exc))
    # the name the API server validates: a review without one (never sent by a live API server, which
    # generates it first) is judged under generateName + "xxxxx"
    name = pc.effective_name(new)
    errors = pc.validate_update(old, new) if old is not None else pc.validate_create(new)
    if errors:
        return invalid(pc.invalid_message(name, errors))
    if new["globalDefault"] is True:
        require_ready(view)  # uniqueness is judged against the cache: only a synced, fresh one
        existing = default_class(view.priority_classes())
        holder = pc.conflicting_default(name, existing.name if existing is not None else None, update=old is not None)
        if holder is not None:
            return _already_default(name, holder)
        becomes_default = old is None or old["globalDefault"] is not True
        if becomes_default and not request.dry_run and claim is not None:
            return _claim(name, view, claim, until)
    elif old is not None and old["globalDefault"] is True and not request.dry_run and claim is not None:
        _release(name, claim, until)
    return Decision.allow()


def defaulted(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The type checks JSON decoding would do (``_Malformed`` -> 400), then v1 defaulting.

    Every field is checked against the linter's PriorityClass schema (unknown fields aside: they are the
    apiserver's strict decoding, done before any webhook); a null is the field's zero value, as Go decodes
    it. Defaulting is :func:`linter.formats.priorityclass.validate.apply_defaults`; absent or null ``value``
    and ``globalDefault`` are filled with their zero values so later steps can index them.
    """
    for pointer, message in schema.type_errors(obj, SCHEMA_NAME):
        if pointer[:1] not in (("apiVersion",), ("kind",)):  # the review's kind was checked already
            raise _Malformed(message)
    value, global_default = obj.get("value"), obj.get("globalDefault")
    if isinstance(value, float):  # 5.0: an integer to JSON Schema, not to Go's decoder into an int32
        raise _Malformed(f"value: must be an integer or null, not {value!r}")
    return {**pc.apply_defaults(obj), "value": value or 0, "globalDefault": global_default is True}


def _already_default(name: str, holder: str) -> Decision:
    return forbidden_decision(QUALIFIED_RESOURCE, name, pc.already_default_reason(holder))


def _claim(name: str, view: ClusterView, claim: DefaultClassClaim, until: float | None) -> Decision:
    def is_still_default(holder: str) -> bool:
        # The cache first; a holder it lacks is read live, so a claim naming a class that does not exist
        # (a create that failed after we answered) stops blocking once its in-flight grace is over, while a
        # class the cache has not seen yet keeps its claim. A failed live read raises: uniqueness is unproven.
        info = view.priority_classes().get(holder) or view.read_priority_class(holder, until=until)
        return info is not None and info.global_default

    try:
        holder = claim.claim(name, is_still_default=is_still_default, until=until)
    except Exception as exc:  # the lease API failing must deny, not crash: uniqueness is unproven
        log.warning("globalDefault claim for %s failed: %s", name, exc)
        return Decision.deny(
            500, "InternalError", f"cannot claim the cluster-wide globalDefault lease for {name}: {exc}"
        )
    if holder is not None and holder != name:
        return _already_default(name, holder)
    return Decision.allow()


def _delete(request: AdmissionRequest, claim: DefaultClassClaim | None, until: float | None) -> Decision:
    name = request.name or object_display_name(request.old_object)
    if pc.builtin(name) is not None:
        return forbidden_decision(QUALIFIED_RESOURCE, name, "this is a system priority class and cannot be deleted")
    old = request.old_object
    was_default = old is None or old.get("globalDefault") is True
    if was_default and not request.dry_run and claim is not None:
        _release(name, claim, until)
    return Decision.allow()


def _release(name: str, claim: DefaultClassClaim, until: float | None) -> None:
    try:
        claim.release(name, until=until)
    except Exception as exc:  # best effort: a stale claim is taken over once its class is gone
        log.warning("releasing the globalDefault claim of %s failed: %s", name, exc)
