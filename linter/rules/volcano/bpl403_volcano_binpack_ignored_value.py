"""A binpack weight that is not a YAML integer: Volcano ignores it and keeps the default 1.

What it does:
    Checks every key the binpack plugin reads as an int (``binpack.weight``, ``binpack.cpu``,
    ``binpack.memory``, ``binpack.resources.<listed name>``): Volcano takes the value only if
    yaml.v2 decoded it to a Go ``int``. A quoted ``"10"``, a float (``2.5`` and even
    ``2.0``), a boolean, a list or null is dropped with only a log line
    (``Could not parse argument: 10 for key binpack.weight to int``).

Why it matters:
    The weight the author wrote is silently replaced by 1, changing how strongly binpack
    packs and how it balances cpu against memory or GPUs.

Example (fails):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.weight: "10"
          binpack.cpu: 2.5

Use instead (passes):
    actions: "enqueue, allocate"
    tiers:
    - plugins:
      - name: binpack
        arguments:
          binpack.weight: 10
          binpack.cpu: 3
"""

from collections.abc import Iterator

from linter.findings import Severity, Violation
from linter.formats.volcano import binpack as bp
from linter.formats.volcano import codes
from linter.formats.volcano.handler import VolcanoContext
from linter.goint import yaml_int

CODE = codes.BINPACK_IGNORED_VALUE
NAME = "volcano-binpack-ignored-value"
SUMMARY = "binpack weight that is not a YAML integer (ignored, default 1 used)"
SEVERITY = Severity.WARNING
FORMATS = frozenset({"volcano"})


def _what(pointer: tuple[str | int, ...], value: object, quoted: bool) -> str:
    if isinstance(value, str):
        return "a quoted string" if quoted else "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, int):
        return "an integer outside int64"
    if value is None:
        return "null"
    return "a list" if isinstance(value, list) else "a mapping"


def check(ctx: VolcanoContext) -> Iterator[Violation]:
    for entry in ctx.binpack_entries():
        args = entry.arguments
        for key in bp.int_keys_read(args):
            value = args[key]
            if yaml_int(value) is not None:
                continue
            pointer = (*entry.arguments_pointer, key)
            what = _what(pointer, value, pointer in ctx.document.quoted)
            yield Violation(f"{key} is {what}: Volcano only takes YAML integers, ignores it and uses "
                            f"{bp.DEFAULT_WEIGHT} (it logs \"{bp.could_not_parse_log(value, key)}\")", pointer)
