"""Resource listed twice in scoringStrategy.resources.

What it does:
    kube-scheduler accepts repeated resource names and scores the resource once per entry.

Why it matters:
    The resource gets the sum of both weights, which is rarely what was meant.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - name: NodeResourcesFit
        args: {scoringStrategy: {type: MostAllocated, resources: [{name: cpu, weight: 1}, {name: cpu, weight: 2}]}}

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - name: NodeResourcesFit
        args: {scoringStrategy: {type: MostAllocated, resources: [{name: cpu, weight: 3}]}}
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.DUPLICATE_RESOURCE
NAME = "duplicate-resource"
SUMMARY = "resource listed twice in scoringStrategy.resources"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
