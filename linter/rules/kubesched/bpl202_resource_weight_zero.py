"""Resource weight 0 (silently becomes 1).

What it does:
    A resource weight of 0 in NodeResourcesFit or BalancedAllocation args is defaulted to 1.

Why it matters:
    Writing 0 to switch a resource off does the opposite: it keeps counting with weight 1.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - name: NodeResourcesFit
        args: {scoringStrategy: {type: MostAllocated, resources: [{name: cpu, weight: 0}]}}

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - name: NodeResourcesFit
        args: {scoringStrategy: {type: MostAllocated, resources: [{name: cpu, weight: 1}]}}
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.RESOURCE_WEIGHT_ZERO
NAME = "resource-weight-zero"
SUMMARY = "resource weight 0 (silently becomes 1)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
