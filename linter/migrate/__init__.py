"""``binpack-lint migrate``: rewrite a removed-version scheduler config or a legacy Policy for kube-scheduler 1.36.

Pure: text in, text and notes out (:func:`migrate_text`); :func:`check` lints what came out.
The command line lives in :mod:`linter.cli.migrate`.
"""

from linter.migrate.documents import Migration, migrate_text
from linter.migrate.notes import CHANGE, ERROR, UNCHANGED, MigrateError, Note
from linter.migrate.verify import check

__all__ = ["CHANGE", "ERROR", "UNCHANGED", "MigrateError", "Migration", "Note", "check", "migrate_text"]
