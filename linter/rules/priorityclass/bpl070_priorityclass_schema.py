"""A PriorityClass field has the wrong type, or apiVersion/kind is not scheduling.k8s.io/v1 PriorityClass.

What it does:
    Checks the manifest against ``schemas/priorityclass-v1.json``: ``value`` an int32 integer,
    ``globalDefault`` a boolean, ``preemptionPolicy``/``description`` strings, ``apiVersion``
    exactly ``scheduling.k8s.io/v1``.

Why it matters:
    The API server cannot decode such an object (``value: "1000"`` is a string, not an
    int32) and refuses it. A manifest without ``apiVersion`` is refused by kubectl before it is
    sent; ``scheduling.k8s.io/v1beta1`` and ``v1alpha1`` are no longer served, and the apiserver
    answers ``no matches for kind "PriorityClass" in version ...``: the fix is ``scheduling.k8s.io/v1``.

Example (fails):
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: batch-high
    value: "1000"

Use instead (passes):
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: batch-high
    value: 1000
"""

from linter.findings import Severity
from linter.formats.priorityclass import checks, codes

CODE = codes.SCHEMA
NAME = "priorityclass-schema"
SUMMARY = "PriorityClass field of the wrong type or wrong apiVersion/kind"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"priorityclass"})

check = checks.schema
