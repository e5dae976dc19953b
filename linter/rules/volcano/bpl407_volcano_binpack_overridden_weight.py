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

from collections.abc import Iterator

from linter.findings import Severity, Violation
from linter.formats.volcano import binpack as bp
from linter.formats.volcano import codes
from linter.formats.volcano.handler import VolcanoContext, effective_binpack

CODE = codes.BINPACK_OVERRIDDEN_WEIGHT
NAME = "volcano-binpack-overridden-weight"
SUMMARY = "binpack.resources.cpu/memory has no effect (binpack.cpu/memory wins)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})


def check(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.binpack_entries():
        effective = effective_binpack(entry).resources
        for name, own_key in (("cpu", bp.CPU), ("memory", bp.MEMORY)):
            key = bp.RESOURCE_PREFIX + name
            if key in entry.arguments:
                yield Violation(f"{key} has no effect: Volcano always sets the {name} weight from {own_key} "
                                f"(here {effective[name]}); set {own_key} instead", (*entry.arguments_pointer, key),
                                on_key=True)
