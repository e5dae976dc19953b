"""A nodeorder weight that is not a YAML integer: Volcano ignores it and keeps that weight's default.

What it does:
    Checks the eight weights nodeorder reads (``leastrequested.weight``, ``mostrequested.weight``,
    ``balancedresource.weight`` and the others): Volcano takes a value only if yaml.v2 decoded it to a
    Go ``int``. A quoted ``"10"``, a float (even ``2.0``), a boolean, a list or null is dropped with
    only a log line (``Could not parse argument: 10 for key mostrequested.weight to int``).

Why it matters:
    The default stays: ``mostrequested`` 0, ``leastrequested`` 1, ``balancedresource`` 1,
    ``nodeaffinity`` 2, ``podaffinity`` 2, ``tainttoleration`` 3, ``imagelocality`` 1,
    ``podtopologyspread`` 2. A bin-packing conf that writes ``mostrequested.weight: "10"`` spreads
    pods instead.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: nodeorder
        arguments:
          mostrequested.weight: "10"
          leastrequested.weight: 0.0

Use instead (passes):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: nodeorder
        arguments:
          mostrequested.weight: 10
          leastrequested.weight: 0
"""

from linter.findings import Severity
from linter.formats.volcano import checks, codes

CODE = codes.NODEORDER_IGNORED_VALUE
NAME = "volcano-nodeorder-ignored-value"
SUMMARY = "nodeorder weight that is not an integer (ignored)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})

check = checks.nodeorder_ignored_value
