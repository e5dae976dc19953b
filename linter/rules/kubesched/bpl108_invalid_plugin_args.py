"""DefaultPreemption, InterPodAffinity, NodeAffinity, PodTopologySpread, VolumeBinding or DynamicResources
args invalid.

What it does:
    Reports the scheduler's validation errors for these plugins' args (checked for every
    pluginConfig entry, enabled or not). NodeAffinity's ``addedAffinity`` is checked the way the
    plugin parses it (component-helpers ``nodeaffinity``), not with the API server's Pod rules:
    unknown operators, In/NotIn without values, Exists/DoesNotExist with values, Gt/Lt without
    exactly one int64 value, invalid label keys and values in ``matchExpressions`` (a value's
    path ends in ``values[i][<key>]``), and ``matchFields`` other than In/NotIn with one value.
    Terms with no requirements and preferred terms of weight 0 are skipped; preferred weights are
    not range-checked, ``matchFields`` keys are not checked, and a preferred term's path has no
    ``preference`` element, all as in the scheduler. Feature gates are the defaults of the
    build's Kubernetes: with ``--scheduler scheduler-plugins`` (Kubernetes 1.35,
    DRADeviceBindingConditions off) any DynamicResources ``bindingTimeout`` is forbidden.

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
SUMMARY = ("DefaultPreemption, InterPodAffinity, NodeAffinity, PodTopologySpread, VolumeBinding or DynamicResources "
           "args invalid")
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
