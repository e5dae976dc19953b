"""PodDisruptionBudgets as preemption reads them (reference/preemption.md §4.4).

Only ``status.disruptionsAllowed`` and ``status.disruptedPods`` are read, never
``minAvailable``/``maxUnavailable``. A PDB matches a pod when it is in the pod's namespace, its
selector converts (``LabelSelectorAsSelector``), the selector is not empty and selects the pod's
labels. A missing selector and ``{}`` both match nothing here; a pod without labels matches no PDB.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from linter.k8snames import qualified_name_errors

from .pods import PodFacts

__all__ = ["Budget", "budget_of", "split_by_violation"]

_LABEL_VALUE = re.compile(r"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?")

# (key, operator, values); operators as labels.Selector has them
Requirement = tuple[str, str, frozenset[str]]


def _valid_value(value: object) -> bool:
    return isinstance(value, str) and len(value) <= 63 and _LABEL_VALUE.fullmatch(value) is not None


def _requirements(selector: object) -> list[Requirement] | None:
    """The selector's requirements; None when it does not convert (the PDB is then skipped)."""
    if not isinstance(selector, Mapping):
        return None
    out: list[Requirement] = []
    match_labels = selector.get("matchLabels") or {}
    exprs = selector.get("matchExpressions") or []
    if not isinstance(match_labels, Mapping) or not isinstance(exprs, list):
        return None
    for key, value in match_labels.items():
        if not isinstance(key, str) or qualified_name_errors(key) or not _valid_value(value):
            return None
        out.append((key, "=", frozenset({str(value)})))
    for expr in exprs:
        if not isinstance(expr, Mapping):
            return None
        key, op, values = expr.get("key"), expr.get("operator"), expr.get("values") or []
        if not isinstance(key, str) or qualified_name_errors(key) or not isinstance(values, list):
            return None
        if op in ("In", "NotIn"):
            if not values or not all(_valid_value(v) for v in values):
                return None
        elif op in ("Exists", "DoesNotExist"):
            if values:
                return None
        else:
            return None
        out.append((key, str(op), frozenset(str(v) for v in values)))
    return out


def _matches(req: Requirement, labels: Mapping[str, str]) -> bool:
    key, op, values = req
    present = key in labels
    if op in ("=", "In"):
        return present and labels[key] in values
    if op == "NotIn":
        return not present or labels[key] not in values
    return present if op == "Exists" else not present


@dataclass(frozen=True)
class Budget:
    """One PDB reduced to what preemption reads; ``requirements`` None/empty = matches nothing."""

    namespace: str
    name: str
    requirements: tuple[Requirement, ...] | None
    disruptions_allowed: int
    disrupted_pods: frozenset[str]

    def selects(self, pod: PodFacts) -> bool:
        return self.selects_labels(pod.namespace, pod.labels)

    def selects_labels(self, namespace: str, labels: Mapping[str, str]) -> bool:
        if not labels or namespace != self.namespace or not self.requirements:
            return False
        return all(_matches(r, labels) for r in self.requirements)


def budget_of(pdb: Mapping[str, Any]) -> Budget:
    meta = pdb.get("metadata") if isinstance(pdb.get("metadata"), Mapping) else {}
    spec = pdb.get("spec") if isinstance(pdb.get("spec"), Mapping) else {}
    status = pdb.get("status") if isinstance(pdb.get("status"), Mapping) else {}
    assert isinstance(meta, Mapping) and isinstance(spec, Mapping) and isinstance(status, Mapping)
    reqs = _requirements(spec.get("selector"))
    allowed = status.get("disruptionsAllowed")
    disrupted = status.get("disruptedPods")
    return Budget(
        namespace=str(meta.get("namespace") or "default"),
        name=str(meta.get("name") or ""),
        requirements=tuple(reqs) if reqs is not None else None,
        disruptions_allowed=allowed if isinstance(allowed, int) and not isinstance(allowed, bool) else 0,
        disrupted_pods=frozenset(str(k) for k in disrupted) if isinstance(disrupted, Mapping) else frozenset(),
    )


def split_by_violation(
    pods: Sequence[PodFacts], budgets: Sequence[Budget]
) -> tuple[list[PodFacts], list[PodFacts], dict[str, list[str]]]:
    """``filterPodsWithPDBViolation``: (violating, non-violating, pod key -> PDBs it violates).

    ``pods`` are in importance order; one running budget per PDB, charged by every matching pod
    not listed in ``disruptedPods``, even after another PDB already made the pod violating.
    """
    left = [b.disruptions_allowed for b in budgets]
    violating: list[PodFacts] = []
    fine: list[PodFacts] = []
    why: dict[str, list[str]] = {}
    for pod in pods:
        violated: list[str] = []
        for i, budget in enumerate(budgets):
            if not budget.selects(pod) or pod.name in budget.disrupted_pods:
                continue
            left[i] -= 1
            if left[i] < 0:
                violated.append(f"{budget.namespace}/{budget.name}")
        if violated:
            violating.append(pod)
            why[pod.key] = violated
        else:
            fine.append(pod)
    return violating, fine, why
