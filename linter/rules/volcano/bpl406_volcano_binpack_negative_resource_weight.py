"""A negative resource weight in binpack arguments: Volcano silently resets it to 1.

What it does:
    Reports ``binpack.cpu``, ``binpack.memory`` and ``binpack.resources.<listed name>`` when
    they are negative integers. binpack-guard's policy is that weights are never negative, so
    this is an error even though Volcano starts with it.

Why it matters:
    Volcano replaces any negative resource weight with 1 without a message: the file says
    one thing, the scheduler does another (``-1`` meant "avoid" is read as "pack").

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.memory: -1

Use instead (passes):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.memory: 0
"""

from collections.abc import Iterator

from linter.findings import Severity, Violation
from linter.formats.volcano import binpack as bp
from linter.formats.volcano import codes
from linter.formats.volcano.handler import VolcanoContext
from linter.goint import yaml_int

CODE = codes.BINPACK_NEGATIVE_RESOURCE_WEIGHT
NAME = "volcano-binpack-negative-resource-weight"
SUMMARY = "negative binpack resource weight (Volcano silently uses 1)"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"volcano"})


def check(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.binpack_entries():
        for key in bp.int_keys_read(entry.arguments):
            if key == bp.WEIGHT:
                continue
            weight = yaml_int(entry.arguments[key])
            if weight is not None and weight < 0:
                yield Violation(f"{key} is {weight}: Volcano silently resets a negative resource weight to 1; "
                                f"weights must not be negative (use 0 to leave the resource out)",
                                (*entry.arguments_pointer, key))
