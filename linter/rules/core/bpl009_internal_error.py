"""binpack-lint itself failed while checking a file (a bug in binpack-lint, not in the file).

What it does:
    When checking one file raises an unexpected exception, the command line reports it as
    a one-line finding naming the file and the exception, carries on with the other files,
    and exits with code 2.

Why it matters:
    A crash must not hide the findings of the other files, and must not look like a clean
    run either. Please report the message together with the file that triggered it.

Example (fails):
    (no input should trigger it; any file that does is a bug report)

Use instead (passes):
    Disable the rule that crashes with ``--disable BPLnnn`` until binpack-lint is fixed.
"""

from linter import filecodes
from linter.findings import Severity

CODE = filecodes.INTERNAL_ERROR
NAME = "internal-error"
SUMMARY = "binpack-lint failed while checking the file"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"*"})
