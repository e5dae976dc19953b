"""The kube-scheduler rules' ``check`` functions: the issues of one code as Violations, and schema leftovers."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from linter.findings import Violation
from linter.messages import MAX_MESSAGE


def issues_of(code: str) -> Callable[[Any], Iterator[Violation]]:
    """A rule's ``check``: the analysis' issues of that code, as Violations."""

    def check(ctx: Any) -> Iterator[Violation]:
        for issue in ctx.issues(code):
            message, detail = issue.message, issue.detail
            if not detail and len(message + issue.hint) > MAX_MESSAGE and (short := _short_init_error(message)):
                message, detail = short, message
            if issue.hint:  # the scheduler's text stays whole in the detail; the suggestion follows the message
                message, detail = message + issue.hint, detail or message
            yield Violation(message, issue.pointer, issue.on_key, issue.position, issue.severity, detail)

    return check


_INIT = re.compile(r'initializing profiles: creating profile for scheduler name (?P<profile>[^:]*): '
                   r'(?:initializing plugin "(?P<plugin>[^"]+)": )?(?P<rest>.*)', re.DOTALL)


def _short_init_error(message: str) -> str | None:
    """kube-scheduler's long plugin-construction error as "profile P, plugin X: <the field error>"."""
    match = _INIT.fullmatch(message)
    if match is None:
        return None
    where = f"profile {match['profile']}" + (f", plugin {match['plugin']}" if match["plugin"] else "")
    short = f"{where}: {match['rest']}"
    return short if len(short) <= MAX_MESSAGE and "\n" not in short else None


def schema_only(ctx: Any) -> Iterator[Violation]:
    """Schema errors at places no decode/validate/init issue already covers (the schema mirrors them)."""
    covered = [i.pointer for i in ctx.analysis.issues if i.stage != "lint"]
    for error in ctx.schema_errors:
        p = error.pointer
        if any(q[: len(p)] == p or (p[: len(q)] == q and q) for q in covered):
            continue
        yield Violation(f"schema: {error.message}", p, error.key)
