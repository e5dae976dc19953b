"""A file named on the command line is empty (nothing but whitespace).

What it does:
    Reports an empty file as a warning (nothing in it says what it is meant to be, so it never
    fails a run); as an error when ``--kind legacy-policy`` or ``--kind priorityclass`` says
    it must be one. With ``--kind kube-scheduler`` or ``--kind volcano`` the file is read as
    that program reads it instead: BPL010 (``Object 'Kind' is missing``) or BPL400
    (``failed to find Action ``), as for a file holding only comments.

Why it matters:
    An empty file passed to ``kube-scheduler --config`` fails with "Object 'Kind' is missing";
    Volcano refuses an empty conf (``failed to find Action ``) and keeps its previous
    configuration (at start-up, its built-in default). Either way it is almost certainly not
    what was meant.

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
