"""One frozen object that says how a run should behave; built by the CLI or the webhook."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from linter.findings import Severity

KINDS = ("kube-scheduler", "legacy-policy", "volcano", "priorityclass")
# Scheduler builds a KubeSchedulerConfiguration can be judged for (linter.formats.kubesched.builds).
SCHEDULERS = ("kube-scheduler", "scheduler-plugins")
# Extension points a user's own plugin can declare (the keys of a profile's ``plugins``, less multiPoint).
PLUGIN_EXTENSION_POINTS = ("preEnqueue", "queueSort", "preFilter", "filter", "postFilter", "preScore", "score",
                           "reserve", "permit", "preBind", "bind", "postBind", "placementGenerate", "placementScore")
CustomPlugins = tuple[tuple[str, tuple[str, ...]], ...]  # (plugin name, extension points it implements)


@dataclass(frozen=True)
class LintSettings:
    """``kind`` forces a format; ``disabled``/``enabled`` select rules (enabled wins for a code in both);
    ``severity_overrides`` maps a code to the severity to report it with; ``strict`` makes warnings fail;
    ``scheduler`` names the build kube-scheduler configs are judged for and ``custom_plugins`` the
    plugins the user's own build adds to it."""

    kind: str | None = None
    disabled: frozenset[str] = frozenset()
    enabled: frozenset[str] = frozenset()
    severity_overrides: Mapping[str, Severity] = field(default_factory=dict)
    strict: bool = False
    scheduler: str = "kube-scheduler"
    custom_plugins: CustomPlugins = ()

    def is_enabled(self, code: str) -> bool:
        """Exact codes or prefixes (``BPL2`` = every BPL2xx rule, ``ALL``); ``enabled`` beats ``disabled``."""
        if any(_selects(e, code) for e in self.enabled):
            return True
        return not any(_selects(d, code) for d in self.disabled)


def _selects(selector: str, code: str) -> bool:
    return selector == "ALL" or code.startswith(selector)
