"""A predicate or priority kube-scheduler 1.22's legacy registry refused (it exited at start-up).

What it does:
    Reports, with the texts of the 1.22 legacy registry (errors since 1.21, before that
    ``klog.Fatalf``): predicates and priorities whose name has no config producer and that carry
    no custom-predicate/priority argument (``predicate type not found for "X"``,
    ``priority type not found for "X"``; ``RequestedToCapacityRatioPriority`` and
    ``ResourceLimitsPriority`` are not registered in 1.22), arguments with other than one member
    (``exactly 1 priority argument is required, numArgs: 2, priority {X 1 0x...}``, ``0x...``
    standing for a memory address), and a ``NodeLabel``/``ServiceAffinity`` priority whose plugin
    args no custom entry filled (``panic: runtime error: invalid memory address or nil pointer
    dereference``). 1.22 stopped at the first; each is reported.

Why it matters:
    The scheduler exited (``couldn't create scheduler from policy: ...``), so no pod was scheduled.

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
SUMMARY = "predicate/priority the 1.22 legacy registry refused (1.22 exited)"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"legacy-policy"})

check = checks.unknown_name
