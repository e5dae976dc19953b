"""A path could not be read as a UTF-8 text file.

What it does:
    Reports paths that do not exist, cannot be opened, are binary (contain NUL bytes), are
    not valid UTF-8, or exceed the 10 MiB size limit, and directories reached twice through
    symbolic links (reported once as a warning and skipped).

Why it matters:
    The scheduler's YAML decoders accept UTF-8 only; a file that cannot be read cannot be
    checked, and the run must say so rather than pass silently.

Example (fails):
    A config saved as UTF-16 by an editor, or a path with a typo.

Use instead (passes):
    Save the file as UTF-8 and name an existing path.
"""

from linter import filecodes
from linter.findings import Severity

CODE = filecodes.UNREADABLE_FILE
NAME = "unreadable-file"
SUMMARY = "path cannot be read as a UTF-8 text file"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"*"})
