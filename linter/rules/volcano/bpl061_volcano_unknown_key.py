"""A key Volcano does not read (it is ignored without any message).

What it does:
    Reports keys that ``conf.SchedulerConfiguration`` does not have at the top level, in a
    tier, in a plugin entry or in a ``configurations`` item, and suggests the closest key
    Volcano reads at that same level (the plugin switches mix ``enable...`` and ``enabled...``
    spellings).

Why it matters:
    yaml.v2 decodes leniently: a misspelt ``enabledNodeOrder`` or an ``argument:`` block is
    dropped silently and the plugin runs with its defaults.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        argument:
          binpack.weight: 10

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

CODE = codes.UNKNOWN_KEY
NAME = "volcano-unknown-key"
SUMMARY = "key ignored by Volcano"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})

check = checks.unknown_key
