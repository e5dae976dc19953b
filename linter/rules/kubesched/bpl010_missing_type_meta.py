"""ApiVersion or kind missing or not a string.

What it does:
    Reports a document without `kind` or `apiVersion` (or with non-string values), with the decoder's
    `Object 'Kind' is missing in '...'` / `Object 'apiVersion' is missing in '...'` text, and an
    `apiVersion` with more than one `/` (`unexpected GroupVersion string: ...`). The decoder finds these
    two keys whatever their case, as Go's `encoding/json` does: `Kind: KubeSchedulerConfiguration` is read
    as the kind, and then refused by the case-sensitive typed decode as an unknown field (BPL015).

Why it matters:
    kube-scheduler cannot tell what the file is and exits before reading anything else.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.TYPE_META
NAME = "missing-type-meta"
SUMMARY = "apiVersion or kind missing or not a string"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
