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

from linter.findings import Severity
from linter.formats.volcano import checks, codes

CODE = codes.BINPACK_UNLISTED_RESOURCE
NAME = "volcano-binpack-unlisted-resource"
SUMMARY = "binpack.resources.<name> for a name not in binpack.resources (ignored)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})

check = checks.binpack_unlisted_resource
