"""``enableNodeOrder: false`` on binpack: its scores are never used.

What it does:
    Reports a binpack plugin entry with ``enableNodeOrder: false``, or written ``NULL`` or
    ``Null``: yaml.v2 leaves a ``*bool`` unset (so true) only for ``null``, ``~`` or no value;
    for the other spellings of null it sets the switch to false.

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

from linter.findings import Severity
from linter.formats.volcano import checks, codes

CODE = codes.BINPACK_NODE_ORDER_DISABLED
NAME = "volcano-binpack-node-order-disabled"
SUMMARY = "enableNodeOrder: false on binpack (it never scores)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})

check = checks.binpack_node_order_disabled
