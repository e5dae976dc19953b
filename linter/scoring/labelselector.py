"""metav1.LabelSelector as ``LabelSelectorAsSelector`` (apimachinery, 1.36) turns it into a labels.Selector.

* A missing selector (``None``) selects nothing (``labels.Nothing()``); one with neither ``matchLabels``
  nor ``matchExpressions`` selects everything (``labels.Everything()``, the only selector whose
  ``Empty()`` is true).
* ``matchLabels`` ``k: v`` is ``k = v``; ``In`` needs the key with one of the values, ``NotIn`` the key
  absent or another value, ``Exists``/``DoesNotExist`` the key present/absent. All requirements must hold.
* A selector that does not convert raises :class:`SelectorError`: a key, value or values list of a JSON type
  the Go types cannot hold, an operator other than the four, ``In``
  or ``NotIn`` without values, ``Exists``/``DoesNotExist`` with values, a key that is not a qualified
  name or a value that is not a label value. The message follows ``labels.NewRequirement``'s field
  errors, but Go walks ``matchLabels`` in random order, so which of several bad entries it names first
  is not fixed there either.

:func:`from_set` is ``labels.Set.AsSelector()`` and :meth:`LabelSelector.add` ``Selector.Add``, which
PodTopologySpread's default selector and ``matchLabelKeys`` merging use.

Pure, no I/O. The one label selector of InterPodAffinity's terms (:mod:`linter.scoring.podaffinity`) and
PodTopologySpread's constraints (:mod:`linter.scoring.spread`), and PodDisruptionBudgets' in preemption
(:mod:`linter.scoring.preemption.pdb`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from linter.gofmt import aggregate, go_quote
from linter.k8snames import label_value_errors, qualified_name_errors

__all__ = ["EVERYTHING", "NOTHING", "LabelSelector", "Requirement", "SelectorError", "from_set", "object_labels",
           "selector_from"]

# (key, operator, values); "=" for a matchLabels entry
Requirement = tuple[str, str, frozenset[str]]
_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")


class SelectorError(ValueError):
    """The selector does not convert; ``str()`` is the Go error text."""


@dataclass(frozen=True)
class LabelSelector:
    """A converted selector. ``nothing`` selects no label set; no requirements selects every one."""

    requirements: tuple[Requirement, ...] = ()
    nothing: bool = False

    @property
    def empty(self) -> bool:
        """``Selector.Empty()``: true only for Everything (the selector does not restrict)."""
        return not self.nothing and not self.requirements

    def matches(self, labels: Mapping[str, str]) -> bool:
        if self.nothing:
            return False
        for key, op, values in self.requirements:
            value = labels.get(key)
            if op in ("=", "In"):
                if value is None or value not in values:
                    return False
            elif op == "NotIn":
                if value is not None and value in values:
                    return False
            elif (value is not None) != (op == "Exists"):
                return False
        return True

    def add(self, more: tuple[Requirement, ...]) -> LabelSelector:
        """``Selector.Add``: ``more`` ANDed in; Nothing stays Nothing."""
        return self if self.nothing else LabelSelector(requirements=(*self.requirements, *more))


NOTHING = LabelSelector(nothing=True)
EVERYTHING = LabelSelector()


def object_labels(obj: Mapping[str, Any]) -> dict[str, str]:
    """An object's ``metadata.labels`` as the label set selectors match ({} when it has none)."""
    meta = obj.get("metadata")
    raw = meta.get("labels") if isinstance(meta, Mapping) else None
    return {str(k): str(v) for k, v in raw.items()} if isinstance(raw, Mapping) else {}


def from_set(labels: Mapping[str, str]) -> LabelSelector:
    """``labels.Set.AsSelector()``: one equality per label; an empty set selects everything."""
    return LabelSelector(requirements=tuple((str(k), "=", frozenset({str(v)})) for k, v in sorted(labels.items())))


def _requirement(key: object, op: str, values: list[object]) -> Requirement:
    """``labels.NewRequirement`` with its field errors (key, operator/values count, each value)."""
    errs: list[str] = []
    text_key = key if isinstance(key, str) else ""
    key_errs = qualified_name_errors(text_key)
    if key_errs:
        errs.append(f"key: Invalid value: {go_quote(text_key)}: " + "; ".join(key_errs))
    if not all(isinstance(v, str) for v in values):  # a map[string]string / []string no decoder fills otherwise
        raise SelectorError("label selector value is not a string")
    texts = [str(v) for v in values]
    if op in ("In", "NotIn") and not texts:
        errs.append("values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty")
    elif op in ("Exists", "DoesNotExist") and texts:
        errs.append("values: Invalid value: []string{" + ", ".join(go_quote(t) for t in texts)
                    + "}: values set must be empty for exists and does not exist")
    for i, value in enumerate(texts):
        value_errs = label_value_errors(value)
        if value_errs:
            errs.append(f"values[{i}][{text_key}]: Invalid value: {go_quote(value)}: " + "; ".join(value_errs))
    if errs:
        raise SelectorError(aggregate(errs))
    return text_key, op, frozenset(texts)


def selector_from(raw: object) -> LabelSelector:
    """Convert a metav1.LabelSelector (a mapping, or None for an unset one)."""
    if raw is None:
        return NOTHING
    if not isinstance(raw, Mapping):
        raise SelectorError("label selector is not an object")
    match_labels = raw.get("matchLabels") or {}
    exprs = raw.get("matchExpressions") or []
    if not isinstance(match_labels, Mapping) or not isinstance(exprs, list):
        raise SelectorError("label selector is not an object")
    if not match_labels and not exprs:
        return EVERYTHING
    reqs: list[Requirement] = []
    for key, value in match_labels.items():
        reqs.append(_requirement(key, "=", [value]))
    for expr in exprs:
        if not isinstance(expr, Mapping):
            raise SelectorError("label selector requirement is not an object")
        op = expr.get("operator")
        if op not in _OPERATORS:
            raise SelectorError(f"{go_quote(str(op or ''))} is not a valid label selector operator")
        values = expr.get("values") or []
        if not isinstance(values, list):
            raise SelectorError("label selector values are not a list")
        reqs.append(_requirement(expr.get("key"), str(op), values))
    # Go sorts requirements by key; the result of matching does not depend on order
    return LabelSelector(requirements=tuple(sorted(reqs, key=lambda r: r[0])))
