"""Pods and Nodes as kube-apiserver 1.36 stores them: the defaulting the scheduler's inputs went through.

kube-scheduler and Volcano read objects the API server decoded and defaulted, while explain may be
given hand-written manifests. What changes the resource fields (``pkg/apis/core/v1`` defaults and
``resource.Quantity`` decoding):

* a quantity string loses leading and trailing white space (``Quantity.UnmarshalJSON`` trims it);
* a container or init container with ``limits`` gets each limit it has no request for as its request
  (``SetDefaults_Pod``; ``requests: {}`` and no ``requests`` are the same);
* pod-level resources (PodLevelResources, on in 1.36): with pod-level hugepages limits or requests
  set, container hugepages limits add up to a pod-level hugepages limit; with pod-level limits set,
  the pod-level cpu/memory requests default to the containers' aggregated requests, and any pod-level
  limit of cpu, memory or hugepages still without a request to that limit;
* every resource list is rounded up to milli-units (``SetDefaults_ResourceList``: ``1.0005`` is stored
  as ``1001m``, so two such containers are 2002m, not 2001m), the status ones an in-place resize reports
  included (``status.containerStatuses[]`` / ``status.initContainerStatuses[]`` ``allocatedResources``
  and ``resources``, pod-level ``status.allocatedResources`` and ``status.resources``): the generated
  defaulters cover every ResourceList field of the object, status or not;
* a Node without ``status.allocatable`` gets its ``status.capacity`` (``SetDefaults_NodeStatus``).

Objects the API server already stored come out unchanged. A value of the wrong type is left as it is,
for the request readers to report; an unparseable quantity raises
:class:`~linter.scoring.quantity.QuantityError` naming its field.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from contextlib import suppress
from fractions import Fraction
from typing import Any

from linter.scoring.containerwalk import aggregate_containers
from linter.scoring.quantity import QuantityError, parse_quantity, to_int_rounding_up

__all__ = ["aggregate_containers_of", "container_resources", "go_trim_space", "stored_node", "stored_pod",
           "tolerated_list"]

# unicode.IsSpace, which Go's strings.TrimSpace strips (Python's str.strip also strips U+001C..U+001F)
_GO_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
            "\u2028\u2029\u202f\u205f\u3000"


def go_trim_space(text: str) -> str:
    return text.strip(_GO_SPACE)


def _is_pod_level(name: str) -> bool:
    """``IsSupportedPodLevelResource``: cpu, memory and hugepages-*."""
    return name in ("cpu", "memory") or str(name).startswith("hugepages-")


def _decoded(raw: object) -> object:
    return go_trim_space(raw) if isinstance(raw, str) else raw


def _parsed(raw: object, where: str) -> Fraction:
    try:
        return parse_quantity(raw)  # type: ignore[arg-type]
    except QuantityError as exc:
        raise QuantityError(f"{where}: {exc}") from None


def _milli_text(q: Fraction) -> str:
    """``q`` rounded up to milli-units, as quantity text (``1001m``; a whole number without a suffix)."""
    milli = to_int_rounding_up(q * 1000)
    return str(milli // 1000) if milli % 1000 == 0 else f"{milli}m"


def _stored_list(raw: object, where: str) -> object:
    """One resource list decoded and rounded up to milli-units; a non-mapping is returned as it is."""
    if not isinstance(raw, Mapping):
        return raw
    out: dict[str, Any] = {}
    for name, value in raw.items():
        value = _decoded(value)
        q = _parsed(value, f"{where}.{name}")
        # negative amounts are kept as written: the request checks refuse them with the user's text
        out[name] = _milli_text(q) if q > 0 and (q * 1000).denominator != 1 else value
    return out


def _decoded_list(raw: object) -> object:
    return {k: _decoded(v) for k, v in raw.items()} if isinstance(raw, Mapping) else raw


def container_resources(container: object) -> Mapping[str, Any] | None:
    if not isinstance(container, Mapping):
        return None
    resources = container.get("resources")
    return resources if isinstance(resources, Mapping) else None


def _with_requests_from_limits(container: object) -> object:
    resources = container_resources(container)
    if resources is None:
        return container
    limits, requests = resources.get("limits"), resources.get("requests")
    if not isinstance(limits, Mapping) or not (requests is None or isinstance(requests, Mapping)):
        return container
    filled = dict(requests or {})  # the requests' order first: Volcano's float sums follow it
    for name, value in limits.items():
        filled.setdefault(name, value)
    assert isinstance(container, Mapping)
    return {**container, "resources": {**resources, "requests": filled}}


def tolerated_list(raw: object, _where: str) -> Iterable[object]:
    return raw if isinstance(raw, list) else ()


def aggregate_containers_of(spec: Mapping[str, Any], field: str) -> dict[str, Fraction]:
    """``AggregateContainerRequests``/``Limits`` (no overhead, no pod level) of ``field``; wrong types
    count as nothing (the request readers report them later)."""

    def read(container: object, where: str) -> dict[str, Fraction]:
        resources = container_resources(container)
        raw = resources.get(field) if resources is not None else None
        if not isinstance(raw, Mapping):
            return {}
        return {str(k): _parsed(v, f"{where}.resources.{field}.{k}") for k, v in raw.items()}

    return aggregate_containers(spec, tolerated_list, read)


def _pod_level_defaults(spec: Mapping[str, Any]) -> Mapping[str, Any]:
    """``defaultHugePagePodLimits`` then ``defaultPodRequests``: the pod-level lists after defaulting."""
    level = spec.get("resources")
    if not isinstance(level, Mapping):
        return spec
    limits, requests = level.get("limits"), level.get("requests")
    if not (limits is None or isinstance(limits, Mapping)) or not (requests is None or isinstance(requests, Mapping)):
        return spec
    pod_limits: dict[str, Any] = dict(limits or {})
    pod_requests: dict[str, Any] = dict(requests or {})
    if pod_limits or pod_requests:
        for name, q in aggregate_containers_of(spec, "limits").items():
            if name.startswith("hugepages-") and name not in pod_requests and name not in pod_limits:
                pod_limits[name] = _milli_text(q)
    if pod_limits:
        for name, q in aggregate_containers_of(spec, "requests").items():
            if name in ("cpu", "memory") and name not in pod_requests:
                pod_requests[name] = _milli_text(q)
        for name, value in pod_limits.items():
            if name not in pod_requests and _is_pod_level(name):
                pod_requests[name] = value
    changed = dict(level)
    if pod_limits:
        changed["limits"] = pod_limits
    if pod_requests:
        changed["requests"] = pod_requests
    return {**spec, "resources": changed}


def _each_container(spec: dict[str, Any], change: Any) -> None:
    for field in ("containers", "initContainers"):
        containers = spec.get(field)
        if isinstance(containers, list):
            spec[field] = [change(c, f"spec.{field}[{i}]") for i, c in enumerate(containers)]


def _rounded_requirements(resources: Mapping[str, Any], where: str,
                          rounded: Callable[[object, str], object] = _stored_list) -> dict[str, Any]:
    """A ResourceRequirements with its ``limits`` and ``requests`` lists rounded by ``rounded``."""
    return {k: rounded(v, f"{where}.{k}") if k in ("limits", "requests") else v for k, v in resources.items()}


def _rounded_container(container: object, where: str) -> object:
    resources = container_resources(container)
    if resources is None:
        return container
    assert isinstance(container, Mapping)
    return {**container, "resources": _rounded_requirements(resources, f"{where}.resources")}


def _decoded_container(container: object, _where: str) -> object:
    resources = container_resources(container)
    if resources is None:
        return container
    assert isinstance(container, Mapping)
    return {**container, "resources": {k: _decoded_list(v) if k in ("limits", "requests") else v
                                       for k, v in resources.items()}}


def stored_pod(pod: Mapping[str, Any]) -> Mapping[str, Any]:
    """``pod`` with the resource fields as the API server stores them (see the module docstring)."""
    raw_spec = pod.get("spec")
    if not isinstance(raw_spec, Mapping):
        return pod
    spec: dict[str, Any] = dict(raw_spec)
    _each_container(spec, _decoded_container)
    _each_container(spec, lambda c, _where: _with_requests_from_limits(c))
    spec = dict(_pod_level_defaults(spec))
    _each_container(spec, _rounded_container)
    level = spec.get("resources")
    if isinstance(level, Mapping):
        spec["resources"] = _rounded_requirements(level, "spec.resources")
    if "overhead" in spec:
        spec["overhead"] = _stored_list(spec["overhead"], "spec.overhead")
    status = pod.get("status")
    if isinstance(status, Mapping):
        return {**pod, "spec": spec, "status": _stored_status(status)}
    return {**pod, "spec": spec}


def _tolerant_list(raw: object, where: str) -> object:
    """A status resource list rounded like the spec's; one that does not parse is left for the resize
    reader to report (only a placed pod's status is read)."""
    try:
        return _stored_list(raw, where)
    except QuantityError:
        return raw


def _stored_requirements(raw: object, where: str) -> object:
    return _rounded_requirements(raw, where, _tolerant_list) if isinstance(raw, Mapping) else raw


def _stored_container_status(entry: object, where: str) -> object:
    if not isinstance(entry, Mapping):
        return entry
    out = dict(entry)
    if "allocatedResources" in out:
        out["allocatedResources"] = _tolerant_list(out["allocatedResources"], f"{where}.allocatedResources")
    if "resources" in out:
        out["resources"] = _stored_requirements(out["resources"], f"{where}.resources")
    return out


def _stored_status(status: Mapping[str, Any]) -> Mapping[str, Any]:
    """The resize fields of ``status`` rounded up to milli-units (the other fields as they are)."""
    out = dict(status)
    for field in ("containerStatuses", "initContainerStatuses"):
        entries = out.get(field)
        if isinstance(entries, list):
            out[field] = [_stored_container_status(e, f"status.{field}[{i}]") for i, e in enumerate(entries)]
    if "allocatedResources" in out:
        out["allocatedResources"] = _tolerant_list(out["allocatedResources"], "status.allocatedResources")
    if "resources" in out:
        out["resources"] = _stored_requirements(out["resources"], "status.resources")
    return out


def stored_node(node: Mapping[str, Any]) -> Mapping[str, Any]:
    """``node`` with ``status.allocatable`` as the API server stores it. Quantities that do not parse are
    left for the node readers to report."""
    status = node.get("status")
    if not isinstance(status, Mapping):
        return node
    fixed = dict(status)
    if fixed.get("allocatable") is None and isinstance(fixed.get("capacity"), Mapping):
        fixed["allocatable"] = fixed["capacity"]
    if isinstance(fixed.get("allocatable"), Mapping):
        with suppress(QuantityError):  # NodeView reports it, naming the node
            fixed["allocatable"] = _stored_list(fixed["allocatable"], "status.allocatable")
    return {**node, "status": fixed}
