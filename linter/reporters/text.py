"""``text``: one finding per line, ``path:line:col: severity [BPLnnn] message``, on stdout.

A finding with a ``detail`` (the program's verbatim text) is followed by that text as continuation
lines indented by four spaces, which never start with a path, so ``grep``/quickfix still see one
line per finding.

The one-line summary ("2 errors, 1 warning in 3 files") goes to stderr, so stdout stays a
plain list that grep, editors' quickfix parsers and ``wc -l`` can read; ``-q`` drops it.
"""

from __future__ import annotations

from typing import TextIO

from linter.findings import Finding
from linter.reporters import RunInfo, RunSummary


def summary_line(summary: RunSummary) -> str:
    files = f"{summary.files} file{'s' if summary.files != 1 else ''}"
    if not summary.errors and not summary.warnings:
        return f"binpack-lint: no problems in {files}"
    parts = []
    if summary.errors:
        parts.append(f"{summary.errors} error{'s' if summary.errors != 1 else ''}")
    if summary.warnings:
        parts.append(f"{summary.warnings} warning{'s' if summary.warnings != 1 else ''}")
    return f"binpack-lint: {', '.join(parts)} in {files}"


class Reporter:
    def __init__(self, out: TextIO, err: TextIO, *, quiet: bool = False) -> None:
        self._out = out
        self._err = err
        self._quiet = quiet

    def start(self, info: RunInfo) -> None:
        pass

    def finding(self, finding: Finding) -> None:
        self._out.write(finding.as_text_block() + "\n")

    def finish(self, summary: RunSummary) -> None:
        self._out.flush()
        if not self._quiet:
            self._err.write(summary_line(summary) + "\n")
