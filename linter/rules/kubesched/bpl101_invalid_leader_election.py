"""Leader election durations or resourceLock invalid.

What it does:
    With leader election on: durations must be positive, leaseDuration longer than renewDeadline,
    and resourceLock `leases`.

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    leaderElection:
      leaseDuration: 5s
      renewDeadline: 10s

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    leaderElection:
      leaseDuration: 15s
      renewDeadline: 10s
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.LEADER
NAME = "invalid-leader-election"
SUMMARY = "leader election durations or resourceLock invalid"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
