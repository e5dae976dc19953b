"""Pod requests as each scorer sees them (docs/scoring.md, section 1).

All four views follow kube-scheduler's ``PodRequests`` aggregation: containers summed,
init containers walked in order with restartable ones (sidecars) added to both the
container sum and the running sidecar sum, ``max(containers, init usage)`` per resource,
pod-level requests (cpu, memory, hugepages-*) replacing the aggregate where allowed, then
``spec.overhead`` added. For kube-scheduler quantities are summed exactly and turned into
integers once per pod, as the Go code does with ``resource.Quantity``; Volcano converts each
container's (and the overhead's) requests to float64 on their own (``api.NewResource``) and
adds those, so there every quantity is rounded up before the sum.

Pods are plain JSON-like v1 Pod mappings. A malformed quantity raises
:class:`~linter.scoring.quantity.QuantityError` whose message starts with the field path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from linter.goint import wrap_int64
from linter.k8snames import is_extended_resource_name
from linter.scoring.containerwalk import Amount, add_into, aggregate_containers
from linter.scoring.goquantity import milli_value
from linter.scoring.quantity import QuantityError, parse_quantity, to_int_rounding_up, to_scheduler_int

__all__ = [
    "DEFAULT_MEMORY_REQUEST",
    "DEFAULT_MILLI_CPU_REQUEST",
    "actual_request",
    "fit_node_contribution",
    "fit_score_request",
    "gate_resource",
    "is_extended_resource",
    "is_pod_level_resource",
    "is_scalar_resource",
    "node_allocatable",
    "volcano_allocatable",
    "volcano_request",
    "volcano_resource_list",
]

DEFAULT_MILLI_CPU_REQUEST = 100
DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024  # the code comment says "200 MB"; the value is 200 MiB

_NON_ZERO_DEFAULTS: dict[str, Fraction] = {
    "cpu": Fraction(DEFAULT_MILLI_CPU_REQUEST, 1000),
    "memory": Fraction(DEFAULT_MEMORY_REQUEST),
}

Requests = dict[str, Fraction]
ResourceReader = Callable[[object, str], dict[str, Amount]]

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


def is_pod_level_resource(name: str) -> bool:
    """``IsSupportedPodLevelResource``: cpu, memory and ``hugepages-*``."""
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


def _with_defaults(reqs: dict[str, Amount], defaults: Mapping[str, Fraction] | None) -> dict[str, Amount]:
    """``applyNonMissing``: a default only for a key the container does not list at all."""
    if not defaults:
        return reqs
    out: dict[str, Any] = dict(reqs)  # defaults exist only for the exact (Fraction) views
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
    if any(is_pod_level_resource(name) for name in reqs):
        return reqs
    return None


def _pod_requests(
    pod: Mapping[str, Any],
    *,
    defaults: Mapping[str, Fraction] | None,
    pod_level: bool,
    read: ResourceReader[Amount] = _resource_list,  # type: ignore[assignment]
) -> dict[str, Amount]:
    """``resourcehelper.PodRequests`` (overhead included); ``read`` turns one resource list into amounts."""
    spec = _spec(pod)

    def container_requests(container: object, where: str) -> dict[str, Amount]:
        res = _mapping(_mapping(container, where).get("resources"), f"{where}.resources")
        reqs = read(res.get("requests"), f"{where}.resources.requests")
        return _with_defaults(reqs, defaults) if defaults else reqs  # no call on the views without defaults

    total = aggregate_containers(spec, _list, container_requests)
    if pod_level and _pod_level_requests(spec) is not None:
        level = read(_mapping(spec.get("resources"), "spec.resources").get("requests"), "spec.resources.requests")
        for name, q in level.items():
            if is_pod_level_resource(name):
                total[name] = q
    add_into(total, read(spec.get("overhead"), "spec.overhead"))
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


def _volcano_value(name: str, raw: object) -> float | None:
    """One quantity as ``api.NewResource`` converts it: cpu and scalars (ephemeral-storage included)
    ``float64(MilliValue())``, memory and pods ``float64(Value())``; ``count/*`` and other names dropped."""
    if name in ("memory", "pods"):
        return float(to_int_rounding_up(parse_quantity(raw)))  # type: ignore[arg-type]
    if name == "cpu" or name == "ephemeral-storage" or (is_scalar_resource(name) and not name.startswith("count/")):
        return float(milli_value(raw))  # type: ignore[arg-type]
    return None


def volcano_resource_list(raw: object, where: str) -> dict[str, float]:
    """``api.NewResource`` of one resource list (a container's requests, the overhead, the node's allocatable)."""
    out: dict[str, float] = {}
    for name, quantity in _mapping(raw, where).items():
        try:
            value = _volcano_value(str(name), quantity)
        except QuantityError as exc:
            raise QuantityError(f"{where}.{name}: {exc}") from None
        if value is not None:
            out[str(name)] = value
    return out


def volcano_request(pod: Mapping[str, Any]) -> dict[str, float]:
    """Volcano's ``Resreq``: cpu millicores, memory bytes, other scalars in milli-units.

    Each container's, init container's and the overhead's requests are converted on their own
    (rounded up) and then added in float64, as ``GetPodResourceRequest`` does;
    ``ephemeral-storage`` counts as a scalar there; resources that are neither are dropped;
    ``pods: 1`` is added in plain units.
    """
    out = _pod_requests(pod, defaults=None, pod_level=True, read=volcano_resource_list)
    out["pods"] = out.get("pods", 0.0) + 1.0
    return out


def node_allocatable(raw: Mapping[str, Any], where: str = "status.allocatable") -> dict[str, int]:
    """A node's ``status.allocatable`` in scheduler integers (all names kept, incl. ``pods``)."""
    return _to_ints(_resource_list(raw, where))


def volcano_allocatable(raw: Mapping[str, Any], where: str = "status.allocatable") -> dict[str, float]:
    """``api.NewResource(node.status.allocatable)`` in Volcano units."""
    return volcano_resource_list(raw, where)


def gate_resource(
    name: str, pod_request: int, already_requested: int, node_allocatable: Mapping[str, int]
) -> tuple[int, int]:
    """(allocatable, requested incl. pod) for one configured resource; (0, 0) = skipped."""
    if pod_request == 0 and is_scalar_resource(name):
        return 0, 0
    if name in ("cpu", "memory", "ephemeral-storage") or is_scalar_resource(name):
        allocatable = node_allocatable.get(name, 0)
        if allocatable != 0:
            return allocatable, wrap_int64(already_requested + pod_request)  # Go's int64 sum
    return 0, 0
