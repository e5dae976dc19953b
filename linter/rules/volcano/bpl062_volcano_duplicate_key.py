"""A key appears twice in one mapping of a Volcano conf.

What it does:
    Reports the second (and later) occurrence of a key in the same mapping, and a key a merge
    key (`<<`) stores into a mapping that already holds it (yaml.v2 merges in place, so
    whichever comes later wins). A repeated `arguments` (or `metrics`) is not replaced:
    yaml.v2 adds the later keys to the map the field already holds.

Why it matters:
    yaml.v2 (non-strict, as Volcano uses it) keeps the last value without a word, so the
    first ``binpack.weight`` a reader sees may not be the one Volcano uses.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.weight: 10
          binpack.weight: 1

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

CODE = codes.DUPLICATE_KEY
NAME = "volcano-duplicate-key"
SUMMARY = "duplicate key in a Volcano conf (the last value wins)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})

check = checks.duplicate_key
