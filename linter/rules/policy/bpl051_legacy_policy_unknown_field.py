"""A legacy Policy key that the Policy API does not have (it was ignored).

What it does:
    Reports keys the 1.22 Policy types do not define, e.g. ``priority`` for ``priorities``
    or ``argument.requestedToCapacityRatio`` for ``requestedToCapacityRatioArguments``.

Why it matters:
    The Policy was decoded leniently: an unknown key was dropped without a word, so a
    misspelt priority list selected the *default* priorities instead.

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
SUMMARY = "unknown key in a legacy Policy (ignored)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"legacy-policy"})

check = checks.unknown_field
