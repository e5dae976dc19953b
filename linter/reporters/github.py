"""``github``: GitHub Actions workflow commands, one annotation per finding.

``::error file=PATH,line=L,col=C,title=BPLnnn::message`` (``::warning`` for warnings). As the
Actions runner expects, ``%``, CR and LF are percent-encoded everywhere, and ``:`` and ``,``
additionally inside property values, so a path or message can never end the command early.
Absolute paths under the working directory (the checkout) are made relative to it, as GitHub
matches annotation files against repository paths.
"""

from __future__ import annotations

import os
from typing import TextIO

from linter.findings import Finding
from linter.reporters import RunInfo, RunSummary


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def repository_path(path: str, root: str) -> str:
    if os.path.isabs(path):
        relative = os.path.relpath(path, root)
        if relative != os.pardir and not relative.startswith(os.pardir + os.sep):
            return relative
    return path


def format_finding(f: Finding, root: str = "") -> str:
    path = repository_path(f.path, root) if root else f.path
    props = ",".join(
        f"{key}={escape_property(value)}"
        for key, value in (("file", path), ("line", str(f.line)), ("col", str(f.column)), ("title", f.rule))
    )
    text = f"{f.message}\n\n{f.detail}" if f.detail else f.message
    return f"::{f.severity.value} {props}::{escape_data(text)}"


class Reporter:
    def __init__(self, out: TextIO, err: TextIO, *, quiet: bool = False) -> None:
        self._out = out
        self._root = ""

    def start(self, info: RunInfo) -> None:
        self._root = info.root

    def finding(self, finding: Finding) -> None:
        self._out.write(format_finding(finding, self._root) + "\n")

    def finish(self, summary: RunSummary) -> None:
        self._out.flush()
