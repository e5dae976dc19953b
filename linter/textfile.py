"""Reading a user-named text file safely: the one bounded reader behind lint, explain, the project
config and the webhook's scheduler-config reload.

Refuses what would hang or flood the process (FIFOs, devices, directories, files over the caller's
size limit) and decodes UTF-8 only, with or without a BOM, as Go's YAML decoders do. Every problem
is a ``TextFileError`` whose ``reason`` is one line and whose position points at a bad byte.
"""

from __future__ import annotations

import os
import stat


class TextFileError(Exception):
    def __init__(self, reason: str, line: int = 1, column: int = 1) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.column = column


def describe_size(limit: int) -> str:
    mib = 1024 * 1024
    return f"{limit // mib} MiB" if limit % mib == 0 else f"{limit} byte"


def read_bytes(path: str, limit: int) -> bytes:
    """At most ``limit`` bytes of a regular file, or TextFileError."""
    try:
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            raise TextFileError("is a directory")
        if not stat.S_ISREG(info.st_mode):  # opening a FIFO would block forever; devices never end
            raise TextFileError("not a regular file (FIFO, socket or device); use '-' to read standard input")
        if info.st_size > limit:
            raise TextFileError(f"file is {info.st_size} bytes, over the {describe_size(limit)} limit")
        with open(path, "rb") as fh:
            raw = fh.read(limit + 1)
    except OSError as exc:
        raise TextFileError(f"cannot read: {exc.strerror or exc}") from None
    if len(raw) > limit:  # grew while we read it
        raise TextFileError(f"file is over the {describe_size(limit)} limit")
    return raw


def decode(raw: bytes) -> str:
    """UTF-8 (BOM allowed) text, or TextFileError at the offending byte."""
    if b"\x00" in raw[:8192]:
        raise TextFileError("binary file (contains NUL bytes)")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise TextFileError(f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})",
                            line, column) from None


def read_text(path: str, limit: int) -> str:
    return decode(read_bytes(path, limit))
