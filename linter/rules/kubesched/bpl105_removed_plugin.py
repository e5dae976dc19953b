"""Plugin name removed in v1 (EBSLimits, GCEPDLimits, AzureDiskLimits, CinderLimits).

What it does:
    Reports the removed volume-limit plugins in an extension point's enabled list or in pluginConfig
    (`was invalid in version "v1"`).

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        filter:
          enabled: [{name: EBSLimits}]

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        filter:
          enabled: [{name: NodeVolumeLimits}]
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.REMOVED_PLUGIN
NAME = "removed-plugin"
SUMMARY = "plugin name removed in v1 (EBSLimits, GCEPDLimits, AzureDiskLimits, CinderLimits)"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
