"""Field unknown to the v1 types (strict decoding).

What it does:
    Reports fields the v1 Go types do not have, including inside typed plugin args and with wrong
    case (`Type` instead of `type`), with the scheduler's `strict decoding error: unknown field` text.

Why it matters:
    kube-scheduler 1.36 decodes strictly: a typo stops it from starting.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    percentageOfNodesToScor: 50

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    percentageOfNodesToScore: 50
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.UNKNOWN_FIELD
NAME = "unknown-field"
SUMMARY = "field unknown to the v1 types (strict decoding)"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
