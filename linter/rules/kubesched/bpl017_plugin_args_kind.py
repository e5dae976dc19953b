"""Plugin args that do not decode as the plugin's args kind.

What it does:
    Reports `pluginConfig[].args` whose own apiVersion/kind is not the plugin's args kind, or that
    are not a mapping. Args naming another registered args kind are first decoded as that kind, as
    the scheduler does: a wrong type for that kind is reported instead (BPL016, `Go struct field
    InterPodAffinityArgs...`).

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - name: NodeResourcesFit
        args: {kind: InterPodAffinityArgs}

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - name: NodeResourcesFit
        args: {}
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.ARGS_KIND
NAME = "plugin-args-kind"
SUMMARY = "plugin args that do not decode as the plugin's args kind"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
