"""``binpack.weight: 0`` turns binpack's scoring off.

What it does:
    Reports a binpack plugin whose ``binpack.weight`` is the integer 0.

Why it matters:
    Volcano registers binpack's node-order function only for a non-zero weight (it logs
    ``binpack weight is zero, skip node order function``); the plugin is listed but packs
    nothing. Remove the entry or give it a positive weight.

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

from collections.abc import Iterator

from linter.findings import Severity, Violation
from linter.formats.volcano import binpack as bp
from linter.formats.volcano import codes
from linter.formats.volcano.handler import VolcanoContext
from linter.goint import yaml_int

CODE = codes.BINPACK_WEIGHT_ZERO
NAME = "volcano-binpack-weight-zero"
SUMMARY = "binpack.weight 0 disables binpack scoring"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})


def check(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.binpack_entries():
        if yaml_int(entry.arguments.get(bp.WEIGHT)) == 0:
            yield Violation("binpack.weight is 0: Volcano does not register binpack's node-order function "
                            "(it logs \"binpack weight is zero, skip node order function\"), so binpack scores "
                            "nothing", (*entry.arguments_pointer, bp.WEIGHT))
