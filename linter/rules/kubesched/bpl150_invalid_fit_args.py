"""NodeResourcesFit args rejected when the plugin is built.

What it does:
    Checks NodeResourcesFit args the way the plugin does at start-up: scoringStrategy type, resource
    weights in (0, 100], the RequestedToCapacityRatio shape. The message is the scheduler's
    `initializing profiles: ... initializing plugin "NodeResourcesFit": ...` text.

Why it matters:
    These errors appear only when kube-scheduler starts, after config validation passed.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - name: NodeResourcesFit
        args: {scoringStrategy: {type: MostAllocated, resources: [{name: cpu, weight: 101}]}}

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - name: NodeResourcesFit
        args: {scoringStrategy: {type: MostAllocated, resources: [{name: cpu, weight: 100}]}}
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.FIT_ARGS
NAME = "invalid-fit-args"
SUMMARY = "NodeResourcesFit args rejected when the plugin is built"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
