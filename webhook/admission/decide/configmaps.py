"""Scheduler-config ConfigMaps: the same verdict the ``binpack-lint`` CLI gives, at admission time.

Only ConfigMaps labelled ``binpack-guard.io/scheduler-config: "true"`` are judged (the
webhook's objectSelector sends only those; anything else that arrives is allowed
untouched). The ``data`` is handed to the linter (``linter.engine.lint_configmap_data`` for the
scheduler build the ``scheduler_build`` setting names, run by the server in a bounded child
process: ``webhook.server.boundedlint``), which reads it as ``binpack-lint`` reads the ConfigMap's
manifest, with each data key as the path of its findings. A value that holds no scheduler config,
Volcano conf or PriorityClass is ignored. An error finding denies the request (422,
first findings listed as ``key:line:col [BPLnnn] message``); warnings go back to the
user as AdmissionResponse ``warnings``. An UPDATE that leaves ``data`` as stored is allowed whatever
its findings: the scheduler already reads that data, so a denial would only block metadata edits
(finalizers, annotations, the label itself); its errors come back as warnings instead. A linter
that hits its time or memory bound raises ``LintLimitExceeded``, and the ConfigMap is denied with
that reason (it could not be checked), unless it is such an UPDATE.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from linter.engine import lint_configmap_data
from linter.filecodes import UNRECOGNIZED_DOCUMENT as CODE_UNRECOGNIZED
from linter.findings import Finding, Severity, one_line
from linter.gofmt import go_quote
from linter.settings import LintSettings
from webhook.admission.decide.k8serrors import bad_request
from webhook.admission.decode import AdmissionRequest
from webhook.admission.encode import Decision

SELECTOR_LABEL = "binpack-guard.io/scheduler-config"
MAX_LISTED_ERRORS = 5
MAX_WARNINGS = 20
MAX_WARNING_CHARS = 119  # the API server asks for warnings under 120 characters

Linter = Callable[[Mapping[str, str]], list[Finding]]  # {data key: text} -> findings (paths = data keys)


class LintLimitExceeded(Exception):
    """The linter stopped at its time or memory bound; the message says which."""


def lint_in_process(data: Mapping[str, str], scheduler_build: str = "kube-scheduler") -> list[Finding]:
    """Lint the data as ``binpack-lint`` lints the ConfigMap, kube-scheduler configs judged for ``scheduler_build``."""
    return lint_configmap_data(data, LintSettings(scheduler=scheduler_build))


def linter_for(scheduler_build: str) -> Linter:
    """An unbounded in-process linter for ``scheduler_build`` (tests, the offline ``review`` command)."""
    return lambda data: lint_in_process(data, scheduler_build)


def is_selected(obj: Mapping[str, object]) -> bool:
    metadata = obj.get("metadata")
    labels = metadata.get("labels") if isinstance(metadata, Mapping) else None
    return isinstance(labels, Mapping) and labels.get(SELECTOR_LABEL) == "true"


def decide(request: AdmissionRequest, lint: Linter = lint_in_process) -> Decision:
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
    for key, text in data.items():
        if not isinstance(text, str):
            return bad_request(f"object.data[{key!r}]: must be a string")
    try:
        findings = [f for f in lint({str(k): v for k, v in data.items()}) if f.rule != CODE_UNRECOGNIZED]
    except LintLimitExceeded as exc:
        if _data_unchanged(request):
            return Decision.allow(warnings=[_unchanged_note(obj, f"it was not checked: {exc}")])
        return Decision.deny(422, "Invalid", f"ConfigMap {go_quote(_name(obj))} was not checked: {exc}; "
                             "lint it with binpack-lint before applying it")
    errors = [f for f in findings if f.severity is Severity.ERROR]
    others = [f for f in findings if f.severity is not Severity.ERROR]
    if errors and _data_unchanged(request):
        head = _unchanged_note(obj, f"it holds {len(errors)} error(s)")
        return Decision.allow(warnings=[head, *_warnings([*errors, *others], len(errors))])
    if errors:
        return Decision.deny(422, "Invalid", _denial(obj, errors), _warnings(others))
    return Decision.allow(warnings=_warnings(others))


def _unchanged_note(obj: Mapping[str, object], what: str) -> str:
    """The first warning of an UPDATE allowed because it keeps the stored data."""
    return _shorten(f"ConfigMap {go_quote(_name(obj))}: data unchanged, so this update is allowed; {what}")


def _data_unchanged(request: AdmissionRequest) -> bool:
    """An UPDATE whose ``data`` equals the stored object's (a missing ``data`` is an empty one)."""
    old = request.old_object
    if request.operation != "UPDATE" or not isinstance(old, Mapping) or request.object is None:
        return False
    return (old.get("data") or {}) == (request.object.get("data") or {})


def format_finding(finding: Finding) -> str:
    """``key:line:col [BPLnnn] message`` as one printable line: control characters escaped as the CLI's
    text output escapes them (the API server drops a warning that holds one), whitespace runs collapsed."""
    return " ".join(one_line(f"{finding.path}:{finding.line}:{finding.column} [{finding.rule}] {finding.message}")
                    .split())


def _denial(obj: Mapping[str, object], errors: Sequence[Finding]) -> str:
    listed = "; ".join(format_finding(f) for f in errors[:MAX_LISTED_ERRORS])
    more = len(errors) - MAX_LISTED_ERRORS
    tail = f"; and {more} more error(s)" if more > 0 else ""
    return (
        f"ConfigMap {go_quote(_name(obj))} holds an invalid scheduler "
        f"configuration: {listed}{tail}"
    )


def _name(obj: Mapping[str, object]) -> str:
    metadata = obj.get("metadata")
    name = metadata.get("name") if isinstance(metadata, Mapping) else None
    return name if isinstance(name, str) else ""


def _warnings(findings: Sequence[Finding], marked_errors: int = 0) -> list[str]:
    """One line per finding; the first ``marked_errors`` are errors let through, marked ``error:``."""
    out = [_shorten(("error: " if i < marked_errors else "") + format_finding(f))
           for i, f in enumerate(findings[:MAX_WARNINGS])]
    if len(findings) > MAX_WARNINGS:
        out.append(f"... and {len(findings) - MAX_WARNINGS} more warning(s); run binpack-lint for all of them")
    return out


def _shorten(text: str) -> str:
    return text if len(text) <= MAX_WARNING_CHARS else text[: MAX_WARNING_CHARS - 3] + "..."
