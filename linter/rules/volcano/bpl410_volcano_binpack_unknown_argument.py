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

import difflib
from collections.abc import Iterator

from linter.findings import Severity, Violation
from linter.formats.volcano import binpack as bp
from linter.formats.volcano import codes
from linter.formats.volcano.handler import VolcanoContext

CODE = codes.BINPACK_UNKNOWN_ARGUMENT
NAME = "volcano-binpack-unknown-argument"
SUMMARY = "unknown binpack argument (ignored)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})

_KNOWN = (bp.WEIGHT, bp.CPU, bp.MEMORY, bp.RESOURCES)


def check(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.binpack_entries():
        for key in entry.arguments:
            if bp.is_known_key(key):
                continue
            close = difflib.get_close_matches(key, _KNOWN, n=1, cutoff=0.7)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            yield Violation(f"binpack does not read argument {key!r}; Volcano ignores it{hint}",
                            (*entry.arguments_pointer, key), on_key=True)
