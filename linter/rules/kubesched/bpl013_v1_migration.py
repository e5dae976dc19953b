"""How a removed-version setting is written in v1.

What it does:
    For a file with a removed apiVersion (BPL011), says what the v1 spelling of its scoring setup
    is: the `RequestedToCapacityRatio`, `NodeResourcesMostAllocated` and
    `NodeResourcesLeastAllocated` plugins became `NodeResourcesFit` args `scoringStrategy`.

Why it matters:
    Changing only the apiVersion turns these plugins into names v1 ignores or rejects.

    ``binpack-lint migrate FILE`` does this rewrite, and the rest of the move to v1, in one
    step.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1beta1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - name: NodeResourcesMostAllocated
        args: {resources: [{name: cpu, weight: 1}]}

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - name: NodeResourcesFit
        args: {scoringStrategy: {type: MostAllocated}}
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.MIGRATION
NAME = "v1-migration"
SUMMARY = "how a removed-version setting is written in v1"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
