"""Profile schedulerName missing or repeated.

What it does:
    Every profile needs a unique non-empty schedulerName (only a single profile gets
    `default-scheduler` by default).

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - schedulerName: a
    - {}

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - schedulerName: a
    - schedulerName: b
"""

from collections.abc import Iterator
from typing import Any

from linter.findings import Severity, Violation
from linter.formats.kubesched import codes
from linter.formats.kubesched.report import violations

CODE = codes.PROFILE_NAME
NAME = "invalid-scheduler-name"
SUMMARY = "profile schedulerName missing or repeated"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})


def check(ctx: Any) -> Iterator[Violation]:
    return violations(ctx, CODE)
