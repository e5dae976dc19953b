"""NodeResourcesBalancedAllocation weight not 1 or resource repeated.

What it does:
    BalancedAllocation resource weights must be exactly 1 and names unique.

Why it matters:
    kube-scheduler refuses to start; the weight cannot tune BalancedAllocation.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - name: NodeResourcesBalancedAllocation
        args: {resources: [{name: cpu, weight: 2}]}

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - name: NodeResourcesBalancedAllocation
        args: {resources: [{name: cpu, weight: 1}]}
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.BALANCED_ARGS
NAME = "balanced-allocation-args"
SUMMARY = "NodeResourcesBalancedAllocation weight not 1 or resource repeated"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
