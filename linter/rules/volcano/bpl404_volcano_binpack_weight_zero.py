"""``binpack.weight: 0`` turns binpack's scoring off.

What it does:
    Reports a binpack plugin whose ``binpack.weight`` is the integer 0.

Why it matters:
    Volcano registers binpack's node-order function only for a non-zero weight (it logs
    ``binpack weight is zero, skip node order function``); the plugin is listed but packs
    nothing. When another binpack occurrence has a non-zero weight, the function that one
    registered is still called for this occurrence (Volcano keeps one function per plugin name
    and calls it once per occurrence whose ``enableNodeOrder`` is not false), so the other
    occurrence's arguments count twice. Remove the entry or give it a positive weight.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.weight: 0

Use instead (passes):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.weight: 1
"""

from linter.findings import Severity
from linter.formats.volcano import checks, codes

CODE = codes.BINPACK_WEIGHT_ZERO
NAME = "volcano-binpack-weight-zero"
SUMMARY = "binpack.weight 0 disables binpack scoring"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})

check = checks.binpack_weight_zero
