"""What each PriorityClass rule checks: one function per rule, named after its code's constant in
``codes``. The rule modules in ``linter.rules.priorityclass`` hold the documentation and metadata and
take their ``check`` from here."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from linter.duplicatekeys import duplicate_keys
from linter.findings import Severity, Violation
from linter.formats.priorityclass.applied import applied_in_order
from linter.formats.priorityclass.handler import PriorityClassContext
from linter.formats.priorityclass.validate import already_default_reason, builtin, forbidden_message, invalid_message
from linter.gofmt import go_quote

Flagged = tuple[PriorityClassContext, Violation]  # a cross-file finding: the document and what is wrong


REMOVED_VERSIONS = ("scheduling.k8s.io/v1beta1", "scheduling.k8s.io/v1alpha1")


def schema(ctx: PriorityClassContext) -> Iterator[Violation]:
    if "apiVersion" not in ctx.data:  # kubectl cannot map the object to a resource, so never sends it
        yield Violation("no apiVersion: kubectl refuses to send the manifest (error validating data: apiVersion not "
                        "set); write apiVersion: scheduling.k8s.io/v1",
                        detail=f"error validating {go_quote(ctx.document.path)}: "
                        "error validating data: apiVersion not set")
    for error in ctx.schema_errors:
        if error.key:
            continue
        version = ctx.data.get("apiVersion")
        if error.pointer == ("apiVersion",) and version in REMOVED_VERSIONS:
            answer = f'no matches for kind "PriorityClass" in version "{version}"'
            yield Violation(f"{answer}: a 1.36 apiserver serves PriorityClass only as scheduling.k8s.io/v1; change "
                            "apiVersion (the fields are the same)", error.pointer,
                            detail=f"resource mapping not found for name: {go_quote(ctx.name)} namespace: \"\" from "
                            f"{go_quote(ctx.document.path)}: {answer}\nensure CRDs are installed first")
            continue
        yield Violation(error.message, error.pointer)


def unknown_field(ctx: PriorityClassContext) -> Iterator[Violation]:
    for error in ctx.schema_errors:
        if error.key:
            strict = f"strict decoding error: {error.message}"
            yield Violation(f"{strict} (kubectl apply validates fields strictly by default, so the apiserver rejects "
                            "the object)", error.pointer, on_key=True,
                            detail=f'PriorityClass in version "v1" cannot be handled as a PriorityClass: {strict}')


def duplicate_key(ctx: PriorityClassContext) -> Iterator[Violation]:
    return duplicate_keys(ctx.document)


def invalid(contexts: Iterable[PriorityClassContext]) -> Iterator[Flagged]:
    """The 422 field errors of every create, and of the first update of a built-in class (a later
    definition of a class from these files is BPL503's)."""
    for outcome in applied_in_order(contexts):
        if outcome.updates is None:
            for error, pointer in outcome.invalid:
                yield outcome.ctx, Violation(str(error), pointer)


_GLOBAL_DEFAULT = ("globalDefault",)


def multiple_global_defaults(contexts: Iterable[PriorityClassContext]) -> Iterator[Flagged]:
    """The documents applied in order: the default is whichever stored class last set ``globalDefault: true``."""
    for outcome in applied_in_order(contexts):
        default, ctx = outcome.blocked_by, outcome.ctx
        if default is None or not outcome.sent:
            continue
        name, first_name = ctx.effective_name, default.effective_name
        line = default.document.locate(_GLOBAL_DEFAULT)[0]
        rejected = forbidden_message(name, already_default_reason(first_name))
        yield ctx, Violation(
            f"PriorityClass {name!r} is a second globalDefault: {first_name!r} at {default.document.path}:{line} "
            f"is already one; applied after it, the API server answers: {rejected}",
            _GLOBAL_DEFAULT,
        )


def missing_value(ctx: PriorityClassContext) -> Iterator[Violation]:
    # a built-in class exists already: applying it without a value is an update that keeps its value
    if ctx.data.get("value") is None and builtin(ctx.name) is None:  # Go decodes null as the zero value too
        yield Violation(f"PriorityClass {ctx.effective_name!r} has no value: the API server stores 0")


def conflicting_definitions(contexts: Iterable[PriorityClassContext]) -> Iterator[Flagged]:
    for outcome in applied_in_order(contexts):
        first, ctx = outcome.updates, outcome.ctx
        if first is None or not outcome.decodable:
            continue
        where = f"{first.document.path}:{first.document.locate(('metadata', 'name'))[0]}"
        if outcome.invalid:
            errors = [error for error, _ in outcome.invalid]
            yield ctx, Violation(
                f"PriorityClass {ctx.name!r} is also defined at {where}; applied after it, this is an update "
                f"the API server rejects: {invalid_message(ctx.name, errors)}",
                outcome.invalid[0][1])
        else:
            yield ctx, Violation(f"PriorityClass {ctx.name!r} is defined again (first at {where})",
                                 ("metadata", "name"), severity=Severity.WARNING)
