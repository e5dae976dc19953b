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

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.PROFILE_NAME
NAME = "invalid-scheduler-name"
SUMMARY = "profile schedulerName missing or repeated"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
