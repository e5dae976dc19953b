"""A key appears twice in the same mapping of a PriorityClass manifest.

What it does:
    Reports the second (and later) occurrence of a key in one mapping.

Why it matters:
    Only the last value is kept, so the first one is silently ignored, e.g. a ``value``
    the author reads at the top of the file is not the one the cluster gets.

Example (fails):
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: batch-high
    value: 1000
    value: 10

Use instead (passes):
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: batch-high
    value: 1000
"""

from linter.findings import Severity
from linter.formats.priorityclass import checks, codes

CODE = codes.DUPLICATE_KEY
NAME = "priorityclass-duplicate-key"
SUMMARY = "duplicate key in a PriorityClass (the last value wins)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"priorityclass"})

check = checks.duplicate_key
