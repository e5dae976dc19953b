"""Label selectors as k8s.io/apimachinery's ``labels.Selector`` evaluates them, for PodTopologySpread.

A :class:`Selector` is a list of requirements ANDed together, or ``NOTHING`` (a nil ``LabelSelector``:
matches no label set and has no requirements to merge). ``Selector(())`` is ``labels.Everything()``: it
matches every set and is the only *empty* selector (``Selector.Empty``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from linter.k8snames import label_value_errors, qualified_name_errors

__all__ = ["EVERYTHING", "NOTHING", "Requirement", "Selector", "SelectorError", "from_label_selector", "from_set"]

# (key, operator, values): operators "=", "In", "NotIn", "Exists", "DoesNotExist"
Requirement = tuple[str, str, frozenset[str]]


class SelectorError(ValueError):
    """``LabelSelectorAsSelector`` refuses the selector (the text is Go's error, as far as modelled)."""


@dataclass(frozen=True)
class Selector:
    requirements: tuple[Requirement, ...] | None  # None: labels.Nothing()

    @property
    def empty(self) -> bool:
        """``Selector.Empty()``: true only for a selector without requirements (Nothing is not empty)."""
        return self.requirements == ()

    def matches(self, labels: Mapping[str, str]) -> bool:
        if self.requirements is None:
            return False
        for key, op, values in self.requirements:
            present = key in labels
            if op in ("=", "In"):
                ok = present and labels[key] in values
            elif op == "NotIn":
                ok = not present or labels[key] not in values
            elif op == "Exists":
                ok = present
            else:
                ok = not present
            if not ok:
                return False
        return True

    def add(self, more: Sequence[Requirement]) -> Selector:
        """``Selector.Add``: Nothing stays Nothing."""
        return self if self.requirements is None else Selector((*self.requirements, *more))


NOTHING = Selector(None)
EVERYTHING = Selector(())


def from_set(labels: Mapping[str, str]) -> Selector:
    """``labels.Set.AsSelector()``: one equality per label; an empty set selects everything."""
    return Selector(tuple((str(k), "=", frozenset({str(v)})) for k, v in sorted(labels.items())))


def _requirement(key: object, op: str, values: list[object]) -> Requirement:
    """``labels.NewRequirement``'s checks: a label key, 1+ values for In/NotIn (label values), none for
    Exists/DoesNotExist."""
    if not isinstance(key, str) or qualified_name_errors(key):
        raise SelectorError(f"key: Invalid value: {key!r}")
    if op in ("=", "In", "NotIn"):
        if not values:
            raise SelectorError("values: Invalid value: for 'in', 'notin' operators, values set can't be empty")
    elif values:
        raise SelectorError("values: Invalid value: values set must be empty for exists and does not exist")
    for value in values:
        if not isinstance(value, str) or label_value_errors(value):
            raise SelectorError(f"values[0]: Invalid value: {value!r}")
    return (key, op, frozenset(str(v) for v in values))


def from_label_selector(raw: object) -> Selector:
    """``metav1.LabelSelectorAsSelector``: None is Nothing, ``{}`` Everything; raises SelectorError."""
    if raw is None:
        return NOTHING
    if not isinstance(raw, Mapping):
        raise SelectorError("labelSelector is not a mapping")
    match_labels = raw.get("matchLabels") or {}
    exprs = raw.get("matchExpressions") or []
    if not isinstance(match_labels, Mapping) or not isinstance(exprs, list):
        raise SelectorError("labelSelector has a matchLabels or matchExpressions of the wrong type")
    out = [_requirement(k, "=", [v]) for k, v in match_labels.items()]
    for expr in exprs:
        expr = expr if isinstance(expr, Mapping) else {}
        op = expr.get("operator")
        if op not in ("In", "NotIn", "Exists", "DoesNotExist"):
            raise SelectorError(f'"{op if isinstance(op, str) else ""}" is not a valid label selector operator')
        values = expr.get("values") or []
        out.append(_requirement(expr.get("key"), str(op), list(values) if isinstance(values, list) else [values]))
    return Selector(tuple(out))
