"""Replacing a file so a crash leaves either the old or the new file, never a mix (``migrate --write``, ``--fix``)."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile


def write_atomically(path: str, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path`` (the real file, through symbolic links), give it
    the file's mode and owner, and rename it over the file. On any failure the temporary file is removed."""
    target = os.path.realpath(path)
    directory = os.path.dirname(target) or "."
    info = os.stat(target)
    mode = stat.S_IMODE(info.st_mode)
    fd, temporary = tempfile.mkstemp(prefix=".binpack-lint-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        _keep_owner(temporary, info)
        os.chmod(temporary, mode)  # after chown, which may clear set-id bits
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def _keep_owner(temporary: str, info: os.stat_result) -> None:
    """Give the new file the old one's owner and group where we may (root fixing a user's checkout must not
    leave root-owned files); a user who may not is left owning it, as with any editor that renames."""
    if (info.st_uid, info.st_gid) == (os.getuid(), os.getgid()):
        return
    try:
        os.chown(temporary, info.st_uid, info.st_gid)
    except PermissionError:
        with contextlib.suppress(PermissionError):  # the group, at least, if we are in it
            os.chown(temporary, -1, info.st_gid)
