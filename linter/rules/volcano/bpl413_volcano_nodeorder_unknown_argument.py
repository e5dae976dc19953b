"""An argument the nodeorder plugin does not read.

What it does:
    Reports nodeorder ``arguments`` keys other than the eight weights it reads:
    ``nodeaffinity.weight``, ``podaffinity.weight``, ``leastrequested.weight``,
    ``mostrequested.weight``, ``balancedresource.weight``, ``tainttoleration.weight``,
    ``imagelocality.weight`` and ``podtopologyspread.weight``. A key written with a
    ``nodeorder.`` prefix (``nodeorder.mostrequested.weight``) or an ``.enable`` switch is such a key.

Why it matters:
    Volcano ignores unknown keys without a message, so the default weight stays. For bin packing
    that default is the opposite of what was asked: ``mostrequested`` keeps weight 0 (off) and
    ``leastrequested`` keeps 1, which spreads pods.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: nodeorder
        arguments:
          nodeorder.mostrequested.weight: 10

Use instead (passes):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: nodeorder
        arguments:
          mostrequested.weight: 10
"""

from linter.findings import Severity
from linter.formats.volcano import checks, codes

CODE = codes.NODEORDER_UNKNOWN_ARGUMENT
NAME = "volcano-nodeorder-unknown-argument"
SUMMARY = "unknown nodeorder argument (ignored)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})

check = checks.nodeorder_unknown_argument
