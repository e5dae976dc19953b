"""The Policy's RequestedToCapacityRatio shape scores full nodes lower than empty ones: it spreads.

What it does:
    Warns when the ``requestedToCapacityRatioArguments.shape`` of a legacy Policy priority gives
    the point with the highest ``utilization`` a lower ``score`` than the point with the lowest
    (the same check as BPL206 for KubeSchedulerConfigurations).

Why it matters:
    The scheduler interpolates the shape over each resource's utilization; a falling shape makes
    the emptiest node win, which spreads pods. Articles that introduce this priority as
    "bin packing" show both directions, and a migration copies the shape as it is.

Example (fails):
    {"kind": "Policy", "apiVersion": "v1",
     "priorities": [{"name": "RequestedToCapacityRatioPriority", "weight": 2,
       "argument": {"requestedToCapacityRatioArguments": {
         "shape": [{"utilization": 0, "score": 10}, {"utilization": 100, "score": 0}]}}}]}

Use instead (passes):
    {"kind": "Policy", "apiVersion": "v1",
     "priorities": [{"name": "RequestedToCapacityRatioPriority", "weight": 2,
       "argument": {"requestedToCapacityRatioArguments": {
         "shape": [{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}]}}}]}
"""

from linter.findings import Severity
from linter.formats.policy import checks, codes

CODE = codes.SHAPE_SPREADS
NAME = "legacy-shape-spreads"
SUMMARY = "Policy RequestedToCapacityRatio shape falls with utilization: spreads instead of packing"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"legacy-policy"})

check = checks.shape_spreads
