"""The API server would refuse this PriorityClass (422 Invalid).

What it does:
    Runs kube-apiserver 1.36's PriorityClass create validation and reports each field error
    with the API server's own text: the name must be a lowercase RFC 1123 subdomain; names
    starting with ``system-`` are reserved for the two built-in classes (exact name, value and
    ``globalDefault: false``); ``value`` may be at most 1000000000 for other classes
    (negative values are fine); ``preemptionPolicy`` must be ``PreemptLowerPriority`` or
    ``Never``; a namespace is not allowed (the object is cluster-scoped).

Why it matters:
    ``kubectl apply`` fails with ``PriorityClass.scheduling.k8s.io "<name>" is invalid: ...``
    and every pod naming the class is then rejected at admission.

Example (fails):
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: system-batch
    value: 2000000000

Use instead (passes):
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: batch-critical
    value: 1000000000
"""

from linter.findings import Severity
from linter.formats.priorityclass import checks, codes

CODE = codes.INVALID
NAME = "priorityclass-invalid"
SUMMARY = "PriorityClass rejected by the API server's validation"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"priorityclass"})

check = checks.invalid
