"""The same plugin is listed more than once.

What it does:
    Reports every repeated plugin name across all tiers.

Why it matters:
    Volcano keeps one callback per plugin *name*: each occurrence's setup replaces the
    previous one's, and the scoring loop then calls that last callback once per enabled
    occurrence. For binpack this means the last entry's arguments are used, and counted
    twice, whatever the first entry says.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.weight: 10
    - plugins:
      - name: binpack

Use instead (passes):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.weight: 10
"""

from collections.abc import Iterator

from linter.findings import Severity, Violation
from linter.formats.volcano import codes
from linter.formats.volcano.handler import VolcanoContext

CODE = codes.DUPLICATE_PLUGIN
NAME = "volcano-duplicate-plugin"
SUMMARY = "plugin listed more than once (the last occurrence's setup wins)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})


def check(ctx: VolcanoContext) -> Iterator[Violation]:
    first: dict[str, tuple[int, int]] = {}
    for entry in ctx.plugins:
        if not entry.name:
            continue
        if entry.name not in first:
            first[entry.name] = (entry.tier, entry.index)
            continue
        tier, index = first[entry.name]
        yield Violation(f"plugin {entry.name!r} is already listed at tiers[{tier}].plugins[{index}]: Volcano keeps "
                        f"one callback per plugin name, so the last occurrence's arguments apply to every "
                        f"occurrence", (*entry.pointer, "name") if "name" in entry.option else entry.pointer)
