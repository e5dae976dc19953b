"""Enabled plugin name that kube-scheduler 1.36 does not have.

What it does:
    Reports an enabled plugin that is not registered (`ScorePlugin "X" does not exist`).

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        score:
          enabled: [{name: RequestedToCapacityRatio}]

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        score:
          enabled: [{name: NodeResourcesFit}]
"""

from collections.abc import Iterator
from typing import Any

from linter.findings import Severity, Violation
from linter.formats.kubesched import codes
from linter.formats.kubesched.report import violations

CODE = codes.UNKNOWN_PLUGIN
NAME = "unknown-plugin"
SUMMARY = "enabled plugin name that kube-scheduler 1.36 does not have"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})


def check(ctx: Any) -> Iterator[Violation]:
    return violations(ctx, CODE)
