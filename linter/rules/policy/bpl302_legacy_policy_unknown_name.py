"""A predicate or priority kube-scheduler 1.22 did not know (it exited at start-up).

What it does:
    Reports predicates and priorities whose name is not a built-in one and that carry no
    custom-predicate/priority argument, and arguments with more (or fewer) than one member,
    with the texts of the 1.22 legacy registry's fatal exits
    (``Invalid configuration: Priority type not found for "X"``,
    ``Exactly 1 priority argument is required, numArgs: 2, Priority: X``).

Why it matters:
    The scheduler logged the message and exited, so no pod was scheduled.

Example (fails):
    {"kind": "Policy", "apiVersion": "v1",
     "priorities": [{"name": "MostRequested", "weight": 1}]}

Use instead (passes):
    {"kind": "Policy", "apiVersion": "v1",
     "priorities": [{"name": "MostRequestedPriority", "weight": 1}]}
"""

from linter.findings import Severity
from linter.formats.policy import checks, codes

CODE = codes.UNKNOWN_NAME
NAME = "legacy-policy-unknown-name"
SUMMARY = "unknown predicate/priority in a legacy Policy (1.22 exited)"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"legacy-policy"})

check = checks.unknown_name
