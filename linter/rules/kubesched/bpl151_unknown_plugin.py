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

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.UNKNOWN_PLUGIN
NAME = "unknown-plugin"
SUMMARY = "enabled plugin name that kube-scheduler 1.36 does not have"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
