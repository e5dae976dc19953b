"""Scheduler-config ConfigMaps: the same verdict the ``binpack-lint`` CLI gives, at admission time.

Only ConfigMaps labelled ``binpack-guard.io/scheduler-config: "true"`` are judged (the
webhook's objectSelector sends only those; anything else that arrives is allowed
untouched). Every ``data`` value is handed to ``linter.engine.lint_text`` with the data
key as its path (for the scheduler build the ``scheduler_build`` setting names); a value
the linter does not recognise as a scheduler config (rule
BPL004) is not a config and is ignored. An error finding denies the request (422,
first findings listed as ``key:line:col [BPLnnn] message``); warnings go back to the
user as AdmissionResponse ``warnings``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from linter.engine import lint_text
from linter.filecodes import UNRECOGNIZED_DOCUMENT as CODE_UNRECOGNIZED
from linter.findings import Finding, Severity
from linter.gofmt import go_quote
from linter.settings import LintSettings
from webhook.admission.decide.k8serrors import bad_request
from webhook.admission.decode import AdmissionRequest
from webhook.admission.encode import Decision

SELECTOR_LABEL = "binpack-guard.io/scheduler-config"
MAX_LISTED_ERRORS = 5
MAX_WARNINGS = 20
MAX_WARNING_CHARS = 119  # the API server asks for warnings under 120 characters

Linter = Callable[[str, str], list[Finding]]


def _lint(text: str, path: str) -> list[Finding]:
    return lint_text(text, path)


def linter_for(scheduler_build: str) -> Linter:
    """The linter that judges kube-scheduler configs for ``scheduler_build`` (the webhook's setting)."""
    if scheduler_build == "kube-scheduler":
        return _lint
    settings = LintSettings(scheduler=scheduler_build)
    return lambda text, path: lint_text(text, path, settings)


def is_selected(obj: Mapping[str, object]) -> bool:
    metadata = obj.get("metadata")
    labels = metadata.get("labels") if isinstance(metadata, Mapping) else None
    return isinstance(labels, Mapping) and labels.get(SELECTOR_LABEL) == "true"


def decide(request: AdmissionRequest, lint: Linter = _lint) -> Decision:
    """Lint every data value of a labelled ConfigMap on CREATE/UPDATE."""
    if request.kind.group != "" or request.kind.kind != "ConfigMap":
        return bad_request(f"expected a v1 ConfigMap, got kind {request.kind.kind!r}")
    if request.operation not in ("CREATE", "UPDATE"):
        return Decision.allow()
    obj = request.object
    if obj is None:
        return bad_request(f"request.object: missing on {request.operation}")
    if not is_selected(obj):
        return Decision.allow()
    data = obj.get("data") or {}
    if not isinstance(data, Mapping):
        return bad_request("object.data: must be a map of strings")
    findings: list[Finding] = []
    for key, text in data.items():
        if not isinstance(text, str):
            return bad_request(f"object.data[{key!r}]: must be a string")
        findings.extend(f for f in lint(text, str(key)) if f.rule != CODE_UNRECOGNIZED)
    errors = [f for f in findings if f.severity is Severity.ERROR]
    warnings = _warnings([f for f in findings if f.severity is not Severity.ERROR])
    if errors:
        return Decision.deny(422, "Invalid", _denial(obj, errors), warnings)
    return Decision.allow(warnings=warnings)


def format_finding(finding: Finding) -> str:
    return f"{finding.path}:{finding.line}:{finding.column} [{finding.rule}] {finding.message}"


def _denial(obj: Mapping[str, object], errors: Sequence[Finding]) -> str:
    metadata = obj.get("metadata")
    name = metadata.get("name") if isinstance(metadata, Mapping) else None
    listed = "; ".join(" ".join(format_finding(f).split()) for f in errors[:MAX_LISTED_ERRORS])
    more = len(errors) - MAX_LISTED_ERRORS
    tail = f"; and {more} more error(s)" if more > 0 else ""
    return (
        f"ConfigMap {go_quote(name if isinstance(name, str) else '')} holds an invalid scheduler "
        f"configuration: {listed}{tail}"
    )


def _warnings(findings: Sequence[Finding]) -> list[str]:
    out = [_shorten(" ".join(format_finding(f).split())) for f in findings[:MAX_WARNINGS]]
    if len(findings) > MAX_WARNINGS:
        out.append(f"... and {len(findings) - MAX_WARNINGS} more warning(s); run binpack-lint for all of them")
    return out


def _shorten(text: str) -> str:
    return text if len(text) <= MAX_WARNING_CHARS else text[: MAX_WARNING_CHARS - 3] + "..."
