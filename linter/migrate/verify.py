"""Lint what a migration produced: each migrated config on its own, as kube-scheduler 1.36 would read it."""

from __future__ import annotations

from dataclasses import replace

from linter.engine import lint_text
from linter.findings import Finding
from linter.migrate.documents import Migration
from linter.settings import LintSettings


def check(migration: Migration, path: str, settings: LintSettings | None = None) -> list[Finding]:
    """The linter's findings on every migrated config, with lines counted in the migrated file."""
    findings: list[Finding] = []
    for first_line, text in migration.configs:
        for finding in lint_text(text, path, settings or LintSettings()):
            findings.append(replace(finding, line=finding.line + first_line - 1))
    return sorted(findings)
