"""What the Priority admission plugin writes into a new pod: ``spec.priority`` and
``spec.preemptionPolicy`` from its PriorityClass (reference/priority.md §3). Used by
``binpack-lint explain`` for a pending pod that does not carry them yet (issue 10).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from linter.formats.priorityclass.validate import (
    PREEMPT_LOWER_PRIORITY,
    PriorityClassInfo,
    builtin,
    existing_default,
    name_of,
)

__all__ = ["admitted_priority"]


def admitted_priority(pod: Mapping[str, Any], classes: Iterable[Mapping[str, Any]]) -> tuple[int, str]:
    """(``spec.priority``, ``spec.preemptionPolicy``) as admission would store them on create.

    Values already in the spec are kept. A named class (user or built-in) gives its value and
    policy; no class gives the globalDefault class's (lowest value), else 0 and
    PreemptLowerPriority. An unknown class raises LookupError: admission would reject the pod.
    """
    spec = pod.get("spec")
    spec = spec if isinstance(spec, Mapping) else {}
    by_name = {name_of(c): PriorityClassInfo.from_object(c) for c in classes if isinstance(c, Mapping)}
    class_name = spec.get("priorityClassName")
    info: PriorityClassInfo | None
    if isinstance(class_name, str) and class_name:
        info = by_name.get(class_name) or builtin(class_name)
        if info is None:
            raise LookupError(f"no PriorityClass with name {class_name} was found")
    else:
        default = existing_default(c for c in classes if isinstance(c, Mapping))
        info = PriorityClassInfo.from_object(default) if default is not None else None
    given, policy = spec.get("priority"), spec.get("preemptionPolicy")
    priority = given if isinstance(given, int) and not isinstance(given, bool) else (info.value if info else 0)
    if not isinstance(policy, str) or not policy:
        policy = info.preemption_policy if info else PREEMPT_LOWER_PRIORITY
    return priority, policy
