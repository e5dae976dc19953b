"""The legacy scheduler Policy was removed in Kubernetes 1.23.

What it does:
    Reports every ``kind: Policy`` document (a ``--policy-config-file`` file or a
    ``policy.cfg`` ConfigMap key), whatever its content.

Why it matters:
    kube-scheduler 1.23 removed the Policy API together with its flags
    (``--policy-config-file``, ``--policy-configmap``, ``--policy-configmap-namespace``,
    ``--use-legacy-policy-config``): a current scheduler either refuses the flag or never
    reads the ConfigMap, so the bin-packing priority in it does nothing. Move the settings
    to a KubeSchedulerConfiguration (BPL303 prints the equivalent of a
    RequestedToCapacityRatio priority).

    ``binpack-lint migrate FILE`` fixes it in one step: it writes the KubeSchedulerConfiguration
    (v1) profile kube-scheduler 1.22 built from the Policy (every priority with its weight, the
    predicates as filters, the extenders); a ``policy.cfg`` ConfigMap stays a ConfigMap.

Example (fails):
    {"kind": "Policy", "apiVersion": "v1",
     "priorities": [{"name": "MostRequestedPriority", "weight": 1}]}

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - schedulerName: default-scheduler
      pluginConfig:
      - name: NodeResourcesFit
        args:
          scoringStrategy:
            type: MostAllocated
"""

from linter.findings import Severity
from linter.formats.policy import checks, codes

CODE = codes.REMOVED
NAME = "legacy-policy-removed"
SUMMARY = "legacy scheduler Policy: removed in Kubernetes 1.23"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"legacy-policy"})

check = checks.removed
