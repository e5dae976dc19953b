"""kube-scheduler 1.22, the last release that read the Policy, would have refused it.

What it does:
    Runs 1.22's Policy validation and reports each error with its exact text: priority
    weights must be positive (``priority X should have a positive weight applied to it or it
    has overflown``); one RequestedToCapacityRatio custom priority only; labelPreference /
    serviceAntiAffinity priorities of one kind share one weight; an ``argument`` needs one
    of its members; ``hardPodAffinitySymmetricWeight`` in [0, 100]; extender weights and
    managed resources; then, when the legacy registry (BPL302) passes too, the arguments of
    the first RequestedToCapacityRatio priority with an unregistered name (shape points
    0..100 / 0..10, utilization strictly increasing, resource weights >= 1). A registered
    name carrying those arguments kept its own plugin: 1.22 never checked them.

Why it matters:
    On a cluster still at 1.22 or older the scheduler does not start with this Policy; for
    a migration, these values would be invalid in v1 as well.

Example (fails):
    {"kind": "Policy", "apiVersion": "v1",
     "priorities": [{"name": "LeastRequestedPriority", "weight": 0}]}

Use instead (passes):
    {"kind": "Policy", "apiVersion": "v1",
     "priorities": [{"name": "LeastRequestedPriority", "weight": 1}]}
"""

from linter.findings import Severity
from linter.formats.policy import checks, codes

CODE = codes.INVALID
NAME = "legacy-policy-invalid"
SUMMARY = "legacy Policy that kube-scheduler 1.22 would reject"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"legacy-policy"})

check = checks.invalid
