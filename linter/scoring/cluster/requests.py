"""One pass over a bound pod for all three amounts :class:`~linter.scoring.cluster.state.ClusterState` keeps.

A bound pod adds three views of its requests to its node: NodeResourcesFit's non-zero
requests (:func:`~linter.scoring.requests.fit_node_contribution`), the actual requests
(:func:`~linter.scoring.requests.actual_request`) and Volcano's ``Resreq``
(:func:`~linter.scoring.requests.volcano_request`). Each of those walks the pod and sums its
quantities on its own. For the common pod shape (plain containers only: no init containers,
no pod-level requests, no overhead) all three follow from one exact sum of the containers'
requests (Volcano's from each container's own conversion) and the number of containers that
leave cpu or memory unset, which is what
:func:`simple_pod_amounts` computes. Any other pod, or anything malformed, returns None and
the caller uses the three scalar functions, which also produce the error messages.
``tests/scoring/test_cluster_requests.py`` checks the two ways agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from linter.scoring.quantity import QuantityError, parse_quantity, to_scheduler_int
from linter.scoring.requests import (
    DEFAULT_MEMORY_REQUEST,
    DEFAULT_MILLI_CPU_REQUEST,
    is_scalar_resource,
    volcano_resource_list,
)

_DIRECT_RESOURCES = ("cpu", "memory", "ephemeral-storage")
_DEFAULT_CPU = Fraction(DEFAULT_MILLI_CPU_REQUEST, 1000)
_DEFAULT_MEMORY = Fraction(DEFAULT_MEMORY_REQUEST)

# (fit non-zero, actual counted, volcano) per resource name, as the three scalar functions give them
Amounts = tuple[dict[str, int], dict[str, int], dict[str, float]]


@lru_cache(maxsize=1024)
def counted_resource(name: str) -> bool:
    """Names kube-scheduler's ``framework.Resource`` keeps (others never reach the filter)."""
    return name in _DIRECT_RESOURCES or is_scalar_resource(name)


def simple_pod_amounts(pod: Mapping[str, Any]) -> Amounts | None:
    """The three views for a pod of plain containers, or None (use the scalar functions)."""
    summed = _container_sum(pod)
    if summed is None:
        return None
    total, volcano, missing_cpu, missing_memory = summed
    actual_all = {name: to_scheduler_int(name, q) for name, q in total.items()}
    # fit_node_contribution: actual amounts of the framework's resources, cpu and memory with the
    # per-container defaults (100m, 200Mi) for containers that do not name them at all
    fit = {name: value for name, value in actual_all.items() if counted_resource(name)}
    fit["cpu"] = _with_default(actual_all, total, "cpu", missing_cpu, _DEFAULT_CPU)
    fit["memory"] = _with_default(actual_all, total, "memory", missing_memory, _DEFAULT_MEMORY)
    actual = {name: value for name, value in actual_all.items() if counted_resource(name)}
    volcano["pods"] = volcano.get("pods", 0.0) + 1.0
    return fit, actual, volcano


def _with_default(actual_all: dict[str, int], total: dict[str, Fraction], name: str, missing: int,
                  default: Fraction) -> int:
    if missing == 0:
        return actual_all.get(name, 0)
    return to_scheduler_int(name, total.get(name, Fraction(0)) + missing * default)


def _container_sum(pod: Mapping[str, Any]) -> tuple[dict[str, Fraction], dict[str, float], int, int] | None:
    """Exact sum of the containers' requests, Volcano's float64 sum of each container's own conversion,
    and how many containers omit cpu / memory; None when the pod has more than plain containers or
    anything is not as the scalar functions expect."""
    spec = pod.get("spec")
    if not isinstance(spec, Mapping):
        return None
    inits = spec.get("initContainers")
    if (inits is not None and inits != []) or spec.get("resources") is not None or spec.get("overhead") is not None:
        return None
    containers = spec.get("containers")
    if containers is None:
        containers = []
    if not isinstance(containers, list):
        return None
    total: dict[str, Fraction] = {}
    volcano: dict[str, float] = {}
    missing_cpu = missing_memory = 0
    for container in containers:
        if not isinstance(container, Mapping):
            return None
        resources = container.get("resources")
        if resources is None:
            resources = {}
        if not isinstance(resources, Mapping):
            return None
        requests = resources.get("requests")
        if requests is None:
            requests = {}
        if not isinstance(requests, Mapping):
            return None
        try:
            parsed = {str(name): parse_quantity(raw) for name, raw in requests.items()}
            converted = volcano_resource_list(requests, "requests")
        except QuantityError:
            return None
        for name, q in parsed.items():
            total[name] = total[name] + q if name in total else q
        for name, v in converted.items():
            volcano[name] = volcano[name] + v if name in volcano else v
        missing_cpu += "cpu" not in parsed
        missing_memory += "memory" not in parsed
    return total, volcano, missing_cpu, missing_memory
