"""``ValidateNodeAffinityArgs`` of kube-scheduler 1.36: ``addedAffinity`` parsed as the plugin parses it.

The scheduler does not run the API server's NodeSelector validators here: it builds the selectors
with k8s.io/component-helpers ``nodeaffinity.NewNodeSelector`` / ``NewPreferredSchedulingTerms``
and reports their parse errors (``labels.NewRequirement`` for ``matchExpressions``). So:

* a term with neither ``matchExpressions`` nor ``matchFields`` is skipped, and so is a preferred
  term of weight 0; preferred weights are otherwise not range-checked;
* a preferred term's paths have no ``preference`` element
  (``preferredDuringSchedulingIgnoredDuringExecution[0].matchExpressions[0]...``);
* ``matchFields`` accepts ``In``/``NotIn`` with exactly one value and any key.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from linter.gofmt import FieldError, Rendered, go_json, supported
from linter.goint import INT64_MAX
from linter.k8snames import label_value_errors, qualified_name_errors
from linter.source import Pointer

Result = Iterator[tuple[FieldError, Pointer]]
LABEL_OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"]
FIELD_OPERATORS = ["In", "NotIn"]
REQUIRED = "requiredDuringSchedulingIgnoredDuringExecution"
PREFERRED = "preferredDuringSchedulingIgnoredDuringExecution"
_GO_DECIMAL = re.compile(r"[+-]?[0-9]+")


def validate_node_affinity(args: dict[str, Any], prefix: str) -> Result:
    added = args.get("addedAffinity")
    if added is None:
        return
    base = f"{prefix}.addedAffinity" if prefix else "addedAffinity"
    required = added.get(REQUIRED)
    if required is not None:
        for i, term in enumerate(required.get("nodeSelectorTerms") or []):
            ptr: Pointer = ("addedAffinity", REQUIRED, "nodeSelectorTerms", i)
            yield from _term(term, f"{base}.{REQUIRED}.nodeSelectorTerms[{i}]", ptr)
    for i, preferred in enumerate(added.get(PREFERRED) or []):
        if not preferred.get("weight"):
            continue
        yield from _term(preferred.get("preference") or {}, f"{base}.{PREFERRED}[{i}]",
                         ("addedAffinity", PREFERRED, i, "preference"))


def _term(term: dict[str, Any], path: str, ptr: Pointer) -> Result:
    for i, expr in enumerate(term.get("matchExpressions") or []):
        yield from _label_requirement(expr, f"{path}.matchExpressions[{i}]", (*ptr, "matchExpressions", i))
    for i, expr in enumerate(term.get("matchFields") or []):
        yield from _field_requirement(expr, f"{path}.matchFields[{i}]", (*ptr, "matchFields", i))


def _values(expr: dict[str, Any]) -> tuple[list[str], Rendered]:
    """The values and how ``field.Invalid`` prints the ``[]string`` (nil -> ``null``)."""
    values = expr.get("values")
    return list(values or []), Rendered(go_json(values))


def _label_requirement(expr: dict[str, Any], path: str, ptr: Pointer) -> Result:
    op = expr.get("operator", "")
    if op not in LABEL_OPERATORS:
        yield (FieldError("Unsupported value", f"{path}.operator", Rendered(go_json(op)), supported(LABEL_OPERATORS)),
               (*ptr, "operator"))
        return
    key = expr.get("key", "")
    key_errors = qualified_name_errors(key)
    if key_errors:
        yield FieldError("Invalid value", f"{path}.key", key, "; ".join(key_errors)), (*ptr, "key")
    values, shown = _values(expr)
    vpath, vptr = f"{path}.values", (*ptr, "values")
    if op in ("In", "NotIn") and not values:
        yield FieldError("Invalid value", vpath, shown, "for 'in', 'notin' operators, values set can't be empty"), vptr
    elif op in ("Exists", "DoesNotExist") and values:
        yield FieldError("Invalid value", vpath, shown, "values set must be empty for exists and does not exist"), vptr
    elif op in ("Gt", "Lt"):
        if len(values) != 1:
            yield (FieldError("Invalid value", vpath, shown, "for 'Gt', 'Lt' operators, exactly one value is required"),
                   vptr)
        for i, value in enumerate(values):
            if not _is_go_int64(value):
                yield (FieldError("Invalid value", f"{vpath}[{i}]", value,
                                  "for 'Gt', 'Lt' operators, the value must be an integer"), (*vptr, i))
    for i, value in enumerate(values):
        value_errors = label_value_errors(value)
        if value_errors:
            yield FieldError("Invalid value", f"{vpath}[{i}][{key}]", value, "; ".join(value_errors)), (*vptr, i)


def _field_requirement(expr: dict[str, Any], path: str, ptr: Pointer) -> Result:
    op = expr.get("operator", "")
    if op not in FIELD_OPERATORS:
        yield (FieldError("Unsupported value", f"{path}.operator", Rendered(go_json(op)), supported(FIELD_OPERATORS)),
               (*ptr, "operator"))
        return
    values, shown = _values(expr)
    if len(values) != 1:
        yield FieldError("Invalid value", f"{path}.values", shown, "must have one element"), (*ptr, "values")


def _is_go_int64(text: str) -> bool:
    """``strconv.ParseInt(text, 10, 64)`` succeeds: an optional sign, ASCII digits, in range."""
    if not _GO_DECIMAL.fullmatch(text):
        return False
    return -INT64_MAX - 1 <= int(text) <= INT64_MAX
