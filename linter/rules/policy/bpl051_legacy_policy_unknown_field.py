"""A legacy Policy key that the Policy API does not have (1.22 refused the file).

What it does:
    Reports keys the 1.22 Policy types do not define, e.g. ``priority`` for ``priorities``,
    ``argument.requestedToCapacityRatio`` for ``requestedToCapacityRatioArguments`` or
    ``enableHTTPS`` for the Policy's ``enableHttps`` (keys match case-sensitively). The other
    1.22 checks (BPL301/302) are then skipped: 1.22 never got that far.

Why it matters:
    kube-scheduler 1.19-1.22 decoded the Policy with the scheduler scheme's strict decoder
    (json-iterator, case-sensitive, unknown fields refused): it exited with ``invalid policy:
    strict decoder error for ...``.

Example (fails):
    {"kind": "Policy", "apiVersion": "v1",
     "priority": [{"name": "MostRequestedPriority", "weight": 1}]}

Use instead (passes):
    {"kind": "Policy", "apiVersion": "v1",
     "priorities": [{"name": "MostRequestedPriority", "weight": 1}]}
"""

from linter.findings import Severity
from linter.formats.policy import checks, codes

CODE = codes.UNKNOWN_FIELD
NAME = "legacy-policy-unknown-field"
SUMMARY = "unknown key in a legacy Policy (1.22 refused the file)"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"legacy-policy"})

check = checks.unknown_field
