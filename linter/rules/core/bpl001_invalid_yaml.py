"""The file (or a ConfigMap value meant as a config file) is not valid YAML or JSON.

What it does:
    Reports the first syntax error the YAML parser meets, at its line and column.

Why it matters:
    kube-scheduler refuses to start with such a file; Volcano logs the error and silently
    keeps its previous (or built-in default) configuration, so the change never takes effect.

Example (fails):
    profiles:
    - schedulerName: binpack
       plugins: {}

Use instead (passes):
    profiles:
    - schedulerName: binpack
      plugins: {}
"""

from linter import filecodes
from linter.findings import Severity

CODE = filecodes.INVALID_YAML
NAME = "invalid-yaml"
SUMMARY = "file is not valid YAML or JSON"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"*"})
