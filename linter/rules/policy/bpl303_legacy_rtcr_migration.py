"""How to express the Policy's RequestedToCapacityRatio priority in a v1 KubeSchedulerConfiguration.

What it does:
    For a Policy whose RequestedToCapacityRatio priority 1.22 accepted, prints the v1
    equivalent on one line (compact JSON, which is valid YAML): NodeResourcesFit with
    ``scoringStrategy.type: RequestedToCapacityRatio``, the same shape and resources
    (absent resources: cpu 1, memory 1), and score-plugin weight W = the priority's weight.
    Shape scores keep their 0..10 values; node scores now run 0..100 (each shape score x10).

Why it matters:
    The Policy no longer works (BPL300); this is the drop-in replacement.

    ``binpack-lint migrate FILE`` writes it for you, together with the Policy's other
    priorities.

Example (fails):
    {"kind": "Policy", "apiVersion": "v1",
     "priorities": [{"name": "RequestedToCapacityRatioPriority", "weight": 2,
       "argument": {"requestedToCapacityRatioArguments": {
         "shape": [{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}]}}}]}

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - schedulerName: default-scheduler
      plugins:
        score:
          enabled:
          - name: NodeResourcesFit
            weight: 2
      pluginConfig:
      - name: NodeResourcesFit
        args:
          scoringStrategy:
            type: RequestedToCapacityRatio
            resources:
            - name: cpu
              weight: 1
            - name: memory
              weight: 1
            requestedToCapacityRatio:
              shape:
              - utilization: 0
                score: 0
              - utilization: 100
                score: 10
"""

from linter.findings import Severity
from linter.formats.policy import checks, codes

CODE = codes.RTCR_MIGRATION
NAME = "legacy-rtcr-migration"
SUMMARY = "v1 equivalent of the Policy's RequestedToCapacityRatio priority"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"legacy-policy"})

check = checks.rtcr_migration
