"""The kube-scheduler rules' ``check`` functions: the issues of one code as Violations, and schema leftovers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from linter.findings import Violation


def issues_of(code: str) -> Callable[[Any], Iterator[Violation]]:
    """A rule's ``check``: the analysis' issues of that code, as Violations."""

    def check(ctx: Any) -> Iterator[Violation]:
        for issue in ctx.issues(code):
            yield Violation(issue.message, issue.pointer, issue.on_key, issue.position, issue.severity)

    return check


def schema_only(ctx: Any) -> Iterator[Violation]:
    """Schema errors at places no decode/validate/init issue already covers (the schema mirrors them)."""
    covered = [i.pointer for i in ctx.analysis.issues if i.stage != "lint"]
    for error in ctx.schema_errors:
        p = error.pointer
        if any(q[: len(p)] == p or (p[: len(q)] == q and q) for q in covered):
            continue
        yield Violation(f"schema: {error.message}", p, error.key)
