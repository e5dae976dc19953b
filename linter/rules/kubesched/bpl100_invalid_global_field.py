"""Parallelism, percentageOfNodesToScore, backoff or burst out of range.

What it does:
    Reports the scheduler's validation errors for `parallelism`, `percentageOfNodesToScore` (global
    and per profile), `podInitialBackoffSeconds`, `podMaxBackoffSeconds` and `clientConnection.burst`.

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    parallelism: 0

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    parallelism: 16
"""

from collections.abc import Iterator
from typing import Any

from linter.findings import Severity, Violation
from linter.formats.kubesched import codes
from linter.formats.kubesched.report import violations

CODE = codes.GLOBAL
NAME = "invalid-global-field"
SUMMARY = "parallelism, percentageOfNodesToScore, backoff or burst out of range"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})


def check(ctx: Any) -> Iterator[Violation]:
    return violations(ctx, CODE)
