"""PluginConfig for a plugin that is not enabled or does not exist.

What it does:
    kube-scheduler keeps args of unknown plugin names opaque and ignores configuration of plugins it
    does not build, without a message. The docs' `RequestedToCapacityRatio` pluginConfig is such a case.

Why it matters:
    The configuration looks active but changes nothing.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - name: RequestedToCapacityRatio
        args: {shape: [{utilization: 0, score: 0}]}

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - name: NodeResourcesFit
        args:
          scoringStrategy:
            type: RequestedToCapacityRatio
            requestedToCapacityRatio: {shape: [{utilization: 0, score: 0}, {utilization: 100, score: 10}]}
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.UNUSED_CONFIG
NAME = "unused-plugin-config"
SUMMARY = "pluginConfig for a plugin that is not enabled or does not exist"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
