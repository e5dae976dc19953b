"""A RequestedToCapacityRatio shape whose score falls as utilization rises spreads pods.

What it does:
    Looks at every ``RequestedToCapacityRatio`` shape (``NodeResourcesFit`` args
    ``scoringStrategy.requestedToCapacityRatio.shape``, or the pre-v1beta2
    ``RequestedToCapacityRatio`` plugin's ``shape``) and warns when the point with the highest
    ``utilization`` has a lower ``score`` than the point with the lowest.

Why it matters:
    kube-scheduler accepts any such shape without a word, and scores nodes by interpolating it
    over each resource's utilization. A falling shape gives the emptiest nodes the highest
    score: pods are spread, not packed. The Kubernetes documentation's own example
    (``utilization: 0, score: 10`` then ``utilization: 100, score: 0``) is such a shape, and it
    is copied into configs whose stated aim is bin packing.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - name: NodeResourcesFit
        args:
          scoringStrategy:
            type: RequestedToCapacityRatio
            requestedToCapacityRatio:
              shape:
              - {utilization: 0, score: 10}
              - {utilization: 100, score: 0}

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - pluginConfig:
      - name: NodeResourcesFit
        args:
          scoringStrategy:
            type: RequestedToCapacityRatio
            requestedToCapacityRatio:
              shape:
              - {utilization: 0, score: 0}
              - {utilization: 100, score: 10}
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, shapes

CODE = codes.SHAPE_SPREADS
NAME = "shape-spreads"
SUMMARY = "RequestedToCapacityRatio shape falls with utilization: spreads instead of packing"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"kube-scheduler"})

check = shapes.spreads
