"""A suppression comment silenced nothing in this run (like ruff's RUF100 for ``noqa``).

What it does:
    Reports each selector of a ``# binpack-lint: disable=...`` comment that matched no finding
    on its line or the next, and each ``disable-file=...`` selector that matched no finding in
    the file. Selectors of rules that are turned off (``--disable``, the config file) and
    ``all`` are not reported.

Why it matters:
    A stale suppression hides the next real problem on that line without anyone deciding to.
    Removing the comment (or just the code that no longer fires) keeps suppressions honest.
    ``binpack-lint --fix`` does it: it removes the unused selectors, or the whole comment when none
    was used (a line left empty goes too); ``--diff`` shows the edit first. A comment it cannot
    remove without changing what a program reads (text inside a quoted string, a JSON config) is
    left alone (docs/cli.md, "Fixing findings").

Example (fails):
    # binpack-lint: disable=BPL202 -- the weight used to be 0
    - {name: memory, weight: 1}

Use instead (passes):
    - {name: memory, weight: 1}
"""

from linter import filecodes
from linter.findings import Severity

CODE = filecodes.UNUSED_SUPPRESSION
NAME = "unused-suppression"
SUMMARY = "suppression comment that silenced nothing"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"*"})
