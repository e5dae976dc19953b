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

from collections.abc import Iterator

from linter.findings import Severity, Violation
from linter.formats.volcano import binpack as bp
from linter.formats.volcano import codes
from linter.formats.volcano.decode import go_v
from linter.formats.volcano.handler import VolcanoContext

CODE = codes.BINPACK_RESOURCES_NOT_STRING
NAME = "volcano-binpack-resources-not-string"
SUMMARY = "binpack.resources is not a string (ignored)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})


def check(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.binpack_entries():
        if bp.RESOURCES not in entry.arguments:
            continue
        value = entry.arguments[bp.RESOURCES]
        if isinstance(value, str) or value is None:
            continue
        if isinstance(value, list):
            names = ", ".join(str(go_v(v)) for v in value)
            fix = f"write it as one string: \"binpack.resources: {names}\""
            what = "a YAML list"
        else:
            fix, what = "write a comma-separated string of resource names", f"not a string ({go_v(value)})"
        yield Violation(f"binpack.resources is {what}: Volcano only reads a comma-separated string and ignores "
                        f"it, so no extra resource is scored; {fix}", (*entry.arguments_pointer, bp.RESOURCES))
