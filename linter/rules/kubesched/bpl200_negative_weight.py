"""Negative score-plugin or resource weight (binpack-guard policy).

What it does:
    Reports any negative weight the scheduler itself does not reject: score-plugin weights and the
    resource weights of a NodeResourcesFit that is not enabled. A weight on a plugin that does not
    implement Score (DefaultBinder, PrioritySort, ...) is not reported: the framework reads weights of
    Score plugins only, so it ignores that weight, whatever its sign. Plugins whose extension points
    binpack-guard does not know (an unregistered name) are reported. Neither is a weight under
    `plugins.multiPoint.enabled` that is never used: the same plugin listed under `plugins.score.enabled`
    (getScoreWeights reads that weight first) or disabled under `plugins.score`.

Why it matters:
    A negative weight inverts a plugin's preference; binpack-guard's policy is that weights are never negative.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        multiPoint:
          enabled: [{name: ImageLocality, weight: -1}]

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins:
        multiPoint:
          enabled: [{name: ImageLocality, weight: 1}]
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.NEGATIVE_WEIGHT
NAME = "negative-weight"
SUMMARY = "negative score-plugin or resource weight (binpack-guard policy)"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
