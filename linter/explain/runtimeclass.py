"""The RuntimeClass admission plugin on explain's pending pod (plugin/pkg/admission/runtimeclass, 1.36).

The API server fills ``spec.overhead`` from the pod's RuntimeClass (``overhead.podFixed``) and merges the
class's ``scheduling.nodeSelector`` and ``scheduling.tolerations`` into the pod before the scheduler ever
sees it; a hand-written POD has none of that. explain can only do it when STATE holds the cluster's
RuntimeClasses (``kubectl get ...,runtimeclasses``): without any RuntimeClass in STATE the pod is left
as written, since an absent class cannot be told from a dump that did not ask for them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from linter.scoring.quantity import QuantityError, parse_quantity

__all__ = ["RuntimeClassRejection", "admit_runtime_class"]


class RuntimeClassRejection(Exception):
    """The API server would refuse the pod; the message is the admission plugin's."""


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _same_resources(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """``equality.Semantic.DeepEqual`` of two resource lists: same names, quantities equal by value."""
    if set(a) != set(b):
        return False
    try:
        return all(parse_quantity(a[k]) == parse_quantity(b[k]) for k in a)
    except QuantityError:
        return False


def _set_overhead(spec: dict[str, Any], runtime_class: Mapping[str, Any] | None) -> None:
    """``setOverhead``: the class's ``overhead.podFixed`` becomes the pod's overhead."""
    overhead = runtime_class.get("overhead") if runtime_class is not None else None
    if not isinstance(overhead, Mapping):
        return
    fixed = overhead.get("podFixed")
    if spec.get("overhead") is not None and not _same_resources(_mapping(spec["overhead"]), _mapping(fixed)):
        raise RuntimeClassRejection("pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead")
    spec["overhead"] = fixed


def _validate_overhead(spec: Mapping[str, Any], runtime_class: Mapping[str, Any] | None) -> None:
    """``validateOverhead`` (the validating phase, after every mutation): an overhead needs a class with one."""
    has_class_overhead = runtime_class is not None and isinstance(runtime_class.get("overhead"), Mapping)
    if not has_class_overhead and spec.get("overhead") is not None:
        raise RuntimeClassRejection("pod rejected: Pod Overhead set without corresponding RuntimeClass defined "
                                    "Overhead")


def _scheduling(spec: dict[str, Any], runtime_class: Mapping[str, Any]) -> None:
    """``setScheduling``: the class's node selector merged in (a different value for a key is refused) and
    its tolerations added (``MergeTolerations`` drops duplicates; the tolerated taints are the union)."""
    scheduling = runtime_class.get("scheduling")
    if not isinstance(scheduling, Mapping):
        return
    selector = _mapping(scheduling.get("nodeSelector"))
    if selector:
        merged = dict(_mapping(spec.get("nodeSelector")))
        for key, value in selector.items():
            if key in merged and merged[key] != value:
                raise RuntimeClassRejection(f"conflict: runtimeClass.scheduling.nodeSelector[{key}] = {value}; "
                                            f"pod.spec.nodeSelector[{key}] = {merged[key]}")
            merged[key] = value
        spec["nodeSelector"] = merged
    extra = scheduling.get("tolerations")
    if isinstance(extra, list) and extra:
        own = spec.get("tolerations")
        own = own if isinstance(own, list) else []
        spec["tolerations"] = own + [t for t in extra if t not in own]


def admit_runtime_class(pod: Mapping[str, Any], runtime_classes: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    """``pod`` as the RuntimeClass plugin admits it, given every RuntimeClass of the cluster; unchanged
    when ``runtime_classes`` is empty. Raises :class:`RuntimeClassRejection` when it would be refused."""
    spec = pod.get("spec")
    if not runtime_classes or not isinstance(spec, Mapping):
        return pod
    name = spec.get("runtimeClassName")
    admitted = dict(spec)
    runtime_class = None
    if name is not None:
        runtime_class = next((c for c in runtime_classes if _mapping(c.get("metadata")).get("name") == name), None)
        if runtime_class is None:
            raise RuntimeClassRejection(f'pod rejected: RuntimeClass "{name}" not found')
    _set_overhead(admitted, runtime_class)
    if runtime_class is not None:
        _scheduling(admitted, runtime_class)
    _validate_overhead(admitted, runtime_class)
    return {**pod, "spec": admitted}
