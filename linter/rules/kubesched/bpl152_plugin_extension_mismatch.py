"""Plugin enabled at a point it does not implement, or twice.

What it does:
    Reports `plugin "X" does not extend ScorePlugin plugin` and `already registered as` errors.

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        score:
          enabled: [{name: NodePorts}]

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        filter:
          enabled: [{name: NodePorts}]
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.EXTENSION_MISMATCH
NAME = "plugin-extension-mismatch"
SUMMARY = "plugin enabled at a point it does not implement, or twice"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
