"""A suppression comment names something that is not a rule, so it silences nothing.

What it does:
    Checks every selector in ``# binpack-lint: disable=...`` and ``disable-file=...`` comments:
    it must be a rule code (``BPL202``), a code prefix (``BPL2``), ``all``, or a rule's name
    (``resource-weight-zero``). Anything else is reported at the selector. A comment that
    starts like a suppression (``# binpack-lint:``, or ``# binpack-lint disable`` without the
    colon) but is neither directive (``enable=BPL202``, ``disable BPL202``,
    ``disable-next-line=BPL202``, ``disable-line=BPL202``) is reported too, at what follows
    ``binpack-lint:``. So is a selector list with an empty selector (``disable=BPL202,,BPL203``,
    ``disable=BPL202,``), at the comma; such a comment silences nothing, not even the codes
    before the comma.

Why it matters:
    A typo in a suppression (``BPL22``, ``BLP202``, ``resource-weight-zer0``) would otherwise
    look like it works while the finding it was meant for still fails the build, or, worse,
    the comment stays behind after the code changes and nobody notices it never did anything.

Example (fails):
    # binpack-lint: disable=BLP202 -- weight 0 on purpose
    - {name: memory, weight: 0}

Use instead (passes):
    # binpack-lint: disable=BPL202 -- weight 0 on purpose
    - {name: memory, weight: 0}
"""

from linter import filecodes
from linter.findings import Severity

CODE = filecodes.UNKNOWN_SUPPRESSION
NAME = "unknown-suppression"
SUMMARY = "suppression comment names no rule"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"*"})
