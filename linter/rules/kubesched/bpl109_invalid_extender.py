"""Extender weight, bind or managed resources invalid.

What it does:
    A prioritizing extender needs a positive weight; one binder at most; managed resources must be
    unique extended resource names.

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    extenders:
    - {urlPrefix: 'http://x', prioritizeVerb: p, weight: 0}

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    extenders:
    - {urlPrefix: 'http://x', prioritizeVerb: p, weight: 1}
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.EXTENDER
NAME = "invalid-extender"
SUMMARY = "extender weight, bind or managed resources invalid"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
