"""A PriorityClass without ``value``.

What it does:
    Reports a PriorityClass manifest that does not set ``value``, or sets it to null (Go
    decodes null as the zero value, so the two are stored alike). Not for
    ``system-node-critical`` and ``system-cluster-critical``: they exist in every cluster, and
    applying one without ``value`` keeps the built-in's.

Why it matters:
    The API server does not require the field: the class is stored with value 0, the same
    priority as pods without any class, which is rarely what a class was created for.

Example (fails):
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: batch-high
    description: high priority batch jobs

Use instead (passes):
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: batch-high
    value: 100000
    description: high priority batch jobs
"""

from linter.findings import Severity
from linter.formats.priorityclass import checks, codes

CODE = codes.MISSING_VALUE
NAME = "priorityclass-missing-value"
SUMMARY = "PriorityClass without value (stored as 0)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"priorityclass"})

check = checks.missing_value
