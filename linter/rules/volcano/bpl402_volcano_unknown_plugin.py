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

import difflib
from collections.abc import Iterator

from linter.findings import Severity, Violation
from linter.formats.volcano import codes
from linter.formats.volcano.decode import KNOWN_PLUGINS
from linter.formats.volcano.handler import VolcanoContext

CODE = codes.UNKNOWN_PLUGIN
NAME = "volcano-unknown-plugin"
SUMMARY = "unknown Volcano plugin (skipped every session)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})


def check(ctx: VolcanoContext) -> Iterator[Violation]:
    for plugin in ctx.plugins:
        if plugin.name in KNOWN_PLUGINS or any(e.pointer[:len(plugin.pointer)] == plugin.pointer
                                               and e.pointer != (*plugin.pointer, "arguments")
                                               for e in ctx.unmarshal):
            continue  # an entry (or its name) that does not decode is BPL060's
        close = difflib.get_close_matches(plugin.name, KNOWN_PLUGINS, n=1, cutoff=0.7)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        pointer = (*plugin.pointer, "name") if "name" in plugin.option else plugin.pointer
        yield Violation(f"unknown plugin {plugin.name!r}: Volcano skips it every session and logs "
                        f"\"Failed to get plugin {plugin.name}.\"{hint}", pointer)
