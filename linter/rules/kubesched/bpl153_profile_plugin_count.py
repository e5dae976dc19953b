"""No queueSort plugin, several, or no bind plugin.

What it does:
    A profile needs exactly one queueSort plugin and at least one bind plugin.

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        multiPoint:
          disabled: [{name: '*'}]

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.PROFILE_PLUGINS
NAME = "profile-plugin-count"
SUMMARY = "no queueSort plugin, several, or no bind plugin"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
