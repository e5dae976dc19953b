"""QueueSort differs between profiles or has several plugins.

What it does:
    All profiles must use the same queueSort plugin set and args; only one queueSort plugin.
    Args are compared after defaulting, as the scheduler compares them: a profile that writes
    out the defaults and one that leaves them out use the same args.
    Args of a plugin with no args kind (PrioritySort) are compared as written: in a JSON file
    byte for byte, so `{"x": 1}` and `{"x":1}` differ; the message shows them compacted, in the
    order written (YAML args are shown with sorted keys, as the YAML-to-JSON step writes them).
    Typed args of scheduler-plugins' queue sort plugins (`--scheduler scheduler-plugins`:
    Coscheduling, TopologicalSort) are shown as the scheduler prints its internal struct, defaulted
    and with Go field names: `{"PermitWaitingTimeSeconds":60,"PodGroupBackoffSeconds":0,
    "PodGroupRejectPercentage":11}`, `{"Namespaces":["default"]}` for an entry the scheduler added.

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - schedulerName: a
    - schedulerName: b
      plugins:
        queueSort:
          disabled: [{name: '*'}]

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - schedulerName: a
    - schedulerName: b
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.QUEUE_SORT
NAME = "queue-sort-mismatch"
SUMMARY = "queueSort differs between profiles or has several plugins"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
