"""Scheduler config apiVersion removed before 1.36.

What it does:
    Reports `kubescheduler.config.k8s.io/v1alpha1`, `v1alpha2`, `v1beta1`, `v1beta2`, `v1beta3` and
    `componentconfig/v1alpha1`: 1.36 decodes only `v1`. The message names the release that
    removed the version; its detail is the scheduler's own
    `no kind "KubeSchedulerConfiguration" is registered for version ...` error.

Why it matters:
    Upgraded clusters keep old files around; kube-scheduler 1.36 refuses to start with them.

    ``binpack-lint migrate FILE`` fixes it in one step (``--write`` rewrites the file in
    place): folded and removed plugins, moved and removed fields, ``profiles`` as a list,
    comments kept.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1beta3
    kind: KubeSchedulerConfiguration

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.REMOVED_VERSION
NAME = "removed-api-version"
SUMMARY = "scheduler config apiVersion removed before 1.36"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
