"""A rescheduling argument Volcano drops without a word.

What it does:
    Follows the rescheduling plugin as Volcano parses it when a session opens (the first rescheduling
    entry of each tier; a later non-empty ``strategies`` list replaces an earlier one), when the
    ``shuffle`` action runs its victim function. It reports:

    * a ``strategies`` item ``mapstructure.Decode`` cannot make a strategy of (a plain string such as
      ``- lowNodeUtilization``, a name that is not a string, params that are not a mapping): Volcano
      skips it and logs only at verbosity 3, so with no other strategy nothing is rescheduled;
    * a key of lowNodeUtilization's ``params`` other than ``thresholds`` and ``targetThresholds``, the only
      two it reads;
    * a name in ``thresholds`` or ``targetThresholds`` other than ``cpu`` and ``memory``: a node's
      utilization has only those two, so a ``pods`` (or ``pod``) threshold is never compared with anything.

    A value Volcano asserts to be an integer and is not makes it panic instead (BPL415).

Why it matters:
    Volcano's own rescheduling design doc writes ``pods`` thresholds; they change nothing, so nodes are
    judged by cpu and memory alone, and a strategy written as a plain string never runs.

Example (fails):
    actions: "enqueue, allocate, shuffle"
    tiers:
    - plugins:
      - name: rescheduling
        arguments:
          strategies:
          - name: lowNodeUtilization
            params:
              thresholds: {cpu: 20, memory: 20, pods: 20}

Use instead (passes):
    actions: "enqueue, allocate, shuffle"
    tiers:
    - plugins:
      - name: rescheduling
        arguments:
          strategies:
          - name: lowNodeUtilization
            params:
              thresholds: {cpu: 20, memory: 20}
"""

from linter.findings import Severity
from linter.formats.volcano import argchecks, codes

CODE = codes.RESCHEDULING_IGNORED_ARGUMENT
NAME = "volcano-rescheduling-ignored-argument"
SUMMARY = "rescheduling strategy or lowNodeUtilization threshold Volcano ignores"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})

check = argchecks.rescheduling_ignored_argument
