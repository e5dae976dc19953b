"""``binpack.resources.cpu`` / ``binpack.resources.memory``: always overridden by ``binpack.cpu`` / ``binpack.memory``.

What it does:
    Reports ``binpack.resources.cpu`` and ``binpack.resources.memory`` keys.

Why it matters:
    After reading the ``binpack.resources`` list Volcano overwrites the cpu and memory
    weights with ``binpack.cpu`` and ``binpack.memory`` (default 1), so these keys never
    have any effect.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.resources: cpu, nvidia.com/gpu
          binpack.resources.cpu: 10

Use instead (passes):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.cpu: 10
          binpack.resources: nvidia.com/gpu
"""

from linter.findings import Severity
from linter.formats.volcano import checks, codes

CODE = codes.BINPACK_OVERRIDDEN_WEIGHT
NAME = "volcano-binpack-overridden-weight"
SUMMARY = "binpack.resources.cpu/memory has no effect (binpack.cpu/memory wins)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})

check = checks.binpack_overridden_weight
