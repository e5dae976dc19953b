"""The same plugin is listed more than once.

What it does:
    Reports every repeated plugin name across all tiers.

Why it matters:
    Volcano keeps one callback per plugin *name*: each occurrence's setup replaces the
    previous one's, and the scoring loop then calls that last callback once per enabled
    occurrence. For binpack this means the arguments of the last entry with a non-zero
    ``binpack.weight`` (an entry with weight 0 registers nothing) are used, and counted once per
    entry whose ``enableNodeOrder`` is not false, whatever the other entries say.

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

from linter.findings import Severity
from linter.formats.volcano import checks, codes

CODE = codes.DUPLICATE_PLUGIN
NAME = "volcano-duplicate-plugin"
SUMMARY = "plugin listed more than once (the last occurrence's setup wins)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})

check = checks.duplicate_plugin
