"""A key appears twice in one mapping of a legacy Policy (1.22 refused the file).

What it does:
    Reports the second (and later) occurrence of a key in the same JSON object or YAML mapping.

Why it matters:
    kube-scheduler 1.19-1.22 decoded the Policy strictly: a repeated key (JSON or YAML) made
    it exit with ``invalid policy: strict decoder error for ...``. The other 1.22 checks
    (BPL301/302) are then skipped.

Example (fails):
    {"kind": "Policy", "apiVersion": "v1",
     "priorities": [{"name": "MostRequestedPriority", "weight": 1, "weight": 5}]}

Use instead (passes):
    {"kind": "Policy", "apiVersion": "v1",
     "priorities": [{"name": "MostRequestedPriority", "weight": 5}]}
"""

from linter.findings import Severity
from linter.formats.policy import checks, codes

CODE = codes.DUPLICATE_KEY
NAME = "legacy-policy-duplicate-key"
SUMMARY = "duplicate key in a legacy Policy (1.22 refused the file)"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"legacy-policy"})

check = checks.duplicate_key
