"""What each PriorityClass rule checks: one function per rule, named after its code's constant in
``codes``. The rule modules in ``linter.rules.priorityclass`` hold the documentation and metadata and
take their ``check`` from here."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from linter.duplicatekeys import duplicate_keys
from linter.findings import Severity, Violation
from linter.formats.priorityclass.handler import PriorityClassContext, field_pointer
from linter.formats.priorityclass.validate import (
    already_default_reason,
    forbidden_message,
    invalid_message,
    validate_update,
)
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


def invalid(ctx: PriorityClassContext) -> Iterator[Violation]:
    for error, pointer in ctx.field_errors:
        yield Violation(str(error), pointer)


_GLOBAL_DEFAULT = ("globalDefault",)


def multiple_global_defaults(contexts: Iterable[PriorityClassContext]) -> Iterator[Flagged]:
    """The documents applied in order: the default is whichever stored class last set ``globalDefault: true``."""
    stored: dict[str, PriorityClassContext] = {}  # by name: the definition the API server holds
    default: PriorityClassContext | None = None
    for ctx in contexts:
        previous = stored.get(ctx.name) if ctx.name else None  # generateName: a new class every time
        if not _is_stored(ctx, previous):  # refused with 422 (or never sent): changes nothing
            continue
        same_class = previous is not None and default is not None and default.name == ctx.name
        if ctx.is_global_default and default is not None and not same_class:
            name, first_name = ctx.effective_name, default.effective_name
            line = default.document.locate(_GLOBAL_DEFAULT)[0]
            rejected = forbidden_message(name, already_default_reason(first_name))
            yield ctx, Violation(
                f"PriorityClass {name!r} is a second globalDefault: {first_name!r} at {default.document.path}:{line} "
                f"is already one; applied after it, the API server answers: {rejected}",
                _GLOBAL_DEFAULT,
            )
            continue  # refused with 403: not stored either
        if ctx.name:
            stored[ctx.name] = ctx
        if ctx.is_global_default:
            default = default if same_class else ctx  # an update keeps pointing at the line that made it default
        elif same_class:
            default = None  # an update to globalDefault false gives the default up


def _is_stored(ctx: PriorityClassContext, previous: PriorityClassContext | None) -> bool:
    """Whether the API server passes ``ctx`` through validation: a create (``previous`` None) by the create
    checks; a later definition of a stored name is an update (kubectl apply), judged by the update checks."""
    if previous is None:
        return ctx.would_be_created
    return "apiVersion" in ctx.data and not ctx.schema_errors and not validate_update(previous.data, ctx.data)


def missing_value(ctx: PriorityClassContext) -> Iterator[Violation]:
    if ctx.data.get("value") is None:  # Go decodes null as the zero value too
        yield Violation(f"PriorityClass {ctx.effective_name!r} has no value: the API server stores 0")


def conflicting_definitions(contexts: Iterable[PriorityClassContext]) -> Iterator[Flagged]:
    stored: dict[str, PriorityClassContext] = {}
    for ctx in contexts:
        if not ctx.name:
            continue
        first = stored.get(ctx.name)
        if first is None:
            # a definition the API server (or kubectl) refuses is never stored: the next one is a create
            if ctx.would_be_created:
                stored[ctx.name] = ctx
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
