"""``binpack.resources`` that is not a comma-separated string: Volcano ignores it.

What it does:
    Reports a ``binpack.resources`` value that is a YAML list, a number, a boolean or a
    mapping.

Why it matters:
    Volcano reads the key only as a string; anything else is dropped without a message, so
    no extra resource (GPU, ...) is packed, and every ``binpack.resources.<name>`` weight is
    ignored with it.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.resources:
          - nvidia.com/gpu
          binpack.resources.nvidia.com/gpu: 2

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

CODE = codes.BINPACK_RESOURCES_NOT_STRING
NAME = "volcano-binpack-resources-not-string"
SUMMARY = "binpack.resources is not a string (ignored)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})

check = checks.binpack_resources_not_string
