"""A placed pod's requests after an in-place resize, as kube-scheduler 1.36 and Volcano count them on a node.

InPlacePodVerticalScaling is GA (locked on) in 1.36, so the scheduler cache adds every pod it places on a
node (bound, assumed, or nominated there) with ``PodRequests(UseStatusResources: true)``; Volcano's
``GetPodResourceRequest`` does the same for its tasks. For each regular container, and each restartable
init container (``restartPolicy: Always``), whose entry in ``status.containerStatuses`` /
``status.initContainerStatuses`` (matched by name) has ``resources`` set, the requests are the
per-resource maximum of the spec's requests, ``resources.requests`` (actuated) and
``allocatedResources``. While the pod's first ``PodResizePending`` condition has reason ``Infeasible``
the spec is left out of that maximum. Ordinary init containers always use their spec. (The deprecated
``status.resize`` field is not read; ``Deferred`` needs no special case: the spec is in the maximum.)
Where a container's status is looked up differs: kube-scheduler's ``AggregateContainerRequests`` indexes
both lists by name together (an ``initContainerStatuses`` entry wins a name both lists hold), while
Volcano's ``GetPodResourceRequest`` looks up regular containers in ``status.containerStatuses`` and init
containers in ``status.initContainerStatuses`` only. The kubelet always lists a status under its own
kind, so the two differ only for a hand-written status listed under the other kind.

Pod-level resources (:func:`placed_pod` only): InPlacePodLevelResourcesVerticalScaling is beta and on by
default in 1.36, and the cache passes it to ``PodRequests``. For a pod with pod-level requests
(``IsPodLevelRequestsSet``) whose ``status.resources`` is set, each cpu, memory or ``hugepages-*`` name in
``spec.resources.requests`` counts with the same maximum over ``spec.resources.requests``,
``status.resources.requests`` and ``status.allocatedResources`` (the spec left out while Infeasible; a
name none of them holds then counts 0); other names and the container sum are as above. Volcano
(``amendResourceAccordingToPodFeatures`` at ed72c7c) reads pod-level requests from the spec only:
the Volcano view of :func:`placed_views` leaves them as they are.

The pod being scheduled is not placed yet: NodeResourcesFit's PreFilter reads its spec only, so its
requests never go through here.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, NamedTuple

from linter.scoring.quantity import QuantityError, parse_quantity
from linter.scoring.requests import is_pod_level_resource

__all__ = ["PlacedViews", "placed_pod", "placed_pod_level", "placed_views", "resize_fingerprint"]

_RESIZE_PENDING = "PodResizePending"


def _mapping(value: object) -> Mapping[str, Any] | None:
    return value if isinstance(value, Mapping) else None


_BOTH_LISTS = ("containerStatuses", "initContainerStatuses")


def _statuses(status: Mapping[str, Any], fields: tuple[str, ...] = _BOTH_LISTS
              ) -> dict[str, tuple[Mapping[str, Any], str]]:
    """Container statuses of ``fields`` by name (regular first, then init, as ``AggregateContainerRequests``
    indexes them), each with its field path for messages."""
    found: dict[str, tuple[Mapping[str, Any], str]] = {}
    for field in fields:
        entries = status.get(field)
        if not isinstance(entries, list):
            continue
        for i, entry in enumerate(entries):
            if isinstance(entry, Mapping) and isinstance(entry.get("name"), str):
                found[entry["name"]] = (entry, f"status.{field}[{i}]")
    return found


def _resize_infeasible(status: Mapping[str, Any]) -> bool:
    """``IsPodResizeInfeasible``: the first PodResizePending condition decides."""
    conditions = status.get("conditions")
    for condition in conditions if isinstance(conditions, list) else ():
        if (type(condition) is dict or isinstance(condition, Mapping)) and condition.get("type") == _RESIZE_PENDING:
            return condition.get("reason") == "Infeasible"
    return False


def _max_into(result: dict[str, Any], values: dict[str, Fraction], raw: object, where: str) -> None:
    """``maxResourceList``: take each quantity of ``raw`` that is absent or larger (ties keep the first)."""
    lst = _mapping(raw)
    if lst is None:
        if raw is not None:
            raise QuantityError(f"{where}: expected a mapping, got {type(raw).__name__}")
        return
    for name, quantity in lst.items():
        try:
            value = parse_quantity(quantity)
        except QuantityError as exc:
            raise QuantityError(f"{where}.{name}: {exc}") from None
        if name not in values or value > values[name]:
            values[str(name)], result[str(name)] = value, quantity


def _effective(container: Mapping[str, Any], spec_where: str, entry: Mapping[str, Any], where: str,
               infeasible: bool) -> dict[str, Any]:
    result: dict[str, Any] = {}
    values: dict[str, Fraction] = {}
    resources = _mapping(container.get("resources")) or {}
    actuated = _mapping(entry.get("resources")) or {}
    if not infeasible:
        _max_into(result, values, resources.get("requests"), f"{spec_where}.resources.requests")
    _max_into(result, values, actuated.get("requests"), f"{where}.resources.requests")
    _max_into(result, values, entry.get("allocatedResources"), f"{where}.allocatedResources")
    return result


def _resized(field: str, containers: object, statuses: dict[str, tuple[Mapping[str, Any], str]],
             infeasible: bool, only_restartable: bool) -> tuple[list[Any], bool] | None:
    if not isinstance(containers, list):
        return None
    out: list[Any] = []
    changed = False
    for i, container in enumerate(containers):
        name = container.get("name") if isinstance(container, Mapping) else None
        found = statuses.get(name) if isinstance(name, str) else None
        restartable = isinstance(container, Mapping) and container.get("restartPolicy") == "Always"
        if found is None or found[0].get("resources") is None or (only_restartable and not restartable):
            out.append(container)
            continue
        assert isinstance(container, Mapping)
        requests = _effective(container, f"spec.{field}[{i}]", found[0], found[1], infeasible)
        resources = _mapping(container.get("resources")) or {}
        out.append({**container, "resources": {**resources, "requests": requests}})
        changed = True
    return out, changed


def _placed_containers(pod: Mapping[str, Any], *, volcano: bool) -> Mapping[str, Any]:
    """``pod`` with its containers' resized requests, statuses looked up as Volcano (each kind in its own
    list) or kube-scheduler (both lists by name) does; ``pod`` itself when nothing changes."""
    status = _mapping(pod.get("status"))
    spec = _mapping(pod.get("spec"))
    if status is None or spec is None:
        return pod
    merged = _statuses(status)
    if not any(entry.get("resources") is not None for entry, _ in merged.values()):
        return pod
    infeasible = _resize_infeasible(status)
    new_spec = dict(spec)
    changed = False
    for field, only_restartable, own_list in (("containers", False, "containerStatuses"),
                                              ("initContainers", True, "initContainerStatuses")):
        statuses = _statuses(status, (own_list,)) if volcano else merged
        resized = _resized(field, spec.get(field), statuses, infeasible, only_restartable)
        if resized is not None and resized[1]:
            new_spec[field], changed = resized[0], True
    return {**pod, "spec": new_spec} if changed else pod


class PlacedViews(NamedTuple):
    """A placed pod as Volcano and as kube-scheduler's cache count it."""

    # the container requests Volcano counts on the node, pod-level requests as in the spec
    volcano: Mapping[str, Any]
    scheduler: Mapping[str, Any]  # :func:`placed_pod`
    same_containers: bool  # whether both read the same container requests (only pod level may differ)


