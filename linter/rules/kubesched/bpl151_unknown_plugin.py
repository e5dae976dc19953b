"""Enabled plugin name that the scheduler build does not have.

What it does:
    Reports an enabled plugin that is not registered (`ScorePlugin "X" does not exist`), with
    the scheduler's text followed by a suggestion: the closest name the declared build knows
    (in-tree, scheduler-plugins with `--scheduler scheduler-plugins`, and the `plugins` of the
    project config), e.g. `(did you mean "NodeResourcesFit"?)` for `NodeResourcesFitt`, or,
    on plain kube-scheduler, that the name is a scheduler-plugins plugin. Names are
    case-sensitive; a name within two edits (or only differing in case) gets a suggestion.

Why it matters:
    kube-scheduler refuses to start.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        score:
          enabled: [{name: RequestedToCapacityRatio}]

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        score:
          enabled: [{name: NodeResourcesFit}]
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.UNKNOWN_PLUGIN
NAME = "unknown-plugin"
SUMMARY = "enabled plugin name that the scheduler build does not have"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
