"""A negative ``binpack.weight``: Volcano keeps it and turns bin-packing into spreading.

What it does:
    Reports a binpack plugin whose ``binpack.weight`` is a negative integer. binpack-guard's
    policy is that weights are never negative, so this is an error even though Volcano
    starts with it.

Why it matters:
    Volcano does not check ``binpack.weight``: the score is multiplied by it, so every node's
    binpack score becomes negative and the fullest nodes are ranked *last*, the opposite of
    bin-packing.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.weight: -5

Use instead (passes):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.weight: 5
"""

from linter.findings import Severity
from linter.formats.volcano import checks, codes

CODE = codes.BINPACK_NEGATIVE_WEIGHT
NAME = "volcano-binpack-negative-weight"
SUMMARY = "negative binpack.weight (Volcano keeps it and inverts every score)"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"volcano"})

check = checks.binpack_negative_weight
