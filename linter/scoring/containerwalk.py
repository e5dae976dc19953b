"""The container walk of kube's ``AggregateContainerRequests`` / ``PodRequests`` (component-helpers
``resource``), shared by the request views and the API server's pod-level defaulting.

Regular containers are summed. Init containers are walked in order: a restartable one
(``restartPolicy: Always``, a sidecar) is added to the sum and to the running sidecar sum; each
init container needs its own amounts plus the sidecars started before it, and the largest of those
needs per resource is taken where it exceeds the sum. No overhead, no pod-level resources.

What a container contributes, and whether a malformed spec is an error or skipped, is the
caller's: ``listed`` turns ``spec.containers`` / ``spec.initContainers`` into the containers and
``read`` turns one container into its amounts (each given the field path for error messages). A
list that is absent (None) has no containers: ``listed`` is not asked about it.

This runs for every pod explain or the webhook scores, so it avoids calls a plain pod does not need
(measured against the former inline loops: within 3 %).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any, TypeVar

__all__ = ["Amount", "add_into", "aggregate_containers", "max_into"]

# An amount as one view adds it up: an exact Fraction (kube-scheduler) or a float64 (Volcano).
Amount = TypeVar("Amount", Fraction, float)


def add_into(total: dict[str, Amount], extra: Mapping[str, Amount]) -> None:
    for name, q in extra.items():
        total[name] = total[name] + q if name in total else q


def max_into(total: dict[str, Amount], other: Mapping[str, Amount]) -> None:
    for name, q in other.items():
        if name not in total or q > total[name]:
            total[name] = q


def aggregate_containers(
    spec: Mapping[str, Any],
    listed: Callable[[object, str], Iterable[object]],
    read: Callable[[object, str], dict[str, Amount]],
) -> dict[str, Amount]:
    """The containers' aggregated amounts, keys in the order they are first met (containers first).

    ``spec.initContainers`` is listed only after every container was read, so a bad container's
    error wins over a bad init container list."""
    total: dict[str, Amount] = {}
    for i, container in enumerate(listed(spec.get("containers"), "spec.containers")):
        add_into(total, read(container, f"spec.containers[{i}]"))
    inits = spec.get("initContainers")
    if inits is None:  # most pods: skip the listing call and the init bookkeeping
        return total
    sidecars: dict[str, Amount] = {}
    init_usage: dict[str, Amount] = {}
    for i, container in enumerate(listed(inits, "spec.initContainers")):
        own = read(container, f"spec.initContainers[{i}]")
        # the dict test first: pods are parsed JSON/YAML, and isinstance against the ABC is ~9x slower
        if (type(container) is dict or isinstance(container, Mapping)) and container.get("restartPolicy") == "Always":
            add_into(total, own)
            add_into(sidecars, own)
            usage = dict(sidecars)
        else:
            usage = dict(own)
            add_into(usage, sidecars)
        max_into(init_usage, usage)
    max_into(total, init_usage)
    return total
