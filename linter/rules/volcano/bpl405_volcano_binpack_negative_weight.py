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

from collections.abc import Iterator

from linter.findings import Severity, Violation
from linter.formats.volcano import binpack as bp
from linter.formats.volcano import codes
from linter.formats.volcano.handler import VolcanoContext
from linter.goint import yaml_int

CODE = codes.BINPACK_NEGATIVE_WEIGHT
NAME = "volcano-binpack-negative-weight"
SUMMARY = "negative binpack.weight (Volcano keeps it and inverts every score)"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"volcano"})


def check(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.binpack_entries():
        weight = yaml_int(entry.arguments.get(bp.WEIGHT))
        if weight is not None and weight < 0:
            yield Violation(f"binpack.weight is {weight}: Volcano keeps a negative weight and multiplies every "
                            f"binpack score by it, ranking the fullest nodes last; weights must not be negative",
                            (*entry.arguments_pointer, bp.WEIGHT))
