"""``enableNodeOrder: false`` on binpack: its scores are never used.

What it does:
    Reports a binpack plugin entry with ``enableNodeOrder: false``.

Why it matters:
    binpack only acts through node ordering; with the switch off the session skips its
    scores, so the plugin does nothing while the file looks like it packs.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        enableNodeOrder: false

Use instead (passes):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
"""

from collections.abc import Iterator

from linter.findings import Severity, Violation
from linter.formats.volcano import codes
from linter.formats.volcano.handler import VolcanoContext

CODE = codes.BINPACK_NODE_ORDER_DISABLED
NAME = "volcano-binpack-node-order-disabled"
SUMMARY = "enableNodeOrder: false on binpack (it never scores)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})


def check(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.binpack_entries():
        if entry.option.get("enableNodeOrder") is False:
            yield Violation("enableNodeOrder is false: Volcano never calls binpack's node-order function, so "
                            "binpack has no effect", (*entry.pointer, "enableNodeOrder"))
