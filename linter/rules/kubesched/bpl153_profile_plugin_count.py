"""No queueSort plugin, several, or no bind plugin.

What it does:
    A profile needs exactly one queueSort plugin and at least one bind plugin.

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        multiPoint:
          disabled: [{name: '*'}]

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
"""

from collections.abc import Iterator
from typing import Any

from linter.findings import Severity, Violation
from linter.formats.kubesched import codes
from linter.formats.kubesched.report import violations

CODE = codes.PROFILE_PLUGINS
NAME = "profile-plugin-count"
SUMMARY = "no queueSort plugin, several, or no bind plugin"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})


def check(ctx: Any) -> Iterator[Violation]:
    return violations(ctx, CODE)
