"""More than one PriorityClass with ``globalDefault: true`` across all files linted together.

What it does:
    Looks at every PriorityClass of the run (all files and documents, ConfigMaps and Lists
    opened up). The first class that sets ``globalDefault: true`` is the default; every other
    class (by another name) that sets it gets this error on its ``globalDefault`` line,
    naming the first one's file and line.

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

from collections.abc import Iterable, Iterator

from linter.findings import Severity, Violation
from linter.formats.priorityclass import codes
from linter.formats.priorityclass.handler import PriorityClassContext
from linter.formats.priorityclass.validate import already_default_reason, forbidden_message

CODE = codes.MULTIPLE_GLOBAL_DEFAULTS
NAME = "multiple-global-defaults"
SUMMARY = "more than one globalDefault PriorityClass across the linted files"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"priorityclass"})

_POINTER = ("globalDefault",)


def check_corpus(contexts: Iterable[PriorityClassContext]) -> Iterator[tuple[PriorityClassContext, Violation]]:
    first: PriorityClassContext | None = None
    for ctx in contexts:
        if not ctx.is_global_default:
            continue
        if first is None:
            first = ctx
            continue
        if ctx.name == first.name:  # the same class twice is BPL503's business
            continue
        line = first.document.locate(_POINTER)[0]
        rejected = forbidden_message(ctx.name, already_default_reason(first.name))
        yield ctx, Violation(
            f"PriorityClass {ctx.name!r} is a second globalDefault: {first.name!r} at {first.document.path}:{line} "
            f"is already one; applied after it, the API server answers: {rejected}",
            _POINTER,
        )
