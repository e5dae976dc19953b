"""One frozen object that says how a run should behave; built by the CLI or the webhook."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from linter.findings import Severity

KINDS = ("kube-scheduler", "legacy-policy", "volcano", "priorityclass")


@dataclass(frozen=True)
class LintSettings:
    """``kind`` forces a format; ``disabled``/``enabled`` select rules (enabled wins for a code in both);
    ``severity_overrides`` maps a code to the severity to report it with; ``strict`` makes warnings fail."""

    kind: str | None = None
    disabled: frozenset[str] = frozenset()
    enabled: frozenset[str] = frozenset()
    severity_overrides: Mapping[str, Severity] = field(default_factory=dict)
    strict: bool = False

    def is_enabled(self, code: str) -> bool:
        """Exact codes or prefixes (``BPL2`` = every BPL2xx rule, ``ALL``); ``enabled`` beats ``disabled``."""
        if any(_selects(e, code) for e in self.enabled):
            return True
        return not any(_selects(d, code) for d in self.disabled)


def _selects(selector: str, code: str) -> bool:
    return selector == "ALL" or code.startswith(selector)
