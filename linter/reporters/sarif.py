"""``sarif``: a SARIF 2.1.0 log for code-scanning services (GitHub code scanning and others).

One run; ``tool.driver.rules`` describes every rule that has a result (id, name, short and
full description, help as text and Markdown, default level) and each result points at its
rule by ``ruleId`` and ``ruleIndex``. Locations are URIs relative to the working directory
(``uriBaseId: %SRCROOT%``) when the file lies under it, absolute ``file:`` URIs otherwise.
Columns count Unicode code points, as the loader does, and the run says so.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from linter.docs import render_rule_markdown, render_rule_text, rule_doc
from linter.findings import Finding, Severity
from linter.reporters import RunInfo, RunSummary

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning"}


def artifact_uri(path: str, root: str) -> tuple[str, bool]:
    """(uri, relative?) for a finding's path; relative URIs use ``/`` and percent-encoding."""
    if path in ("<stdin>", "-"):
        return quote(path, errors="surrogateescape"), True
    absolute = os.path.abspath(os.path.join(root, path))
    try:
        relative = os.path.relpath(absolute, root)
    except ValueError:  # another drive on Windows
        relative = os.pardir
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return Path(absolute).as_uri(), False
    return quote(Path(relative).as_posix(), errors="surrogateescape"), True


def rule_descriptor(code: str) -> dict[str, Any]:
    doc = rule_doc(code)
    if doc is None:  # a finding from a rule that is not registered (should not happen): still valid SARIF
        return {"id": code, "shortDescription": {"text": code}, "help": {"text": code}}
    return {
        "id": doc.code,
        "name": doc.name,
        "shortDescription": {"text": doc.summary},
        "fullDescription": {"text": doc.title or doc.summary},
        "help": {"text": render_rule_text(doc), "markdown": render_rule_markdown(doc)},
        "defaultConfiguration": {"level": _LEVEL[doc.severity]},
        "properties": {"tags": ["binpack-lint", *(f for f in doc.formats if f != "*")]},
    }


class Reporter:
    def __init__(self, out: TextIO, err: TextIO, *, quiet: bool = False) -> None:
        self._out = out
        self._info = RunInfo()
        self._findings: list[Finding] = []

    def start(self, info: RunInfo) -> None:
        self._info = info
        self._findings = []

    def finding(self, finding: Finding) -> None:
        self._findings.append(finding)

    def finish(self, summary: RunSummary) -> None:
        codes = sorted({f.rule for f in self._findings})
        index = {code: i for i, code in enumerate(codes)}
        results = [self._result(f, index[f.rule]) for f in self._findings]
        log = {
            "$schema": SCHEMA_URI,
            "version": "2.1.0",
            "runs": [{
                "tool": {"driver": {
                    "name": self._info.tool_name,
                    "version": self._info.version(),
                    "semanticVersion": self._info.version(),
                    "rules": [rule_descriptor(code) for code in codes],
                }},
                "invocations": [{"executionSuccessful": summary.exit_code != 2}],
                "columnKind": "unicodeCodePoints",
                "results": results,
            }],
        }
        self._out.write(json.dumps(log, indent=2, ensure_ascii=False) + "\n")

    def _result(self, f: Finding, rule_index: int) -> dict[str, Any]:
        uri, relative = artifact_uri(f.path, self._info.root)
        location: dict[str, Any] = {"uri": uri}
        if relative:
            location["uriBaseId"] = "%SRCROOT%"
        result: dict[str, Any] = {
            "ruleId": f.rule,
            "ruleIndex": rule_index,
            "level": _LEVEL[f.severity],
            "message": {"text": f.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": location,
                "region": {"startLine": f.line, "startColumn": f.column},
            }}],
        }
        properties: dict[str, Any] = {}
        if f.detail:  # the program's verbatim text; the message is its readable summary
            properties["detail"] = f.detail
        if f.fixable:  # `binpack-lint --fix` repairs it
            properties["fixable"] = True
        if properties:
            result["properties"] = properties
        return result
