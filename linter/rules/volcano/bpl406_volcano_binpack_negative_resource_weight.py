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

from linter.findings import Severity
from linter.formats.volcano import checks, codes

CODE = codes.BINPACK_NEGATIVE_RESOURCE_WEIGHT
NAME = "volcano-binpack-negative-resource-weight"
SUMMARY = "negative binpack resource weight (Volcano silently uses 1)"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"volcano"})

check = checks.binpack_negative_resource_weight
