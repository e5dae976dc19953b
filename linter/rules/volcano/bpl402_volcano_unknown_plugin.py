"""A plugin name Volcano does not have: it is skipped at every scheduling session.

What it does:
    Checks each ``tiers[].plugins[].name`` against the plugins registered in Volcano
    (priority, gang, conformance, drf, proportion, capacity, predicates, nodeorder, binpack,
    deviceshare, resource-strategy-fit, tdm, overcommit, sla, task-topology, numa-aware, cdp,
    rescheduling, usage, pdb, nodegroup, network-topology-aware, extender, resourcequota).

Why it matters:
    Plugin names are not checked when the file is loaded; Volcano logs
    ``Failed to get plugin <name>.`` every session and runs without it, e.g. a
    ``bin-pack`` entry never packs anything.

Example (fails):
    actions: "enqueue, allocate, backfill"
    tiers:
    - plugins:
      - name: bin-pack

Use instead (passes):
    actions: "enqueue, allocate, backfill"
    tiers:
    - plugins:
      - name: binpack
"""

from linter.findings import Severity
from linter.formats.volcano import checks, codes

CODE = codes.UNKNOWN_PLUGIN
NAME = "volcano-unknown-plugin"
SUMMARY = "unknown Volcano plugin (skipped every session)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})

check = checks.unknown_plugin
