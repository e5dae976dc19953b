"""``binpack-lint --fix`` / ``--diff``: plan the fixes of a run's findings, show them, write them.

The fixes themselves (and the check that each is safe) are :mod:`linter.fixes`. Here: which files to
plan for (those with a fixable finding), marking the findings a plan repairs, a unified diff, and the
atomic write that never loses data (the file is re-read and must still be what was planned for).
"""

from __future__ import annotations

import codecs
import difflib
import os
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import TextIO

from linter.atomicwrite import write_atomically
from linter.findings import Finding
from linter.fixes import FIXABLE, FilePlan, plan
from linter.settings import LintSettings
from linter.textfile import TextFileError, decode, read_bytes

STDIN = "<stdin>"
BOM = codecs.BOM_UTF8
# A line as patch and git count them: up to a newline. (str.splitlines also ends one at \r, \x0c, U+2028...)
_PATCH_LINE = re.compile(r"[^\n]*\n|[^\n]+")


def plans(findings: Sequence[Finding], settings: LintSettings, stdin_text: str | None,
          stdin_bom: bool = False) -> list[FilePlan]:
    """A checked plan for every file with a finding ``--fix`` can repair (files that changed or
    cannot be read again since the run get none)."""
    from linter.engine import MAX_FILE_BYTES

    paths = sorted({f.path for f in findings if f.rule in FIXABLE})
    found: list[FilePlan] = []
    for path in paths:
        if path == STDIN:
            text, bom = stdin_text, stdin_bom
        else:
            try:
                raw = read_bytes(path, MAX_FILE_BYTES)
                text, bom = decode(raw), raw.startswith(BOM)
            except (TextFileError, OSError):
                continue
        if text is not None and (fix := plan(text, path, findings, settings)) is not None:
            found.append(replace(fix, bom=bom))
    return found


def one_per_file(planned: Sequence[FilePlan]) -> list[FilePlan]:
    """The plans, one per file: a file named twice, or also through a symbolic link (``--fix .`` meets both
    the link and its target), is shown and written once, under its first name that is not a link (patch
    refuses to patch a link)."""
    chosen: dict[tuple[int, int] | str, FilePlan] = {}
    for fix in sorted(planned, key=lambda p: os.path.islink(p.path)):  # stable: names in order, links last
        try:
            info = os.stat(fix.path) if fix.path != STDIN else None
        except OSError:
            info = None  # write() says why
        chosen.setdefault(fix.path if info is None else (info.st_dev, info.st_ino), fix)
    kept = {id(fix) for fix in chosen.values()}
    return [fix for fix in planned if id(fix) in kept]


def mark(findings: Sequence[Finding], planned: Sequence[FilePlan]) -> list[Finding]:
    """The findings, those a plan repairs marked ``fixable``."""
    repaired = frozenset().union(*(p.fixed for p in planned))
    return [replace(f, fixable=True) if f in repaired else f for f in findings]


def unified_diff(fix: FilePlan) -> str:
    """``fix`` as a unified diff (``--- path`` / ``+++ path``) that ``patch`` applies to the file's bytes: lines
    end at newlines only, a BOM is on the first line, and git's note marks a last line without a newline."""
    bom = "\ufeff" if fix.bom else ""
    lines = difflib.unified_diff(_PATCH_LINE.findall(bom + fix.original), _PATCH_LINE.findall(bom + fix.text),
                                 fromfile=fix.path, tofile=fix.path)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def print_exactly(out: TextIO, text: str) -> None:
    """``text`` on ``out`` as UTF-8 bytes whatever the locale's encoding (a fixed file or a diff must not
    come out with escapes in place of the characters the locale cannot encode)."""
    buffer = getattr(out, "buffer", None)
    if buffer is None:
        out.write(text)
        return
    out.flush()
    buffer.write(text.encode("utf-8"))
    buffer.flush()


def write(fix: FilePlan) -> str | None:
    """Write the fixed text over the file atomically (mode kept, a BOM kept); the reason it failed, or None."""
    from linter.engine import MAX_FILE_BYTES

    try:
        raw = read_bytes(fix.path, MAX_FILE_BYTES)
        if decode(raw) != fix.original:
            return "the file changed while it was being fixed; nothing written"
        bom = BOM if raw.startswith(BOM) else b""
        write_atomically(fix.path, bom + fix.text.encode("utf-8"))
    except TextFileError as exc:
        return exc.reason
    except OSError as exc:
        return exc.strerror or str(exc)
    return None
