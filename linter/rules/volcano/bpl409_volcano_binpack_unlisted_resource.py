"""``binpack.resources.<name>`` for a resource that ``binpack.resources`` does not list: ignored.

What it does:
    Reports weight keys ``binpack.resources.<name>`` (other than cpu and memory, see BPL407)
    whose name is not in the ``binpack.resources`` list (after Volcano's comma split and
    trimming).

Why it matters:
    Volcano reads weights only for listed names; an unlisted resource is not scored at all,
    however high its weight.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.resources.nvidia.com/gpu: 5

Use instead (passes):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.resources: nvidia.com/gpu
          binpack.resources.nvidia.com/gpu: 5
"""

from collections.abc import Iterator

from linter.findings import Severity, Violation
from linter.formats.volcano import binpack as bp
from linter.formats.volcano import codes
from linter.formats.volcano.handler import VolcanoContext

CODE = codes.BINPACK_UNLISTED_RESOURCE
NAME = "volcano-binpack-unlisted-resource"
SUMMARY = "binpack.resources.<name> for a name not in binpack.resources (ignored)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})


def check(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.binpack_entries():
        listed = bp.listed_resources(entry.arguments)
        for key in entry.arguments:
            if not key.startswith(bp.RESOURCE_PREFIX) or len(key) == len(bp.RESOURCE_PREFIX):
                continue
            name = key[len(bp.RESOURCE_PREFIX):]
            if name in ("cpu", "memory") or name in listed:
                continue
            shown = ", ".join(listed) if listed else "nothing"
            yield Violation(f"{key} is ignored: {name!r} is not listed in binpack.resources (which lists {shown}), "
                            f"so Volcano never scores it", (*entry.arguments_pointer, key), on_key=True)
