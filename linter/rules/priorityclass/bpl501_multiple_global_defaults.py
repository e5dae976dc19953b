"""More than one PriorityClass with ``globalDefault: true`` across all files linted together.

What it does:
    Looks at every PriorityClass of the run (all files and documents, ConfigMaps and Lists
    opened up) that the API server would create: one with a finding of BPL070, BPL071 or
    BPL500 (or no ``apiVersion``) is refused, is never stored, and so neither is a default
    nor blocks one. The documents are taken as applied in order. The first such class that
    sets ``globalDefault: true`` is the default; every other one (by another name) that sets
    it gets this error on its ``globalDefault`` line, naming the default's file and line, and
    is not stored. A later document with the name of a stored class is an update of it (as
    ``kubectl apply`` makes it; the built-in classes exist from the start): one the API server
    refuses (BPL503, or BPL500 for a built-in: ``value`` or ``preemptionPolicy`` changed, bad
    labels) or that this rule flags changes nothing; one without
    ``globalDefault: true`` takes the default away from that class, so a later class may be
    the default. A class named only by ``generateName`` is a new class each time it is
    created and is named ``<generateName>xxxxx`` in the message (the API server appends five
    random characters).

Why it matters:
    Only one default can exist. The Priority admission plugin rejects whichever is applied
    second (``PriorityClass <first> is already marked as default. Only one default can
    exist``), so the outcome depends on apply order; no single-file check and no cluster
    tells you before the merge.

Example (fails):
    # a.yaml
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: default-batch
    value: 100
    globalDefault: true
    # b.yaml
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: default-web
    value: 1000
    globalDefault: true

Use instead (passes):
    # b.yaml
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: default-web
    value: 1000
    globalDefault: false
"""

from linter.findings import Severity
from linter.formats.priorityclass import checks, codes

CODE = codes.MULTIPLE_GLOBAL_DEFAULTS
NAME = "multiple-global-defaults"
SUMMARY = "more than one globalDefault PriorityClass across the linted files"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"priorityclass"})

check_corpus = checks.multiple_global_defaults