def placed_views(pod: Mapping[str, Any]) -> PlacedViews:
    """Both views of a placed pod; each is ``pod`` itself when its status changes nothing for it. A bad status
    quantity raises QuantityError naming its field."""
    containers = _placed_containers(pod, volcano=False)
    volcano = _placed_containers(pod, volcano=True)
    if volcano is not containers and volcano == containers:
        volcano = containers  # the usual case: every status listed under its own kind
    return PlacedViews(volcano, placed_pod_level(containers), volcano is containers)


def placed_pod_level(pod: Mapping[str, Any]) -> Mapping[str, Any]:
    """``pod`` with its pod-level requests as ``PodRequests`` counts them once ``status.resources`` is set."""
    status = _mapping(pod.get("status"))
    spec = _mapping(pod.get("spec"))
    if status is None or spec is None or status.get("resources") is None:
        return pod  # Go: pod.Status.Resources == nil
    level = _mapping(spec.get("resources"))
    requests = _mapping(level.get("requests")) if level is not None else None
    if level is None or requests is None or not any(is_pod_level_resource(str(n)) for n in requests):
        return pod  # no pod-level requests (a malformed spec is reported by the request functions)
    actuated = _mapping(status.get("resources"))
    if actuated is None:
        raise QuantityError(f"status.resources: expected a mapping, got {type(status.get('resources')).__name__}")
    effective: dict[str, Any] = {}
    values: dict[str, Fraction] = {}
    if not _resize_infeasible(status):
        _max_into(effective, values, requests, "spec.resources.requests")
    _max_into(effective, values, actuated.get("requests"), "status.resources.requests")
    _max_into(effective, values, status.get("allocatedResources"), "status.allocatedResources")
    new_requests = {name: effective.get(str(name), "0") if is_pod_level_resource(str(name)) else quantity
                    for name, quantity in requests.items()}
    return {**pod, "spec": {**spec, "resources": {**level, "requests": new_requests}}}


