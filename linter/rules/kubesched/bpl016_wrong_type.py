"""Value of the wrong JSON type or out of the Go integer range.

What it does:
    Reports values the Go types cannot hold, worded as kube-scheduler does (`json: cannot unmarshal
    number 5.5 into Go struct field ... of type int32`), durations `time.ParseDuration` rejects and,
    in scheduler-plugins' TargetLoadPacking `defaultRequests`, quantities `resource.ParseQuantity`
    rejects (`quantities must match the regular expression ...`).
    Integral floats such as `5.0` are accepted, as the scheduler accepts them. A non-finite
    float (`.inf`, `-.inf`, `.nan`, any spelling) anywhere in the file, opaque plugin args
    included, is `json: unsupported value: +Inf` (`-Inf`, `NaN`): the scheduler cannot convert
    the YAML to JSON and refuses the file before reading any field; each one is reported.

Why it matters:
    The scheduler stops at the first such value.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    parallelism: "16"

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    parallelism: 16
"""

from linter.findings import Severity
from linter.formats.kubesched import codes, report

CODE = codes.WRONG_TYPE
NAME = "wrong-type"
SUMMARY = "value of the wrong JSON type or out of the Go integer range"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"kube-scheduler"})

check = report.issues_of(CODE)
