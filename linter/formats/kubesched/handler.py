"""KubeSchedulerConfiguration (any apiVersion of the kubescheduler.config.k8s.io group).

``analyze`` runs the full kube-scheduler 1.36 pipeline once (``linter.formats.kubesched.analysis``)
plus the JSON Schema; the rules in ``linter.rules.kubesched`` only pick their issues from the
context. ``model`` is the effective model when kube-scheduler would start with the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from linter.formats.kubesched import codes
from linter.formats.kubesched.analysis import Analysis, analyze
from linter.formats.kubesched.builds import VANILLA, Build
from linter.formats.kubesched.issues import Issue
from linter.formats.kubesched.versions import GROUP_PREFIXES, KIND
from linter.model import SchedulerModel
from linter.schema import SchemaError, validate
from linter.source import Document

SCHEMA_NAME = "kubescheduler-config-v1"
_NOT_V1 = {codes.TYPE_META, codes.REMOVED_VERSION, codes.UNKNOWN_VERSION}


@dataclass
class KubeSchedulerContext:
    document: Document
    analysis: Analysis
    model: SchedulerModel | None = None
    schema_errors: list[SchemaError] = field(default_factory=list)
    kind: str = "kube-scheduler"

    def issues(self, code: str) -> list[Issue]:
        return [i for i in self.analysis.issues if i.code == code]


class KubeSchedulerHandler:
    """Judges documents for one scheduler ``build`` (plain kube-scheduler 1.36 by default)."""

    kind = "kube-scheduler"

    def __init__(self, build: Build = VANILLA) -> None:
        self.build = build

    def matches(self, data: Any) -> bool:
        if not isinstance(data, dict):
            return False
        api_version, kind = data.get("apiVersion"), data.get("kind")
        if isinstance(api_version, str) and api_version.startswith(GROUP_PREFIXES[0]):
            return True
        return kind == KIND

    def analyze(self, document: Document) -> KubeSchedulerContext:
        result = analyze(document, self.build)
        ctx = KubeSchedulerContext(document, result, result.model)
        # The schema is a strict subset of the scheduler's own checks (the tests hold it to never
        # rejecting a file the scheduler accepts), so a file with no issue cannot fail it: skip the
        # jsonschema import and pass then. When there are issues, its findings add exact positions.
        if result.issues and not any(i.code in _NOT_V1 for i in result.issues):
            ctx.schema_errors = validate(document, SCHEMA_NAME)
        return ctx


HANDLER = KubeSchedulerHandler()
