"""``junit``: JUnit XML for CI test-report viewers (GitLab, Jenkins, Azure).

One ``<testsuite name="binpack-lint">``; one ``<testcase>`` per file read (a file with no
error passes); each error finding in a file is a ``<failure>`` of that test case, and its
warnings are listed in the case's ``<system-out>``. Findings for paths that could not be
read get a test case of their own, so nothing is lost. ``failures`` counts failed test cases.
"""

from __future__ import annotations

from typing import TextIO
from xml.etree import ElementTree as ET

from linter.findings import Finding, Severity, one_line
from linter.reporters import RunInfo, RunSummary


def _xml_safe(text: str) -> str:
    """XML 1.0 cannot carry most control characters even escaped; show them as \\xNN."""
    return "".join(
        ch if ch in "\t\n\r" or (" " <= ch <= "\ud7ff") or ("\ue000" <= ch <= "\ufffd") or ch >= "\U00010000"
        else f"\\x{ord(ch):02x}"
        for ch in text
    )


class Reporter:
    def __init__(self, out: TextIO, err: TextIO, *, quiet: bool = False) -> None:
        self._out = out
        self._by_path: dict[str, list[Finding]] = {}

    def start(self, info: RunInfo) -> None:
        self._by_path = {}

    def finding(self, finding: Finding) -> None:
        self._by_path.setdefault(finding.path, []).append(finding)

    def finish(self, summary: RunSummary) -> None:
        paths = list(dict.fromkeys([*summary.paths, *self._by_path]))
        suite = ET.Element("testsuite", name="binpack-lint", tests=str(len(paths)))
        failed = 0
        for path in paths:
            findings = self._by_path.get(path, [])
            case = ET.SubElement(suite, "testcase", classname="binpack-lint", name=_xml_safe(path))
            errors = [f for f in findings if f.severity is Severity.ERROR]
            warnings = [f for f in findings if f.severity is Severity.WARNING]
            for f in errors:
                failure = ET.SubElement(case, "failure", type=f.rule, message=_xml_safe(one_line(f.message)))
                failure.text = _xml_safe(f.as_text_block())
            if warnings:
                ET.SubElement(case, "system-out").text = _xml_safe("\n".join(f.as_text_block() for f in warnings))
            failed += bool(errors)
        suite.set("failures", str(failed))
        suite.set("errors", "0")
        suite.set("skipped", "0")
        root = ET.Element("testsuites", name="binpack-lint", tests=str(len(paths)), failures=str(failed))
        root.append(suite)
        ET.indent(root)
        self._out.write('<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n")
