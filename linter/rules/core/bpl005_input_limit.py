"""A document is nested too deeply or expands (through YAML aliases) to too many nodes.

What it does:
    Stops parsing at 200 levels of nesting or 2,000,000 nodes counted with every alias
    expansion, and reports where.

Why it matters:
    Scheduler configs are small. A "billion laughs" alias bomb or a pathological nesting
    would otherwise exhaust memory or time in every tool that reads the file.

Example (fails):
    a: &a [x, x, x, x, x, x, x, x, x]
    b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
    c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
    # ... and so on

Use instead (passes):
    Write the values out; real scheduler configs never need deep alias chains.
"""

from linter import filecodes
from linter.findings import Severity

CODE = filecodes.INPUT_LIMIT
NAME = "input-limit"
SUMMARY = "document nested too deeply or expands to too many nodes"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"*"})
