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

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.GLOBAL
NAME = "invalid-global-field"
SUMMARY = "parallelism, percentageOfNodesToScore, backoff or burst out of range"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
