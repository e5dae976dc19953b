"""``json``: one object for the whole run, ``{"findings": [...], "files": N}``.

Each finding is ``{"path", "line", "column", "rule", "severity", "message"}`` in the sort
order of the run, with ``"detail"`` when it has one and ``"fixable": true`` when ``--fix`` repairs
it. Written at ``finish`` so the document is always complete and valid.
"""

from __future__ import annotations

import json
from typing import TextIO

from linter.findings import Finding
from linter.reporters import RunInfo, RunSummary


class Reporter:
    def __init__(self, out: TextIO, err: TextIO, *, quiet: bool = False) -> None:
        self._out = out
        self._findings: list[dict[str, object]] = []

    def start(self, info: RunInfo) -> None:
        self._findings = []

    def finding(self, finding: Finding) -> None:
        self._findings.append(finding.as_dict())

    def finish(self, summary: RunSummary) -> None:
        document = {"findings": self._findings, "files": summary.files}
        self._out.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
