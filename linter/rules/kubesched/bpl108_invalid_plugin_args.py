"""DefaultPreemption, InterPodAffinity, PodTopologySpread, VolumeBinding or DynamicResources args invalid.

What it does:
    Reports the scheduler's validation errors for these plugins' args (checked for every
    pluginConfig entry, enabled or not).

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - {name: InterPodAffinity, args: {hardPodAffinityWeight: 101}}

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - {name: InterPodAffinity, args: {hardPodAffinityWeight: 100}}
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.PLUGIN_ARGS
NAME = "invalid-plugin-args"
SUMMARY = "DefaultPreemption, InterPodAffinity, PodTopologySpread, VolumeBinding or DynamicResources args invalid"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
