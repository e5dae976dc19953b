"""ApiVersion/kind not registered in kube-scheduler 1.36.

What it does:
    Reports an apiVersion/kind pair the scheduler's scheme does not know (`.../v2`, a typo in
    `kind`, an args kind at the top level).

Why it matters:
    kube-scheduler exits with `no kind ... is registered for version ...`.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v2
    kind: KubeSchedulerConfiguration

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.UNKNOWN_VERSION
NAME = "unknown-api-version"
SUMMARY = "apiVersion/kind not registered in kube-scheduler 1.36"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
