"""Volcano cannot decode the file (a yaml.v2 type error) and ignores all of it.

What it does:
    Decodes the file the way Volcano does (gopkg.in/yaml.v2 into
    ``conf.SchedulerConfiguration``) and reports every type mismatch with yaml.v2's text:
    a list or mapping where a string is expected (``actions``, ``name``, ``metrics``
    values), a quoted ``"false"`` or a number for a plugin switch such as
    ``enableNodeOrder``, a scalar or list for ``arguments``, a scalar for ``tiers``.
    Every node yaml.v2 decodes counts, in its order: each store of a repeated key (what an
    earlier ``tiers`` holds included), the values a merge key (``<<``) brings, decoded at the
    ``<<`` (a list of mappings from its end), and an alias's anchored node. An error in a
    merged or aliased value is named by its line in the anchor and reported there.

Why it matters:
    Volcano logs ``Scheduler config ... is invalid: yaml: unmarshal errors: ...`` and keeps
    running with its previous (at start-up: built-in default) configuration, so none of
    the file's settings, binpack included, take effect and nothing else tells you.

    Volcano trims leading and trailing whitespace before decoding. A conf indented as a whole
    (copied from a markdown list) loses the indentation of its first line only, so
    ``tiers`` ends up deeper than ``actions`` and yaml.v2 refuses the text
    (``yaml: line 1: did not find expected key``): reported here too, with that text.

Example (fails):
    actions: "enqueue, allocate, backfill"
    tiers:
    - plugins:
      - name: binpack
        enableNodeOrder: "true"

Use instead (passes):
    actions: "enqueue, allocate, backfill"
    tiers:
    - plugins:
      - name: binpack
        enableNodeOrder: true
"""

from linter.findings import Severity
from linter.formats.volcano import checks, codes

CODE = codes.UNMARSHAL_ERROR
NAME = "volcano-unmarshal-error"
SUMMARY = "Volcano rejects the file: yaml.v2 type error"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"volcano"})

check = checks.unmarshal_error
