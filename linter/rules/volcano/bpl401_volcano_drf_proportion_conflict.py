"""A tier has both ``proportion`` and ``drf`` with ``enableHierarchy: true``: Volcano rejects the file.

What it does:
    Checks each tier (the check is per tier, as Volcano's) for the hierarchical-DRF plus
    proportion combination and reports Volcano's error
    ``proportion and drf with hierarchy enabled conflicts``.

Why it matters:
    Volcano logs the error and keeps its previous configuration; none of the file applies.

Example (fails):
    actions: "enqueue, allocate, backfill"
    tiers:
    - plugins:
      - name: drf
        enableHierarchy: true
      - name: proportion

Use instead (passes):
    actions: "enqueue, allocate, backfill"
    tiers:
    - plugins:
      - name: drf
        enableHierarchy: true
"""

from linter.findings import Severity
from linter.formats.volcano import checks, codes

CODE = codes.DRF_PROPORTION_CONFLICT
NAME = "volcano-drf-proportion-conflict"
SUMMARY = "proportion with hierarchical drf in one tier: Volcano rejects the file"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"volcano"})

check = checks.drf_proportion_conflict
