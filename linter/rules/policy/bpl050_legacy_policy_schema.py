"""A legacy Policy field has a type kube-scheduler 1.22 could not decode.

What it does:
    Checks the Policy against ``schemas/legacy-policy-v1.json``: integer weights (int64),
    integer shape points (int32), string names, boolean switches, ``apiVersion: v1``. ``null``
    is accepted anywhere (Go's zero value). In a JSON file a number written with a fraction or
    an exponent (``1.0``, ``1e2``) is refused for an integer field, as 1.22's JSON decoder did;
    in YAML ``1.0`` reached the decoder as ``1`` and is accepted.

Why it matters:
    Even the releases that read the Policy (up to 1.22) refused to start with such a file.
    While a field does not decode, the 1.22 validation (BPL301) is not run.

Example (fails):
    {"kind": "Policy", "apiVersion": "v1",
     "priorities": [{"name": "LeastRequestedPriority", "weight": "1"}]}

Use instead (passes):
    {"kind": "Policy", "apiVersion": "v1",
     "priorities": [{"name": "LeastRequestedPriority", "weight": 1}]}
"""

from linter.findings import Severity
from linter.formats.policy import checks, codes

CODE = codes.SCHEMA
NAME = "legacy-policy-schema"
SUMMARY = "legacy Policy field of the wrong type"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"legacy-policy"})

check = checks.schema
