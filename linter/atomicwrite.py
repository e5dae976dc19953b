"""Replacing a file so a crash leaves either the old or the new file, never a mix (``migrate --write``, ``--fix``)."""

from __future__ import annotations

import os
import stat
import tempfile


def write_atomically(path: str, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path`` (the real file, through symbolic links), give it
    the file's mode, and rename it over the file. On any failure the temporary file is removed."""
    target = os.path.realpath(path)
    directory = os.path.dirname(target) or "."
    mode = stat.S_IMODE(os.stat(target).st_mode)
    fd, temporary = tempfile.mkstemp(prefix=".binpack-lint-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
