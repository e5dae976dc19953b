"""The parts of a pod that preemption reads, read once (reference/preemption.md §2, §4, §9).

Priority is ``spec.priority`` as admission stored it (missing = 0; ``priorityClassName`` is
never read by the scheduler). ``startTime`` missing means "now" to the scheduler, which makes
comparisons involving it non-deterministic; it is kept as None so callers can say so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from linter.scoring.hostports import HostPort, host_ports
from linter.scoring.nominated import pod_priority
from linter.scoring.requests import actual_request
from linter.scoring.resize import placed_pod

__all__ = ["PodFacts", "parse_time", "pod_facts", "posix_seconds", "terminating_by_preemption"]

PREEMPTION_BY_SCHEDULER = "PreemptionByScheduler"


def _get(obj: object, *path: str) -> Any:
    for key in path:
        if not isinstance(obj, Mapping):
            return None
        obj = obj.get(key)
    return obj


def parse_time(value: object) -> datetime | None:
    """An RFC 3339 timestamp as the API server writes it; anything else is None."""
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    # Naive UTC, so that every start time compares with every other.
    return parsed.astimezone(UTC).replace(tzinfo=None) if parsed.tzinfo else parsed


def posix_seconds(moment: datetime) -> float:
    """A naive-UTC time from :func:`parse_time` as POSIX seconds (independent of the local zone)."""
    return moment.replace(tzinfo=UTC).timestamp()


def terminating_by_preemption(pod: Mapping[str, Any]) -> bool:
    """``deletionTimestamp`` set and the *first* DisruptionTarget condition is True/PreemptionByScheduler."""
    if not _get(pod, "metadata", "deletionTimestamp"):
        return False
    conditions = _get(pod, "status", "conditions")
    for cond in conditions if isinstance(conditions, list) else []:
        if isinstance(cond, Mapping) and cond.get("type") == "DisruptionTarget":
            return cond.get("status") == "True" and cond.get("reason") == PREEMPTION_BY_SCHEDULER
    return False


@dataclass(frozen=True)
class PodFacts:
    """One pod as preemption sees it; ``request`` is its real request (no 100m/200Mi defaults)."""

    namespace: str
    name: str
    priority: int
    start: datetime | None
    labels: Mapping[str, str]
    request: Mapping[str, int]
    node_name: str
    nominated_node: str
    preemption_policy: str
    terminating_by_preemption: bool
    deleting: bool
    uid: str = ""
    ports: tuple[HostPort, ...] = ()  # host ports (NodePorts)
    pod: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"


def pod_facts(pod: Mapping[str, Any], *, placed: bool = True) -> PodFacts:
    """Read ``pod`` (a v1 Pod mapping); quantities raise QuantityError as the scoring model does.

    ``placed``: the pod is counted on a node (bound, or nominated there), so an in-place resize counts
    (:mod:`linter.scoring.resize`); False for the pod being scheduled, whose spec alone is read."""
    labels = _get(pod, "metadata", "labels")
    policy = _get(pod, "spec", "preemptionPolicy")
    return PodFacts(
        namespace=str(_get(pod, "metadata", "namespace") or "default"),
        name=str(_get(pod, "metadata", "name") or ""),
        priority=pod_priority(pod),
        start=parse_time(_get(pod, "status", "startTime")),
        labels={str(k): str(v) for k, v in labels.items()} if isinstance(labels, Mapping) else {},
        request=actual_request(placed_pod(pod) if placed else pod),
        node_name=str(_get(pod, "spec", "nodeName") or ""),
        nominated_node=str(_get(pod, "status", "nominatedNodeName") or ""),
        preemption_policy=str(policy) if isinstance(policy, str) and policy else "PreemptLowerPriority",
        terminating_by_preemption=terminating_by_preemption(pod),
        deleting=bool(_get(pod, "metadata", "deletionTimestamp")),
        uid=str(_get(pod, "metadata", "uid") or ""),
        ports=host_ports(pod),
        pod=pod,
    )
