"""The API server's resource checks on a Pod (``pkg/apis/core/validation``, 1.36), for explain's input.

A pod explain is given may be hand-written, and one the API server would refuse never reaches the
scheduler. explain still scores it (hand-written pods, the scoring vectors among them, often give an
extended resource a request and no limit) and warns with the API server's field error (an amount
that must be whole is shown as its text, where the API server prints the Go struct). Checked on the pod as
stored (:func:`~linter.scoring.apidefaults.stored_pod`, so limits were already copied into missing
requests), in document order, the first problem only (the API server lists every one):

* each container's and init container's requests and limits (``validateResourceRequirements``):
  a request above its limit; for a resource that may not be overcommitted (an extended resource
  such as ``nvidia.com/gpu``, or ``hugepages-*``) a request that differs from its limit, or a
  request with no limit; an extended resource amount that is not a whole number;
* pod-level ``spec.resources`` (PodLevelResources): a request above its limit, and a request below
  the containers' aggregated requests (``validatePodResourceConsistency``).

Negative amounts are refused outright (:func:`linter.explain.dump.negative_request`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from linter.scoring.apidefaults import aggregate_containers_of, container_resources, tolerated_list
from linter.scoring.quantity import parse_quantity
from linter.scoring.quantitytext import quantity_text, quantity_text_like

__all__ = ["resource_refusal"]


def _native(name: str) -> bool:
    """``IsNativeResource``: no domain, or a ``kubernetes.io/`` one."""
    return "/" not in name or "kubernetes.io/" in name


def _overcommit_allowed(name: str) -> bool:
    return _native(name) and not name.startswith("hugepages-")


def _extended(name: str) -> bool:
    """``IsExtendedResourceName`` for names the request readers accepted: a domain that is not Kubernetes'."""
    return not _native(name) and not name.startswith("requests.")


def _invalid(path: str, raw: object, detail: str) -> str:
    return f'{path}: Invalid value: "{quantity_text(raw)}": {detail}'  # type: ignore[arg-type]


def _list(raw: object) -> Mapping[str, Any]:
    return raw if isinstance(raw, Mapping) else {}


def _container_refusal(resources: Mapping[str, Any], where: str) -> str | None:
    limits, requests = _list(resources.get("limits")), _list(resources.get("requests"))
    for kind, amounts in (("limits", limits), ("requests", requests)):
        for name, raw in amounts.items():
            if _extended(name) and parse_quantity(raw).denominator != 1:
                return _invalid(f"{where}.{kind}[{name}]", raw, "must be an integer")
    for name, raw in requests.items():
        if name not in limits:
            if not _overcommit_allowed(name):
                return f"{where}.limits: Required value: Limit must be set for non overcommitable resources"
            continue
        request, limit = parse_quantity(raw), parse_quantity(limits[name])
        shown = quantity_text(limits[name])
        if request != limit and not _overcommit_allowed(name):
            return _invalid(f"{where}.requests", raw, f"must be equal to {name} limit of {shown}")
        if request > limit:
            return _invalid(f"{where}.requests", raw, f"must be less than or equal to {name} limit of {shown}")
    return None


def _pod_level_refusal(spec: Mapping[str, Any]) -> str | None:
    level = spec.get("resources")
    if not isinstance(level, Mapping):
        return None
    limits, requests = _list(level.get("limits")), _list(level.get("requests"))
    for name, raw in requests.items():
        if name in limits and parse_quantity(raw) > parse_quantity(limits[name]):
            return _invalid(f"spec.resources.requests[{name}]", raw,
                            f"must be less than or equal to {name} limit of {quantity_text(limits[name])}")
    aggregate = aggregate_containers_of(spec, "requests")
    for name, raw in requests.items():
        if name in aggregate and parse_quantity(raw) < aggregate[name]:
            total = quantity_text_like(aggregate[name], _first_written(spec, name))
            return _invalid(f"spec.resources.requests[{name}]", raw,
                            f"must be greater than or equal to aggregate container requests of {total}")
    return None


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


def resource_refusal(pod: Mapping[str, Any]) -> str | None:
    """The API server's first resource error for a stored pod whose quantities all parse, or None."""
    spec = pod.get("spec")
    if not isinstance(spec, Mapping):
        return None
    for field in ("containers", "initContainers"):
        for i, container in enumerate(tolerated_list(spec.get(field), field)):
            resources = container_resources(container)
            if resources is not None:
                found = _container_refusal(resources, f"spec.{field}[{i}].resources")
                if found:
                    return found
    return _pod_level_refusal(spec)
