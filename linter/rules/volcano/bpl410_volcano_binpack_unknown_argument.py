"""An argument the binpack plugin does not read.

What it does:
    Reports binpack ``arguments`` keys other than ``binpack.weight``, ``binpack.cpu``,
    ``binpack.memory``, ``binpack.resources`` and ``binpack.resources.<name>``, e.g.
    ``binpack.gpu`` or a bare ``weight``.

Why it matters:
    Volcano ignores unknown keys without a message; the intended weight never applies.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.nvidia.com/gpu: 2

Use instead (passes):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.resources: nvidia.com/gpu
          binpack.resources.nvidia.com/gpu: 2
"""

from linter.findings import Severity
from linter.formats.volcano import checks, codes

CODE = codes.BINPACK_UNKNOWN_ARGUMENT
NAME = "volcano-binpack-unknown-argument"
SUMMARY = "unknown binpack argument (ignored)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})

check = checks.binpack_unknown_argument
