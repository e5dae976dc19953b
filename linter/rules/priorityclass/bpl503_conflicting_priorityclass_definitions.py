"""The same PriorityClass name is defined more than once across the linted files.

What it does:
    Finds PriorityClasses with the same name in one run. Applying the later manifest is an
    *update* of the earlier one: when it changes ``value`` or ``preemptionPolicy`` (both
    immutable), or carries labels or annotations the update validation rejects, this is an
    error with the API server's update message; identical redefinitions are a warning.
    The update checks are the only ones the API server runs on it (a ``value`` above the user
    limit is reported as changed; BPL500 does not judge it as a create). Only a definition the
    API server would store can be updated: one with a finding of BPL070, BPL071 or BPL500 (or
    no ``apiVersion``), or refused as a second default (BPL501), never exists, so the next
    definition of that name is a create, judged by the create rules alone. A field a later
    definition omits is removed if the earlier one set it (kubectl's three-way patch), so
    dropping ``value`` changes it to 0.
    Classes named only by ``generateName`` are never the same class.

Why it matters:
    Which definition a cluster ends up with depends on apply order, and the second apply
    fails with ``value: Forbidden: may not be changed in an update.``.

Example (fails):
    # a.yaml
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: batch-high
    value: 1000
    # b.yaml
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: batch-high
    value: 2000

Use instead (passes):
    # keep one definition of batch-high
    apiVersion: scheduling.k8s.io/v1
    kind: PriorityClass
    metadata:
      name: batch-high
    value: 1000
"""

from linter.findings import Severity
from linter.formats.priorityclass import checks, codes

CODE = codes.CONFLICTING_DEFINITIONS
NAME = "conflicting-priorityclass-definitions"
SUMMARY = "PriorityClass name defined more than once (immutable fields differ: error)"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"priorityclass"})

check_corpus = checks.conflicting_definitions
