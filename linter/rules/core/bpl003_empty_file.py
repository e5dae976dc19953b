"""A file named on the command line is empty (or only whitespace and comments... or nothing at all).

What it does:
    Reports an empty file as a warning; as an error when ``--kind`` says it must be a config.

Why it matters:
    An empty file passed to ``kube-scheduler --config`` fails with "Object 'Kind' is missing";
    an empty Volcano conf is replaced by Volcano's built-in default. Either way it is almost
    certainly not what was meant.

Example (fails):
    (a zero-byte scheduler-config.yaml)

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
"""

from linter import filecodes
from linter.findings import Severity

CODE = filecodes.EMPTY_FILE
NAME = "empty-file"
SUMMARY = "file is empty"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"*"})
