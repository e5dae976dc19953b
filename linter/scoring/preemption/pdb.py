"""PodDisruptionBudgets as preemption reads them (reference/preemption.md §4.4).

Only ``status.disruptionsAllowed`` and ``status.disruptedPods`` are read, never
``minAvailable``/``maxUnavailable``. A PDB matches a pod when it is in the pod's namespace, its
selector converts (``LabelSelectorAsSelector``), the selector is not empty and selects the pod's
labels. A missing selector and ``{}`` both match nothing here; a pod without labels matches no PDB.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from linter.scoring.labelselector import NOTHING, LabelSelector, SelectorError, selector_from

from .pods import PodFacts

__all__ = ["Budget", "budget_of", "split_by_violation"]


@dataclass(frozen=True)
class Budget:
    """One PDB reduced to what preemption reads; ``selector`` is NOTHING for a nil, empty or unconvertible one."""

    namespace: str
    name: str
    selector: LabelSelector
    disruptions_allowed: int
    disrupted_pods: frozenset[str]

    def selects(self, pod: PodFacts) -> bool:
        return self.selects_labels(pod.namespace, pod.labels)

    def selects_labels(self, namespace: str, labels: Mapping[str, str]) -> bool:
        if not labels or namespace != self.namespace:
            return False
        return self.selector.matches(labels)


def _selector(raw: object) -> LabelSelector:
    """``LabelSelectorAsSelector``; a PDB whose selector does not convert, or is nil or empty, selects nothing."""
    try:
        converted = selector_from(raw)
    except SelectorError:
        return NOTHING
    return NOTHING if converted.empty else converted


def budget_of(pdb: Mapping[str, Any]) -> Budget:
    meta = pdb.get("metadata") if isinstance(pdb.get("metadata"), Mapping) else {}
    spec = pdb.get("spec") if isinstance(pdb.get("spec"), Mapping) else {}
    status = pdb.get("status") if isinstance(pdb.get("status"), Mapping) else {}
    assert isinstance(meta, Mapping) and isinstance(spec, Mapping) and isinstance(status, Mapping)
    allowed = status.get("disruptionsAllowed")
    disrupted = status.get("disruptedPods")
    return Budget(
        namespace=str(meta.get("namespace") or "default"),
        name=str(meta.get("name") or ""),
        selector=_selector(spec.get("selector")),
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
