"""PluginConfig args that do not match the plugin.

What it does:
    Reports a pluginConfig named after an args kind (`NodeResourcesFitArgs`), which validation
    rejects with `has to match plugin args`.
    The args are shown as json.Marshal prints them: compacted, in the order written in a JSON
    file, with sorted keys in a YAML one.

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - {name: NodeResourcesFitArgs, args: {}}

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - {name: NodeResourcesFit, args: {}}
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.ARGS_MISMATCH
NAME = "plugin-args-mismatch"
SUMMARY = "pluginConfig args that do not match the plugin"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
