"""A node's allocatable as Volcano's NodeInfo holds it: ``status.allocatable`` plus the oversubscription annotations.

``NodeInfo.setOversubscription`` (Volcano ed72c7c, pkg/scheduler/api/node_info.go) reads two node annotations,
``volcano.sh/oversubscription-cpu`` (millicores) and ``volcano.sh/oversubscription-memory`` (bytes), with
``v, _ = strconv.ParseFloat(value, 64)``: the error is dropped, so a value that is no float literal adds 0 and
one out of float64's range adds +Inf or -Inf; ``NaN``, ``Inf`` and hex floats are taken as they are. NewNodeInfo
and setNode then add that amount to Idle, Allocatable and Capacity, whatever the ``volcano.sh/oversubscription``
label says (Volcano parses the label and ``volcano.sh/offline-job-evicting`` but no scheduler code reads them).
So the allocate action's FutureIdle and binpack's ``node.Allocatable`` both carry it. kube-scheduler reads
neither annotation: only the Volcano columns take the sum.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from linter.goparsefloat import parse_float
from linter.scoring.requests import volcano_allocatable

__all__ = ["OVERSUBSCRIPTION_ANNOTATIONS", "oversubscription", "volcano_node_allocatable"]

# annotation -> the Volcano resource it adds to (api.OversubscriptionCPU / OversubscriptionMemory)
OVERSUBSCRIPTION_ANNOTATIONS = {
    "volcano.sh/oversubscription-cpu": "cpu",
    "volcano.sh/oversubscription-memory": "memory",
}


def oversubscription(annotations: object) -> dict[str, float]:
    """The amounts the node's annotations add, by Volcano resource name (only annotations present; an
    annotation value is always a string in the API, anything else is taken as absent)."""
    if not isinstance(annotations, Mapping):
        return {}
    return {name: parse_float(value) for key, name in OVERSUBSCRIPTION_ANNOTATIONS.items()
            if isinstance(value := annotations.get(key), str)}


def volcano_node_allocatable(raw_allocatable: Mapping[str, Any], extra: Mapping[str, float],
                             where: str = "status.allocatable") -> dict[str, float]:
    """``NewResource(node.Status.Allocatable).Add(OversubscriptionResource)`` in Volcano units, ``extra`` being
    :func:`oversubscription` of the node's annotations: the float64 sum, so NaN and the infinities carry through
    as in Go."""
    amounts = volcano_allocatable(raw_allocatable, where)
    for name, amount in extra.items():
        amounts[name] = amounts.get(name, 0.0) + amount
    return amounts
