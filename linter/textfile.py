"""Reading a user-named text file safely: the one bounded reader behind lint, explain, the project
config and the webhook's scheduler-config reload.

Refuses what would hang or flood the process (FIFOs, devices, directories, files over the caller's
size limit) and decodes UTF-8 only, with or without a BOM, as Go's YAML decoders do. Every problem
is a ``TextFileError`` whose ``reason`` is one line and whose position points at a bad byte.
"""

from __future__ import annotations

import codecs
import os
import stat
from collections.abc import Iterator

# Only `binpack-lint [lint]` reads '-' as standard input: it adds that hint itself (engine.STDIN_HINT).
NOT_REGULAR = "not a regular file (FIFO, socket or device)"


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
            raise TextFileError(NOT_REGULAR)
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


class TextStream:
    """A regular file's UTF-8 text in chunks, with read_text's checks and messages but no size limit.

    For inputs too big to hold (explain's cluster dumps): ``read(size)`` is what PyYAML's
    parser calls; the first chunk is checked for NUL bytes and a BOM is dropped. ``start`` and
    ``stop`` read only that byte range (``start`` must begin a character; lines and columns in
    messages then count from ``start``, and a BOM there is text).
    """

    CHUNK = 4 * 1024 * 1024

    def __init__(self, path: str, start: int = 0, stop: int | None = None) -> None:
        try:
            info = os.stat(path)
            if stat.S_ISDIR(info.st_mode):
                raise TextFileError("is a directory")
            if not stat.S_ISREG(info.st_mode):
                raise TextFileError(NOT_REGULAR)
            self._fh = open(path, "rb")  # noqa: SIM115 - closed by close()/the context manager
            self._fh.seek(start)
        except OSError as exc:
            raise TextFileError(f"cannot read: {exc.strerror or exc}") from None
        self._left = -1 if stop is None else max(0, stop - start)  # bytes still to read (-1: to the end)
        self._decoder = codecs.getincrementaldecoder("utf-8-sig" if start == 0 else "utf-8")()
        self._start = start
        self._consumed = 0  # bytes read before the current chunk
        self._done = False

    def __enter__(self) -> TextStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._fh.close()

    def read(self, size: int = -1) -> str:
        """Up to about ``size`` characters ('' only at the end); TextFileError at a bad byte."""
        text = ""
        while not text and not self._done:
            want = size if size > 0 and self._consumed else max(size, self.CHUNK)
            if self._left >= 0:
                want = min(want, self._left)
            try:
                raw = self._fh.read(want) if want else b""
            except OSError as exc:
                raise TextFileError(f"cannot read: {exc.strerror or exc}") from None
            if self._consumed == 0 and b"\x00" in raw[:8192]:
                raise TextFileError("binary file (contains NUL bytes)")
            self._done = not raw
            self._left -= len(raw) if self._left >= 0 else 0
            try:
                text = self._decoder.decode(raw, self._done)
            except UnicodeDecodeError as exc:
                raise self._bad_byte(exc, raw) from None
            self._consumed += len(raw)
        return text

    def _position_before_chunk(self) -> tuple[int, int]:
        """(newlines, bytes after the last one) in what was read before the current chunk. Counted only
        when a message needs them: counting every chunk cost explain several percent of a big dump."""
        lines, column, left = 0, 0, self._consumed
        try:  # the file already open (the stream ends with this message, so its position may move)
            self._fh.seek(self._start)
            while left > 0:
                block = self._fh.read(min(left, self.CHUNK))
                if not block:
                    break
                left -= len(block)
                newline = block.rfind(b"\n")
                column = len(block) - newline - 1 if newline >= 0 else column + len(block)
                lines += block.count(b"\n")
        except OSError as exc:
            raise TextFileError(f"cannot read: {exc.strerror or exc}") from None
        return lines, column

    def _bad_byte(self, exc: UnicodeDecodeError, raw: bytes) -> TextFileError:
        pending = len(exc.object) - len(raw)  # bytes held back from the previous chunk
        head = exc.object[pending: exc.start] if exc.start >= pending else b""
        lines_before, column_before = self._position_before_chunk()
        line = lines_before + head.count(b"\n") + 1
        newline = head.rfind(b"\n")
        column = (len(head) - newline if newline >= 0 else column_before - pending + len(head) + 1)
        offset = self._consumed - pending + exc.start
        return TextFileError(f"not valid UTF-8 (byte 0x{exc.object[exc.start]:02x} at offset {offset})", line, column)

    def chunks(self) -> Iterator[str]:
        while chunk := self.read():
            yield chunk
