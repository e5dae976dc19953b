"""A key appears twice in one mapping of a legacy Policy.

What it does:
    Reports the second (and later) occurrence of a key in the same JSON object or YAML mapping.

Why it matters:
    The decoder kept the last value silently; the first one a reader sees is not the one used.

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
SUMMARY = "duplicate key in a legacy Policy (the last value wins)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"legacy-policy"})

check = checks.duplicate_key
