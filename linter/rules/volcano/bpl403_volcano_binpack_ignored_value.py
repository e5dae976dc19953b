"""A binpack weight that is not a YAML integer: Volcano ignores it and keeps the default 1.

What it does:
    Checks every key the binpack plugin reads as an int (``binpack.weight``, ``binpack.cpu``,
    ``binpack.memory``, ``binpack.resources.<listed name>``): Volcano takes the value only if
    yaml.v2 decoded it to a Go ``int``. A quoted ``"10"``, a float (``2.5`` and even
    ``2.0``), a boolean, a list or null is dropped with only a log line
    (``Could not parse argument: 10 for key binpack.weight to int``).

Why it matters:
    The weight the author wrote is silently replaced by 1, changing how strongly binpack
    packs and how it balances cpu against memory or GPUs.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.weight: "10"
          binpack.cpu: 2.5

Use instead (passes):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.weight: 10
          binpack.cpu: 3
"""

from linter.findings import Severity
from linter.formats.volcano import checks, codes

CODE = codes.BINPACK_IGNORED_VALUE
NAME = "volcano-binpack-ignored-value"
SUMMARY = "binpack weight that is not a YAML integer (ignored, default 1 used)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})

check = checks.binpack_ignored_value
