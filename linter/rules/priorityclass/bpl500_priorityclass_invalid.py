"""The API server would refuse this PriorityClass (422 Invalid).

What it does:
    Runs kube-apiserver 1.36's PriorityClass create validation and reports each field error
    with the API server's own text, in its order: the name (and a ``generateName`` prefix)
    must be a lowercase RFC 1123 subdomain; label keys and annotation keys must be qualified
    names (annotation keys compared lower-cased), label values valid label values, and all
    annotations together at most 256 KiB; names starting with ``system-`` are reserved for the
    two built-in classes (exact name, value and ``globalDefault: false``); ``value`` may be at
    most 1000000000 for other classes (negative values are fine); ``preemptionPolicy`` must be
    ``PreemptLowerPriority`` or ``Never``. Several bad labels or annotations are listed in the
    manifest's order (the API server's order among them is random).

    Like the API server, it first clears ``metadata.namespace`` (the object is cluster-scoped,
    so a namespace, e.g. one a Helm chart stamps on every object, is simply dropped) and, when
    there is no ``name``, generates one from ``generateName``: the prefix plus five random
    characters, written here as ``xxxxx`` (e.g. ``batch-xxxxx``), which is validated like a
    written name.

    The documents of the run are taken as applied in order (``kubectl apply``): one whose name
    already exists is an update, judged by the update checks alone. For a class defined earlier in
    the files that is BPL503's. ``system-node-critical`` and ``system-cluster-critical`` exist in
    every cluster, so applying one is an update of the built-in class, reported here: ``value``
    and ``preemptionPolicy`` may not differ from the built-in's (``value: Forbidden: may not be
    changed in an update.``), a field the document omits keeps the built-in's value, and
    ``globalDefault: true`` is allowed (that class is then the default, see BPL501).

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

check_corpus = checks.invalid
