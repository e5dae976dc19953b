"""Score weights trip the framework's overflow guard.

What it does:
    Reports `total score of Score plugins could overflow` (a negative weight makes every later score
    plugin trip it).

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        score:
          enabled: [{name: NodeResourcesFit, weight: -1}]

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        score:
          enabled: [{name: NodeResourcesFit, weight: 1}]
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.WEIGHT_OVERFLOW
NAME = "score-weight-overflow"
SUMMARY = "score weights trip the framework's overflow guard"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
