"""What the kube-scheduler analysis reports: one ``Issue`` per problem, tagged with its rule code.

Rules filter the context's issues by code, so every check runs once, in the scheduler's own
order. ``stage`` is where the real scheduler stops for it (``decode``, ``validate``, ``init``)
or ``lint`` for binpack-guard's own findings that the scheduler does not make.
"""

from __future__ import annotations

from dataclasses import dataclass

from linter.findings import Severity
from linter.source import Pointer

SCHEME = 'in scheme "pkg/runtime/scheme.go:111"'


@dataclass(frozen=True)
class Issue:
    code: str
    stage: str
    message: str
    pointer: Pointer = ()
    on_key: bool = False
    position: tuple[int, int] | None = None  # document-local line/column, overrides pointer
    severity: Severity | None = None
    detail: str = ""  # the scheduler's verbatim text when ``message`` is a readable summary of it
    hint: str = ""  # binpack-lint's suggestion ("did you mean"), added after the message, never to the detail
