"""NodeResourcesFit args configured while the plugin is not enabled.

What it does:
    When NodeResourcesFit is disabled (multiPoint `disabled`), its args are neither validated nor
    used; the message shows the first error they would raise. When an extender marks a resource
    `ignoredByScheduler: true`, the entry itself must stay (BPL156): `args: {}` (or no args) is then
    not reported, and other args are reported with the advice to write `args: {}`.

Why it matters:
    Bin-packing settings there have no effect, and their errors surface only once the plugin is enabled.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        multiPoint:
          disabled: [{name: NodeResourcesFit}]
      pluginConfig:
      - name: NodeResourcesFit
        args: {scoringStrategy: {type: MostAllocated}}

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

CODE = codes.FIT_ARGS_UNCHECKED
NAME = "fit-args-unchecked"
SUMMARY = "NodeResourcesFit args configured while the plugin is not enabled"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
