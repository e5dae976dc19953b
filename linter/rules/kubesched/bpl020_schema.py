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

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.SCHEMA
NAME = "schema"
SUMMARY = "JSON Schema violation not reported by another rule"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.schema_only
