"""A mapping key written twice.

What it does:
    Reports keys repeated in one mapping, with the scheduler's
    `yaml: unmarshal errors: line N: key "x" already set in map` text (N is the line of the
    second value). A merge key (`<<`) stores the merged keys in place, as yaml.v2 does, so a key
    written before or after a `<<` that also brings it, or brought by two merged mappings, is
    a duplicate too; then N is the merged value's line (in the anchor) and the finding sits on
    the `<<`.

Why it matters:
    The scheduler decodes strictly and refuses the file; lenient tools would silently keep the last value.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    parallelism: 8
    parallelism: 16

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    parallelism: 16
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.DUPLICATE_KEY
NAME = "duplicate-key"
SUMMARY = "a mapping key written twice"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