def placed_pod(pod: Mapping[str, Any]) -> Mapping[str, Any]:
    """``pod`` with the container and pod-level requests kube-scheduler's cache counts for it on its node
    (see the module docstring); ``pod`` itself when its status reports no resources. A bad status
    quantity raises QuantityError naming its field."""
    return placed_pod_level(_placed_containers(pod, volcano=False))


def _fingerprint_entries(listed: object) -> tuple[list[object] | None, bool]:
    """One status list as :func:`_statuses` reads it, and whether an entry reports resources. A skipped
    entry stays as a None: it moves the index that names the entries after it in messages."""
    if not isinstance(listed, list):
        return None, False
    out: list[object] = []
    reported = False
    for entry in listed:
        if type(entry) is dict or isinstance(entry, Mapping):
            resources = entry.get("resources")
            if resources is None:
                out.append((entry.get("name"),))
                continue
            reported = True  # of resources, only the requests are read (a non-mapping reads as none)
            actuated = resources.get("requests") if type(resources) is dict or isinstance(resources, Mapping) else None
            out.append((entry.get("name"), actuated, entry.get("allocatedResources")))
        else:
            out.append(None)
    return out, reported


def _names(containers: object) -> list[object] | None:
    if not isinstance(containers, list):
        return None
    return [c.get("name") if type(c) is dict or isinstance(c, Mapping) else None for c in containers]


def _pod_level_entry(status: Mapping[str, Any]) -> object:
    """What :func:`placed_pod_level` reads of ``status.resources`` and ``status.allocatedResources``
    (None when ``status.resources`` is unset: then it reads nothing). Of a mapping, only the requests
    are read; anything else is kept as it is (its type names the error), in a tuple of another length."""
    level = status.get("resources")
    if level is None:
        return None
    if not (type(level) is dict or isinstance(level, Mapping)):
        return (level,)
    return (level.get("requests"), status.get("allocatedResources"))


def resize_fingerprint(pod: Mapping[str, Any]) -> object:
    """What :func:`placed_pod` reads from ``status`` and the container names, to be ``repr``-ed into a
    request cache's key beside the spec's requests (None when no container status reports resources and
    ``status.resources`` is unset: then it reads nothing). The status entries are kept in order, with
    their positions: they name the fields of its errors."""
    status = pod.get("status")
    if not (type(status) is dict or isinstance(status, Mapping)):
        return None
    regular, regular_reported = _fingerprint_entries(status.get("containerStatuses"))
    init, init_reported = _fingerprint_entries(status.get("initContainerStatuses"))
    pod_level = _pod_level_entry(status)
    if not (regular_reported or init_reported) and pod_level is None:
        return None
    spec = _mapping(pod.get("spec")) or {}
    return (regular, init, _names(spec.get("containers")), _names(spec.get("initContainers")), pod_level,
            _resize_infeasible(status))
