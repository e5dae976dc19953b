"""Admission ``Decision`` builders for the API server's error kinds: 422 Invalid, 403 Forbidden, 400 BadRequest.

The message texts themselves (field errors, ``NewInvalid``/``NewForbidden`` wording, Go
quoting) are built in :mod:`linter.formats.priorityclass.validate` and :mod:`linter.gofmt`, shared with the
linter, so a denial reads exactly like the in-tree one and both tools say the same thing.
"""

from __future__ import annotations

from linter.formats.priorityclass.validate import forbidden_message
from webhook.admission.encode import Decision


def invalid(message: str) -> Decision:
    """``apierrors.NewInvalid``: 422 ``Invalid`` carrying an already rendered message."""
    return Decision.deny(422, "Invalid", message)


def forbidden_decision(qualified_resource: str, name: str, why: str) -> Decision:
    """``apierrors.NewForbidden``: 403 ``Forbidden``, ``<resource> "<name>" is forbidden: <why>``."""
    return Decision.deny(403, "Forbidden", forbidden_message(name, why, qualified_resource))


def bad_request(message: str) -> Decision:
    """A valid review carrying something this endpoint cannot judge (wrong kind, no object, undecodable field)."""
    return Decision.deny(400, "BadRequest", message)
