"""JSON Schema violation not reported by another rule.

What it does:
    Runs `schemas/kubescheduler-config-v1.json` (the schema editors use) and reports its errors
    where no other rule already reported a problem, e.g. range errors behind a decode error that
    stops the scheduler before validation.

Why it matters:
    Keeps the published schema and the linter in agreement.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    parallelism: "8"
    percentageOfNodesToScore: 500

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    parallelism: 8
    percentageOfNodesToScore: 50
"""

from collections.abc import Iterator
from typing import Any

from linter.findings import Severity, Violation
from linter.formats.kubesched import codes
from linter.formats.kubesched.report import schema_only

CODE = codes.SCHEMA
NAME = "schema"
SUMMARY = "JSON Schema violation not reported by another rule"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})


def check(ctx: Any) -> Iterator[Violation]:
    return schema_only(ctx)
