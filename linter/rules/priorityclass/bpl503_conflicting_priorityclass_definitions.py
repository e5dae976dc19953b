"""The same PriorityClass name is defined more than once across the linted files.

What it does:
    Finds PriorityClasses with the same name in one run. Applying the later manifest is an
    *update* of the earlier one: when it changes ``value`` or ``preemptionPolicy`` (both
    immutable) this is an error with the API server's update message; identical
    redefinitions are a warning.

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

from collections.abc import Iterable, Iterator

from linter.findings import Severity, Violation
from linter.formats.priorityclass import codes
from linter.formats.priorityclass.handler import PriorityClassContext, field_pointer
from linter.formats.priorityclass.validate import invalid_message, validate_update

CODE = codes.CONFLICTING_DEFINITIONS
NAME = "conflicting-priorityclass-definitions"
SUMMARY = "PriorityClass name defined more than once (immutable fields differ: error)"
SEVERITY = Severity.ERROR
FORMATS = frozenset({"priorityclass"})


def check_corpus(contexts: Iterable[PriorityClassContext]) -> Iterator[tuple[PriorityClassContext, Violation]]:
    first_by_name: dict[str, PriorityClassContext] = {}
    for ctx in contexts:
        if not ctx.name:
            continue
        first = first_by_name.setdefault(ctx.name, ctx)
        if first is ctx:
            continue
        where = f"{first.document.path}:{first.document.locate(('metadata', 'name'))[0]}"
        errors = validate_update(first.data, ctx.data)
        if errors:
            yield ctx, Violation(
                f"PriorityClass {ctx.name!r} is also defined at {where}; applied after it, this is an update "
                f"the API server rejects: {invalid_message(ctx.name, errors)}",
                field_pointer(errors[0].field))
        else:
            yield ctx, Violation(f"PriorityClass {ctx.name!r} is defined again (first at {where})",
                                 ("metadata", "name"), severity=Severity.WARNING)
