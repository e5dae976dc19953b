"""The API server's resource and container-port checks on a Pod (``pkg/apis/core/validation``, 1.36), for
explain's input.

A pod explain is given may be hand-written, and one the API server would refuse never reaches the
scheduler. explain still scores it (hand-written pods, the scoring vectors among them, often give an
extended resource a request and no limit) and warns with the API server's first field error, checked
on the pod as stored (:func:`~linter.scoring.apidefaults.stored_pod`, so limits were already copied
into missing requests). The API server lists every error (``Pod "p" is invalid: [e1, e2]``) in
``ValidatePodSpec``'s order: each container, then each init container, then pod-level
``spec.resources``; inside one resource list Go's map order is random, so this takes the names in
document order. Per container, first its ports (``validateContainerPorts``, on the defaulted ports: an
empty protocol is ``TCP``, a ``hostNetwork`` pod's unset ``hostPort`` its ``containerPort``): a missing
``containerPort``, a ``containerPort`` or non-zero ``hostPort`` outside 1..65535, a protocol other than
``TCP``, ``UDP`` and ``SCTP`` (port names are not checked). Then (``validateResourceRequirements``) each
limit, then each request:

* the name (:mod:`linter.scoring.resourcenames`): not a qualified name, not a standard resource,
  not a container resource, not an extended resource name;
* an amount that must be whole (an extended resource such as ``nvidia.com/gpu``) and is not;
* for a request: above its limit; for a resource that may not be overcommitted (an extended
  resource, or ``hugepages-*``) different from its limit, or with no limit;
* a ``hugepages-<size>`` amount that is not a whole multiple of the page size (or a size that is not
  a positive whole quantity);
* then hugepages with neither cpu nor memory in the same limits or requests.

Pod-level ``spec.resources`` (PodLevelResources) gets the same checks, with only cpu, memory and
``hugepages-*`` allowed as names, then (``validatePodResourceConsistency``) a request below the
containers' aggregated requests, and a container's limit above the pod-level limit of the same
resource (init containers are not compared). Amounts are printed as ``Quantity.String()`` prints
them (:func:`~linter.scoring.quantitytext.quantity_text`), in quotes also for ``must be an integer``
(``json.Marshal`` of the quantity). Negative amounts are refused outright
(:func:`linter.explain.dump.negative_request`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import Any

from linter.scoring.apidefaults import aggregate_containers_of, container_resources, tolerated_list
from linter.scoring.quantity import QuantityError, parse_quantity, to_int_rounding_up
from linter.scoring.quantitytext import quantity_text, quantity_text_like
from linter.scoring.resourcenames import (
    container_name_errors,
    go_json_quote,
    is_integer_resource,
    is_overcommit_allowed,
    pod_level_name_errors,
)

__all__ = ["resource_refusal"]

NameCheck = Callable[[str, str], list[str]]
_PORT_RANGE = "must be between 1 and 65535, inclusive"  # validation.IsValidPortNum


def _invalid(path: str, raw: Any, detail: str) -> str:
    return f'{path}: Invalid value: "{quantity_text(raw)}": {detail}'


def _list(raw: object) -> Mapping[str, Any]:
    """A resource list by name; a YAML key that is not a string is the text JSON would carry for it."""
    return {str(k): v for k, v in raw.items()} if isinstance(raw, Mapping) else {}


def _integer_errors(name: str, raw: Any, path: str) -> Iterator[str]:
    """``ValidateResourceQuantityValue`` (negative amounts are refused before this)."""
    if is_integer_resource(name) and parse_quantity(raw).denominator != 1:
        yield _invalid(path, raw, "must be an integer")


def _hugepage_errors(name: str, raw: Any, path: str) -> Iterator[str]:
    """``validateResourceQuantityHugePageValue`` (on for a new pod): the page size must parse, be a positive
    whole number and divide the amount (both rounded up to whole numbers, ``Value()``)."""
    if not name.startswith("hugepages-"):
        return
    try:
        page = parse_quantity(name.removeprefix("hugepages-"))
    except QuantityError:
        page = Fraction(0)
    if page <= 0 or page.denominator != 1 or to_int_rounding_up(parse_quantity(raw)) % int(page):
        yield _invalid(path, raw, f"{quantity_text(raw)} is not positive integer multiple of {name}")


def _requirements_errors(resources: Mapping[str, Any], where: str, name_errors: NameCheck) -> Iterator[str]:
    """``validateResourceRequirements``: the limits, then the requests, each name's errors together (Go walks
    each map in random order; this walks them in document order)."""
    limits, requests = _list(resources.get("limits")), _list(resources.get("requests"))
    for name, raw in limits.items():
        yield from name_errors(name, f"{where}.limits[{name}]")
        yield from _integer_errors(name, raw, f"{where}.limits[{name}]")
        yield from _hugepage_errors(name, raw, f"{where}.limits[{name}]")
    for name, raw in requests.items():
        yield from name_errors(name, f"{where}.requests[{name}]")
        yield from _integer_errors(name, raw, f"{where}.requests[{name}]")
        if name in limits:
            request, limit = parse_quantity(raw), parse_quantity(limits[name])
            shown = quantity_text(limits[name])
            if request != limit and not is_overcommit_allowed(name):
                yield _invalid(f"{where}.requests", raw, f"must be equal to {name} limit of {shown}")
            elif request > limit:
                yield _invalid(f"{where}.requests", raw, f"must be less than or equal to {name} limit of {shown}")
        elif not is_overcommit_allowed(name):
            yield f"{where}.limits: Required value: Limit must be set for non overcommitable resources"
        yield from _hugepage_errors(name, raw, f"{where}.requests[{name}]")
    named = [*limits, *requests]
    if any(n.startswith("hugepages-") for n in named) and not any(n in ("cpu", "memory") for n in named):
        yield f"{where}: Forbidden: HugePages require cpu or memory"


def _pod_level_errors(spec: Mapping[str, Any]) -> Iterator[str]:
    """``validatePodResources``: the pod-level lists as a container's are checked (with the pod-level names),
    then ``validatePodResourceConsistency``."""
    level = spec.get("resources")
    if not isinstance(level, Mapping):
        return
    yield from _requirements_errors(level, "spec.resources", pod_level_name_errors)
    limits, requests = _list(level.get("limits")), _list(level.get("requests"))
    aggregate = aggregate_containers_of(spec, "requests")
    for name, raw in requests.items():
        if name in aggregate and parse_quantity(raw) < aggregate[name]:
            total = quantity_text_like(aggregate[name], _first_written(spec, name))
            yield _invalid(f"spec.resources.requests[{name}]", raw,
                           f"must be greater than or equal to aggregate container requests of {total}")
    for i, container in enumerate(tolerated_list(spec.get("containers"), "containers")):
        resources = container_resources(container)
        for name, raw in _list(resources.get("limits") if resources is not None else None).items():
            if name in limits and parse_quantity(raw) > parse_quantity(limits[name]):
                yield _invalid(f"spec.resources.containers[{i}][{name}].limits", raw,
                               f"must be less than or equal to pod limits of {quantity_text(limits[name])}")


def _first_written(spec: Mapping[str, Any], name: str) -> str | int | float:
    """The first container request of ``name``: the Go sum starts from a copy of it and keeps its format
    (an init container that outgrows the sum would lend its own; the first one stands in for it)."""
    for field in ("containers", "initContainers"):
        for container in tolerated_list(spec.get(field), field):
            resources = container_resources(container)
            raw = _list(resources.get("requests")).get(name) if resources is not None else None
            if raw is not None:
                return raw  # type: ignore[no-any-return]
    return "0"


def _port_number(raw: object) -> int:
    return raw if isinstance(raw, int) and not isinstance(raw, bool) else 0


def _port_errors(container: object, host_network: bool, where: str) -> Iterator[str]:
    """``validateContainerPorts`` (names aside) on the defaulted ports: an empty protocol is ``TCP``
    (``SetDefaults_ContainerPort``), a ``hostNetwork`` pod's unset hostPort its containerPort."""
    ports = container.get("ports") if isinstance(container, Mapping) else None
    for j, port in enumerate(ports if isinstance(ports, list) else ()):
        if not isinstance(port, Mapping):
            continue
        path = f"{where}[{j}]"
        container_port, host_port = _port_number(port.get("containerPort")), _port_number(port.get("hostPort"))
        if host_network and host_port == 0:
            host_port = container_port
        if container_port == 0:
            yield f"{path}.containerPort: Required value"
        elif not 1 <= container_port <= 65535:
            yield f"{path}.containerPort: Invalid value: {container_port}: {_PORT_RANGE}"
        if host_port != 0 and not 1 <= host_port <= 65535:
            yield f"{path}.hostPort: Invalid value: {host_port}: {_PORT_RANGE}"
        protocol = port.get("protocol") or "TCP"
        if protocol not in ("SCTP", "TCP", "UDP"):  # a named string type: json.Marshal quotes it
            yield f'{path}.protocol: Unsupported value: {go_json_quote(str(protocol))}: supported values: "SCTP", ' \
                  '"TCP", "UDP"'


def _all_errors(spec: Mapping[str, Any]) -> Iterator[str]:
    """``ValidatePodSpec``'s port and resource errors in its order: containers, init containers (each its
    ports before its resources, as ``validateContainerCommon``), then pod level."""
    host_network = spec.get("hostNetwork") is True
    for field in ("containers", "initContainers"):
        for i, container in enumerate(tolerated_list(spec.get(field), field)):
            yield from _port_errors(container, host_network, f"spec.{field}[{i}].ports")
            resources = container_resources(container)
            if resources is not None:
                yield from _requirements_errors(resources, f"spec.{field}[{i}].resources", container_name_errors)
    yield from _pod_level_errors(spec)


def resource_refusal(pod: Mapping[str, Any]) -> str | None:
    """The API server's first resource or port error for a stored pod whose quantities all parse, or None."""
    spec = pod.get("spec")
    if not isinstance(spec, Mapping):
        return None
    return next(_all_errors(spec), None)
