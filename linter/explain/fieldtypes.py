"""The JSON types of the Node and Pod fields explain reads, checked before anything reads them.

The apiserver decodes every object into Go structs, so a Node whose ``metadata.labels`` is a list,
or whose ``spec.taints`` is a mapping, cannot exist in a cluster: a dump holding one is hand-made
or broken. The scoring and filter code reads such a field leniently (a label set that is no mapping
is no labels, a taint list that is no list is no taints), so without this check the explanation
would quietly describe another object. Each problem is named by its field path
(``spec.taints[0].effect must be a string (got a number)``); a field that is absent or null is
the Go zero value and is fine.

A type is :data:`STRING`, :data:`BOOLEAN`, :data:`INTEGER`, :data:`INT32` or :data:`INT64` (an integer the
Go decoder can store in a field of that Go type: a JSON number outside its range fails decoding, so no stored
object has one), a :class:`MapOf` (string keys, each value of one type), a :class:`ListOf`, or a dict of the
fields of an object.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from linter.goint import INT32_MAX, INT32_MIN

__all__ = ["INT32", "INT64", "NAMESPACE_TYPES", "NODE_TYPES", "PLACEMENT_TYPES", "POD_AFFINITY_TYPES", "POD_TYPES",
           "PORT_TYPES", "WORKLOAD_TYPES", "ListOf", "MapOf", "placement_problem", "port_problem", "type_problem"]

STRING, BOOLEAN, INTEGER, INT64 = "a string", "a boolean", "an integer", "an int64 integer"
# An int32 field of the Go type: a wrong JSON type is "must be an integer", a number outside int32 is named
# as the preemption checks name it (linter.explain.dump.preemption_field_problem)
INT32 = "an int32 integer"
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


@dataclass(frozen=True)
class MapOf:
    value: Any


@dataclass(frozen=True)
class ListOf:
    item: Any


_REQUIREMENT = {"key": STRING, "operator": STRING, "values": ListOf(STRING)}
_LABEL_SELECTOR = {"matchLabels": MapOf(STRING), "matchExpressions": ListOf(_REQUIREMENT)}
_POD_TERM = {"labelSelector": _LABEL_SELECTOR, "namespaceSelector": _LABEL_SELECTOR, "namespaces": ListOf(STRING),
             "topologyKey": STRING, "matchLabelKeys": ListOf(STRING), "mismatchLabelKeys": ListOf(STRING)}
_POD_AFFINITY = {"requiredDuringSchedulingIgnoredDuringExecution": ListOf(_POD_TERM),
                 "preferredDuringSchedulingIgnoredDuringExecution": ListOf({"weight": INT32,
                                                                            "podAffinityTerm": _POD_TERM})}
_TERM = {"matchExpressions": ListOf(_REQUIREMENT), "matchFields": ListOf(_REQUIREMENT)}

NODE_TYPES: dict[str, Any] = {
    "metadata": {"labels": MapOf(STRING), "annotations": MapOf(STRING)},
    "spec": {"unschedulable": BOOLEAN, "taints": ListOf({"key": STRING, "value": STRING, "effect": STRING})},
    # the quantities are parsed (and named) by the scorer
    "status": {"allocatable": MapOf(None), "images": ListOf({"names": ListOf(STRING), "sizeBytes": INT64})},
}

# What NodePorts reads (linter.scoring.hostports), checked on every pod read (port_problem): a port of the
# wrong type would quietly be no port.
_PORTS = ListOf({"containerPort": INT32, "hostPort": INT32, "hostIP": STRING, "protocol": STRING})
PORT_TYPES: dict[str, Any] = {"spec": {
    "hostNetwork": BOOLEAN,
    "initContainers": ListOf({"restartPolicy": STRING, "ports": _PORTS}),
    "containers": ListOf({"ports": _PORTS}),
}}

# What decides where a bound pod counts, and whether PodTopologySpread's and InterPodAffinity's selectors
# match it: checked on every STATE pod of the scoring read. priority too (a nominated pod's counts; the
# preemption read reads every pod's), so a dump no API server could hold is refused whether or not preemption
# runs.
PLACEMENT_TYPES: dict[str, Any] = {"metadata": {"namespace": STRING, "labels": MapOf(STRING)},
                                   "spec": {"nodeName": STRING, "priority": INT32}, "status": {"phase": STRING}}
# What PodTopologySpread's default selector reads of a Service, ReplicaSet, StatefulSet or ReplicationController
WORKLOAD_TYPES: dict[str, dict[str, Any]] = {
    "Service": {"metadata": {"namespace": STRING}, "spec": {"selector": MapOf(STRING)}},
    "ReplicationController": {"metadata": {"namespace": STRING}, "spec": {"selector": MapOf(STRING)}},
    "ReplicaSet": {"metadata": {"namespace": STRING}, "spec": {"selector": _LABEL_SELECTOR}},
    "StatefulSet": {"metadata": {"namespace": STRING}, "spec": {"selector": _LABEL_SELECTOR}},
}
# What InterPodAffinity reads of a pod's terms (linter.scoring.podaffinity), checked once per request shape
# (explain.dump.pod_shape), and of a Namespace (its labels, for namespaceSelectors).
POD_AFFINITY_TYPES: dict[str, Any] = {"spec": {"affinity": {"podAffinity": _POD_AFFINITY,
                                                            "podAntiAffinity": _POD_AFFINITY}}}
NAMESPACE_TYPES: dict[str, Any] = {"metadata": {"labels": MapOf(STRING)}}

POD_TYPES: dict[str, Any] = {
    "metadata": {"namespace": STRING, "labels": MapOf(STRING),
                 "ownerReferences": ListOf({"apiVersion": STRING, "kind": STRING, "name": STRING,
                                            "controller": BOOLEAN})},
    "spec": {
        "topologySpreadConstraints": ListOf({
            "maxSkew": INT32, "topologyKey": STRING, "whenUnsatisfiable": STRING, "labelSelector": _LABEL_SELECTOR,
            "minDomains": INT32, "nodeAffinityPolicy": STRING, "nodeTaintsPolicy": STRING,
            "matchLabelKeys": ListOf(STRING)}),
        "nodeName": STRING, "schedulerName": STRING, "priorityClassName": STRING, "priority": INT32,
        "preemptionPolicy": STRING, "nodeSelector": MapOf(STRING),
        "tolerations": ListOf({"key": STRING, "operator": STRING, "value": STRING, "effect": STRING}),
        "affinity": {"nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": ListOf(_TERM)},
            # NodeAffinity's score adds the weights of the matching terms
            "preferredDuringSchedulingIgnoredDuringExecution": ListOf({"weight": INT32, "preference": _TERM})},
            "podAffinity": _POD_AFFINITY, "podAntiAffinity": _POD_AFFINITY},
    },
    "status": {"phase": STRING, "nominatedNodeName": STRING},
}


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Mapping):
        return "a mapping"
    return "a list" if isinstance(value, list) else type(value).__name__


def _problem(value: object, expected: Any, path: str) -> str | None:
    if expected is None:
        return None
    if isinstance(expected, str):
        fits = {STRING: isinstance(value, str), BOOLEAN: isinstance(value, bool),
                INTEGER: isinstance(value, int) and not isinstance(value, bool),
                INT32: type(value) is int and INT32_MIN <= value <= INT32_MAX,
                INT64: type(value) is int and _INT64_MIN <= value <= _INT64_MAX}[expected]
        if fits:
            return None
        if expected == INT32:
            return f"{path} is out of the 32-bit integer range the API server stores" if type(value) is int \
                else f"{path} must be {INTEGER} (got {_json_type(value)})"
        out_of_range = expected == INT64 and type(value) is int
        got = str(value) if out_of_range else _json_type(value)
        return f"{path} must be {expected} (got {got})"
    if isinstance(expected, ListOf):
        if not isinstance(value, list):
            return f"{path} must be a list (got {_json_type(value)})"
        for i, item in enumerate(value):
            found = _problem(item, expected.item, f"{path}[{i}]")
            if found:
                return found
        return None
    if not isinstance(value, Mapping):
        return f"{path} must be a mapping (got {_json_type(value)})"
    if not isinstance(expected, MapOf):
        return type_problem(value, expected, f"{path}.")
    for key, item in value.items():
        if not isinstance(key, str):
            return f"{path} has the key {key!r}, which is not a string"
        found = _problem(item, expected.value, f"{path}.{key}")
        if found:
            return found
    return None


def type_problem(obj: Mapping[str, Any], types: Mapping[str, Any], prefix: str = "") -> str | None:
    """The first field of ``obj`` named in ``types`` whose value has the wrong type, as a message; or None."""
    for key, expected in types.items():
        value = obj.get(key)
        if value is not None:
            found = _problem(value, expected, prefix + key)
            if found:
                return found
    return None


_STRING_OR_NULL = (str, type(None))


def _int32_or_null(value: object) -> bool:
    return value is None or (type(value) is int and INT32_MIN <= value <= INT32_MAX)


def _string_map_or_null(value: object) -> bool:
    return value is None or (type(value) is dict and all(type(k) is str and type(v) is str for k, v in value.items()))


def placement_problem(pod: Mapping[str, Any]) -> str | None:
    """``type_problem(pod, PLACEMENT_TYPES)``, checked on every STATE pod: the common case (a decoded
    ``spec`` and ``status`` whose fields are of their types or absent) without the general walk."""
    spec, status, meta = pod.get("spec"), pod.get("status"), pod.get("metadata")
    if (type(spec) is dict and type(spec.get("nodeName")) in _STRING_OR_NULL and _int32_or_null(spec.get("priority"))
            and type(status) is dict and type(status.get("phase")) in _STRING_OR_NULL
            and type(meta) is dict and type(meta.get("namespace")) in _STRING_OR_NULL
            and _string_map_or_null(meta.get("labels"))):
        return None
    return type_problem(pod, PLACEMENT_TYPES)


_NULL_OR_BOOL, _NULL_OR_STR = (type(None), bool), (type(None), str)


def _ports_typed(container: object, init: bool) -> bool:
    """The container's PORT_TYPES fields are all of their types (``type`` is ``int``: no boolean; the ports
    within int32)."""
    if type(container) is not dict or (init and type(container.get("restartPolicy")) not in _NULL_OR_STR):
        return False
    ports = container.get("ports")
    if ports is None:
        return True
    if type(ports) is not list:
        return False
    for port in ports:
        if type(port) is not dict or not _int32_or_null(port.get("containerPort")) or \
                not _int32_or_null(port.get("hostPort")) or type(port.get("hostIP")) not in _NULL_OR_STR or \
                type(port.get("protocol")) not in _NULL_OR_STR:
            return False
    return True


def port_problem(pod: Mapping[str, Any]) -> str | None:
    """``type_problem(pod, PORT_TYPES)``, checked on every pod read: a direct check of the usual pod first,
    the general walk only to name what is wrong."""
    spec = pod.get("spec")
    if type(spec) is dict and type(spec.get("hostNetwork")) in _NULL_OR_BOOL:
        containers, init = spec.get("containers"), spec.get("initContainers")
        if type(containers) is list and all(_ports_typed(c, False) for c in containers) and (
                init is None or (type(init) is list and all(_ports_typed(c, True) for c in init))):
            return None
    return type_problem(pod, PORT_TYPES)
