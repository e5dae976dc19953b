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

from collections.abc import Iterator
from typing import Any

from linter.findings import Severity, Violation
from linter.formats.kubesched import codes
from linter.formats.kubesched.report import violations

CODE = codes.BALANCED_ARGS
NAME = "balanced-allocation-args"
SUMMARY = "NodeResourcesBalancedAllocation weight not 1 or resource repeated"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})


def check(ctx: Any) -> Iterator[Violation]:
    return violations(ctx, CODE)
