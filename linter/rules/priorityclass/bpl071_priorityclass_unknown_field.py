"""A PriorityClass manifest has a field the API does not know.

What it does:
    Reports keys that ``scheduling.k8s.io/v1`` PriorityClass (and its ``metadata``) does not
    have, e.g. ``preemptPolicy`` or a ``spec:`` wrapper.

Why it matters:
    With the default strict field validation ``kubectl apply`` rejects the object
    (``unknown field``); clients that do not ask for strict validation get the field
    silently dropped, so the setting the author meant never takes effect.

Example (fails):
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: batch-low
    value: 10
    preemptPolicy: Never

Use instead (passes):
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: batch-low
    value: 10
    preemptionPolicy: Never
"""

from linter.findings import Severity
from linter.formats.priorityclass import checks, codes

CODE = codes.UNKNOWN_FIELD
NAME = "priorityclass-unknown-field"
SUMMARY = "unknown field in a PriorityClass"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"priorityclass"})

check = checks.unknown_field
