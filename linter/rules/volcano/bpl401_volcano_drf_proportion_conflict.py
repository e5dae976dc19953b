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

from collections.abc import Iterator

from linter.findings import Severity, Violation
from linter.formats.volcano import codes
from linter.formats.volcano.handler import DRF_CONFLICT, VolcanoContext

CODE = codes.DRF_PROPORTION_CONFLICT
NAME = "volcano-drf-proportion-conflict"
SUMMARY = "proportion with hierarchical drf in one tier: Volcano rejects the file"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"volcano"})


def check(ctx: VolcanoContext) -> Iterator[Violation]:
    if ctx.unmarshal:
        return
    for tier in ctx.drf_conflict_tiers:
        yield Violation(f"Volcano rejects this file and keeps its previous configuration: {DRF_CONFLICT} "
                        f"(tier {tier})", ("tiers", tier))
