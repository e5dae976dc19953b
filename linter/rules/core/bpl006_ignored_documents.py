"""The program reading this file stops after its first YAML document; the rest is ignored.

What it does:
    kube-scheduler's ``--config`` loader and Volcano's conf loader decode a file with a
    single-document YAML reader. When a file's first document is a KubeSchedulerConfiguration or
    a Volcano conf (bare or as a ConfigMap value), binpack-lint judges that document alone, as
    they do, and reports once where the ignored part begins (the next ``---`` or a ``...``).
    The ignored part is not checked, not even for YAML syntax, because the program never reads it.

Why it matters:
    Several configurations stacked in one file look like several schedulers, but only the first
    one is ever loaded; a ``...`` left in a pasted snippet silently cuts the conf short.

Example (fails):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    ---
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - schedulerName: bin-packing

Use instead (passes):
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - schedulerName: default-scheduler
    - schedulerName: bin-packing
"""

from linter import filecodes
from linter.findings import Severity

CODE = filecodes.IGNORED_DOCUMENTS
NAME = "ignored-documents"
SUMMARY = "documents after the first are never read by kube-scheduler or Volcano"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"*"})
