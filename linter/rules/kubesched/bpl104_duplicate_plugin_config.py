"""A plugin configured twice in one profile.

What it does:
    Reports a second pluginConfig entry with the same name.

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - {name: NodeResourcesFit, args: {}}
      - {name: NodeResourcesFit, args: {}}

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - {name: NodeResourcesFit, args: {}}
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.DUPLICATE_CONFIG
NAME = "duplicate-plugin-config"
SUMMARY = "a plugin configured twice in one profile"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
