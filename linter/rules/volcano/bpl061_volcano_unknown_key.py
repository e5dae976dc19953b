"""A key Volcano does not read (it is ignored without any message).

What it does:
    Reports keys that ``conf.SchedulerConfiguration`` does not have at the top level, in a
    tier, in a plugin entry or in a ``configurations`` item, and suggests the closest known
    key (the plugin switches mix ``enable...`` and ``enabled...`` spellings).

Why it matters:
    yaml.v2 decodes leniently: a misspelt ``enabledNodeOrder`` or an ``argument:`` block is
    dropped silently and the plugin runs with its defaults.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        argument:
          binpack.weight: 10

Use instead (passes):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.weight: 10
"""

import difflib
from collections.abc import Iterator

from linter.findings import Severity, Violation
from linter.formats.volcano import codes
from linter.formats.volcano.decode import PLUGIN_OPTION_KEYS, TOP_LEVEL_KEYS
from linter.formats.volcano.handler import VolcanoContext

CODE = codes.UNKNOWN_KEY
NAME = "volcano-unknown-key"
SUMMARY = "key ignored by Volcano"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})

_KNOWN = (*TOP_LEVEL_KEYS, *PLUGIN_OPTION_KEYS, "plugins")


def check(ctx: VolcanoContext) -> Iterator[Violation]:
    for error in ctx.schema_errors:
        if not error.key:
            continue
        key = str(error.pointer[-1])
        close = difflib.get_close_matches(key, _KNOWN, n=1, cutoff=0.75)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        yield Violation(f"{error.message}: Volcano ignores it{hint}", error.pointer, on_key=True)
