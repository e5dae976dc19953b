"""Nothing in a file named on the command line is a format binpack-lint checks.

What it does:
    Warns when a file given explicitly holds no KubeSchedulerConfiguration, legacy Policy,
    Volcano scheduler conf, PriorityClass, or ConfigMap/List wrapping one. Files found by
    walking a directory are skipped silently instead, but a directory named on the command line
    that holds no ``*.yaml``, ``*.yml``, ``*.json``, ``*.conf`` or ``*.cfg`` file at all gets
    this warning too (a run over it would otherwise say "no problems in 0 files"). ``--kind``
    forces a format.
    A file that is not valid YAML and names none of the supported formats anywhere in its
    text (a Helm template, say) gets this warning instead of BPL001, so the pre-commit hook
    never fails on it, even with ``--strict``; a broken file that does name one keeps BPL001.

Why it matters:
    A typo in ``kind`` or ``apiVersion`` (``KubeSchedulerConfig``) would otherwise make the
    file pass unchecked.

Example (fails):
    apiVersion: apps/v1
    kind: Deployment

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
"""

from linter import filecodes
from linter.findings import Severity

CODE = filecodes.UNRECOGNIZED_DOCUMENT
NAME = "unrecognized-document"
SUMMARY = "no checkable document recognised in the file"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"*"})
