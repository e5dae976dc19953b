"""``github``: GitHub Actions workflow commands, one annotation per finding.

``::error file=PATH,line=L,col=C,title=BPLnnn::message`` (``::warning`` for warnings). As the
Actions runner expects, ``%``, CR and LF are percent-encoded everywhere, and ``:`` and ``,``
additionally inside property values, so a path or message can never end the command early.
"""

from __future__ import annotations

from typing import TextIO

from linter.findings import Finding
from linter.reporters import RunInfo, RunSummary


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_finding(f: Finding) -> str:
    props = ",".join(
        f"{key}={escape_property(value)}"
        for key, value in (("file", f.path), ("line", str(f.line)), ("col", str(f.column)), ("title", f.rule))
    )
    return f"::{f.severity.value} {props}::{escape_data(f.message)}"


class Reporter:
    def __init__(self, out: TextIO, err: TextIO, *, quiet: bool = False) -> None:
        self._out = out

    def start(self, info: RunInfo) -> None:
        pass

    def finding(self, finding: Finding) -> None:
        self._out.write(format_finding(finding) + "\n")

    def finish(self, summary: RunSummary) -> None:
        self._out.flush()
