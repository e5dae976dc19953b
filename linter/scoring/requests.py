"""Pod requests as each scorer sees them (docs/scoring.md, section 1).

All four views follow kube-scheduler's ``PodRequests`` aggregation: containers summed,
init containers walked in order with restartable ones (sidecars) added to both the
container sum and the running sidecar sum, ``max(containers, init usage)`` per resource,
pod-level requests (cpu, memory, hugepages-*) replacing the aggregate where allowed, then
``spec.overhead`` added. Quantities are summed exactly and turned into integers once per
pod, as the Go code does with ``resource.Quantity``.

Pods are plain JSON-like v1 Pod mappings. A malformed quantity raises
:class:`~linter.scoring.quantity.QuantityError` whose message starts with the field path.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from linter.k8snames import is_extended_resource_name
from linter.scoring.quantity import QuantityError, parse_quantity, to_scheduler_int

__all__ = [
    "DEFAULT_MEMORY_REQUEST",
    "DEFAULT_MILLI_CPU_REQUEST",
    "actual_request",
    "fit_node_contribution",
    "fit_score_request",
    "gate_resource",
    "is_extended_resource",
    "is_scalar_resource",
    "node_allocatable",
    "volcano_allocatable",
    "volcano_request",
]

DEFAULT_MILLI_CPU_REQUEST = 100
DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024  # the code comment says "200 MB"; the value is 200 MiB

_NON_ZERO_DEFAULTS: dict[str, Fraction] = {
    "cpu": Fraction(DEFAULT_MILLI_CPU_REQUEST, 1000),
    "memory": Fraction(DEFAULT_MEMORY_REQUEST),
}

Requests = dict[str, Fraction]

# ---------------------------------------------------------------- resource names

def _is_prefixed_native(name: str) -> bool:
    return "kubernetes.io/" in name


@lru_cache(maxsize=1024)  # called per resource name on every ranking; names are few
def is_extended_resource(name: str) -> bool:
    """A ``domain/name`` resource outside ``kubernetes.io`` whose quota name is valid."""
    return is_extended_resource_name(name)


@lru_cache(maxsize=1024)
def is_scalar_resource(name: str) -> bool:
    """Extended, ``hugepages-*``, ``*kubernetes.io/*`` or ``attachable-volumes-*``."""
    return (
        is_extended_resource(name)
        or name.startswith("hugepages-")
        or _is_prefixed_native(name)
        or name.startswith("attachable-volumes-")
    )


def _is_pod_level_resource(name: str) -> bool:
    return name in ("cpu", "memory") or name.startswith("hugepages-")


# ---------------------------------------------------------------- aggregation


def _mapping(value: object, where: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise QuantityError(f"{where}: expected a mapping, got {type(value).__name__}")
    return value


def _list(value: object, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise QuantityError(f"{where}: expected a list, got {type(value).__name__}")
    return value


def _resource_list(raw: object, where: str) -> Requests:
    out: Requests = {}
    for name, quantity in _mapping(raw, where).items():
        try:
            out[str(name)] = parse_quantity(quantity)
        except QuantityError as exc:
            raise QuantityError(f"{where}.{name}: {exc}") from None
    return out


def _add_into(total: Requests, extra: Mapping[str, Fraction]) -> None:
    for name, q in extra.items():
        total[name] = total.get(name, Fraction(0)) + q


def _max_into(total: Requests, other: Mapping[str, Fraction]) -> None:
    for name, q in other.items():
        if name not in total or q > total[name]:
            total[name] = q


def _with_defaults(reqs: Requests, defaults: Mapping[str, Fraction] | None) -> Requests:
    """``applyNonMissing``: a default only for a key the container does not list at all."""
    if not defaults:
        return reqs
    out = dict(reqs)
    for name, q in defaults.items():
        if name not in reqs:
            out[name] = q
    return out


def _spec(pod: Mapping[str, Any]) -> Mapping[str, Any]:
    return _mapping(pod.get("spec"), "spec")


def _pod_level_requests(spec: Mapping[str, Any]) -> Requests | None:
    """Pod-level requests when ``IsPodLevelRequestsSet`` holds, else None."""
    resources = _mapping(spec.get("resources"), "spec.resources")
    reqs = _resource_list(resources.get("requests"), "spec.resources.requests")
    if any(_is_pod_level_resource(name) for name in reqs):
        return reqs
    return None


def _pod_requests(
    pod: Mapping[str, Any], *, defaults: Mapping[str, Fraction] | None, pod_level: bool
) -> Requests:
    """``resourcehelper.PodRequests`` with exact sums (overhead included)."""
    spec = _spec(pod)
    total: Requests = {}
    for i, container in enumerate(_list(spec.get("containers"), "spec.containers")):
        where = f"spec.containers[{i}]"
        res = _mapping(_mapping(container, where).get("resources"), f"{where}.resources")
        reqs = _resource_list(res.get("requests"), f"{where}.resources.requests")
        _add_into(total, _with_defaults(reqs, defaults))
    sidecars: Requests = {}
    init_usage: Requests = {}
    for i, container in enumerate(_list(spec.get("initContainers"), "spec.initContainers")):
        where = f"spec.initContainers[{i}]"
        container = _mapping(container, where)
        res = _mapping(container.get("resources"), f"{where}.resources")
        reqs = _with_defaults(_resource_list(res.get("requests"), f"{where}.resources.requests"), defaults)
        if container.get("restartPolicy") == "Always":
            _add_into(total, reqs)
            _add_into(sidecars, reqs)
            usage = dict(sidecars)
        else:
            usage = dict(reqs)
            _add_into(usage, sidecars)
        _max_into(init_usage, usage)
    _max_into(total, init_usage)
    if pod_level:
        level = _pod_level_requests(spec)
        if level is not None:
            for name, q in level.items():
                if _is_pod_level_resource(name):
                    total[name] = q
    _add_into(total, _resource_list(spec.get("overhead"), "spec.overhead"))
    return total


def _to_ints(reqs: Mapping[str, Fraction]) -> dict[str, int]:
    return {name: to_scheduler_int(name, q) for name, q in reqs.items()}


def _framework_resource(reqs: Mapping[str, Fraction]) -> dict[str, int]:
    """``framework.Resource.Add``: cpu, memory, ephemeral-storage and scalar names only."""
    return {
        name: to_scheduler_int(name, q)
        for name, q in reqs.items()
        if name in ("cpu", "memory", "ephemeral-storage") or is_scalar_resource(name)
    }


# ---------------------------------------------------------------- public views


def fit_score_request(pod: Mapping[str, Any]) -> dict[str, int]:
    """The incoming pod as NodeResourcesFit *scoring* sees it.

    Per-container 100m/200Mi defaults for a missing cpu/memory key, and (1.36 quirk) the
    pod-level requests ignored because the Fit plugin never hands its PodLevelResources
    switch to its scorer. Keys are every resource any container/overhead names, plus
    cpu and memory (always present through the defaults when there is a container).
    """
    return _to_ints(_pod_requests(pod, defaults=_NON_ZERO_DEFAULTS, pod_level=False))


def actual_request(pod: Mapping[str, Any]) -> dict[str, int]:
    """Real requests with pod-level requests honoured and overhead added (no defaults)."""
    return _to_ints(_pod_requests(pod, defaults=None, pod_level=True))


def fit_node_contribution(pod: Mapping[str, Any]) -> dict[str, int]:
    """What a bound pod adds to its node's requested amounts for Fit scoring.

    cpu/memory are the scheduler's non-zero values; other resources are the actual
    requests. With pod-level requests set, a default is used only for a resource that
    neither the containers nor the pod level name.
    """
    actual = _pod_requests(pod, defaults=None, pod_level=True)
    if _pod_level_requests(_spec(pod)) is None:
        defaults: Mapping[str, Fraction] = _NON_ZERO_DEFAULTS
    else:
        defaults = {name: q for name, q in _NON_ZERO_DEFAULTS.items() if name not in actual}
    non_zero = _pod_requests(pod, defaults=defaults, pod_level=True) if defaults else actual
    out = _framework_resource(actual)
    out["cpu"] = to_scheduler_int("cpu", non_zero.get("cpu", Fraction(0)))
    out["memory"] = to_scheduler_int("memory", non_zero.get("memory", Fraction(0)))
    return out


def _volcano_value(name: str, q: Fraction) -> float | None:
    """``api.NewResource`` units: cpu milli, memory and pods plain, other scalars milli; else dropped."""
    if name in ("memory", "pods"):
        return float(to_scheduler_int(name, q))
    if name == "cpu" or name == "ephemeral-storage" or is_scalar_resource(name):
        return float(to_scheduler_int("cpu", q))  # MilliValue()
    return None


def volcano_request(pod: Mapping[str, Any]) -> dict[str, float]:
    """Volcano's ``Resreq``: cpu millicores, memory bytes, other scalars in milli-units.

    ``ephemeral-storage`` counts as a scalar there; resources that are neither are
    dropped; ``pods: 1`` is added in plain units.
    """
    out: dict[str, float] = {}
    for name, q in _pod_requests(pod, defaults=None, pod_level=True).items():
        value = _volcano_value(name, q)
        if value is not None:
            out[name] = value
    out["pods"] = out.get("pods", 0.0) + 1.0
    return out


def node_allocatable(raw: Mapping[str, Any], where: str = "status.allocatable") -> dict[str, int]:
    """A node's ``status.allocatable`` in scheduler integers (all names kept, incl. ``pods``)."""
    return _to_ints(_resource_list(raw, where))


def volcano_allocatable(raw: Mapping[str, Any], where: str = "status.allocatable") -> dict[str, float]:
    """``api.NewResource(node.status.allocatable)`` in Volcano units."""
    out: dict[str, float] = {}
    for name, q in _resource_list(raw, where).items():
        value = _volcano_value(name, q)
        if value is not None:
            out[name] = value
    return out


def gate_resource(
    name: str, pod_request: int, already_requested: int, node_allocatable: Mapping[str, int]
) -> tuple[int, int]:
    """(allocatable, requested incl. pod) for one configured resource; (0, 0) = skipped."""
    if pod_request == 0 and is_scalar_resource(name):
        return 0, 0
    if name in ("cpu", "memory", "ephemeral-storage") or is_scalar_resource(name):
        allocatable = node_allocatable.get(name, 0)
        if allocatable != 0:
            return allocatable, already_requested + pod_request
    return 0, 0
