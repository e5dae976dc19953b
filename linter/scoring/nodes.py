"""One node as the scorers see it: allocatable and the sums over its bound, non-terminal pods.

For kube-scheduler and Volcano alike (docs/scoring.md, section 1), a pod counts on a node when
``spec.nodeName`` names it and its phase is neither Succeeded nor Failed (terminating pods
still count). Each bound pod adds its :func:`fit_node_contribution` to ``fit_requested``
(non-zero cpu/memory), its :func:`actual_request` to ``requested`` (Fit filter and
BalancedAllocation), its :func:`volcano_request` to ``volcano_used`` (and to ``volcano_releasing`` when
Volcano counts it as Releasing, :func:`~linter.scoring.volcano_feasibility.is_releasing`) and its host ports
to ``used_ports`` (NodePorts, :mod:`linter.scoring.hostports`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from linter.scoring.hostports import HostPort, host_ports
from linter.scoring.oversubscription import oversubscription, volcano_node_allocatable
from linter.scoring.quantity import QuantityError
from linter.scoring.requests import (
    actual_request,
    fit_node_contribution,
    node_allocatable,
    volcano_request,
)
from linter.scoring.resize import placed_views
from linter.scoring.volcano_feasibility import future_idle, is_releasing

__all__ = ["TERMINAL_PHASES", "NodeView", "is_counted", "is_counted_pod", "node_views"]

TERMINAL_PHASES = ("Succeeded", "Failed")


def is_counted_pod(pod: Mapping[str, Any]) -> bool:
    """Bound (``spec.nodeName`` set) and not Succeeded/Failed."""
    spec = pod.get("spec")
    status = pod.get("status")
    phase = status.get("phase") if isinstance(status, Mapping) else None
    return isinstance(spec, Mapping) and is_counted(spec.get("nodeName"), phase)


def is_counted(node_name: object, phase: object) -> bool:
    """:func:`is_counted_pod`, from a pod's ``spec.nodeName`` and ``status.phase`` alone."""
    return bool(node_name) and phase not in TERMINAL_PHASES


def _add(total: dict[str, Any], extra: Mapping[str, Any]) -> None:
    for name, value in extra.items():
        total[name] = total.get(name, 0) + value


@dataclass
class NodeView:
    """Scheduler-side state of one node (mutable while pods are being added)."""

    name: str
    node: Mapping[str, Any]
    allocatable: dict[str, int]
    volcano_allocatable: dict[str, float]
    pod_count: int = 0
    fit_requested: dict[str, int] = field(default_factory=dict)
    requested: dict[str, int] = field(default_factory=dict)
    volcano_used: dict[str, float] = field(default_factory=dict)
    volcano_releasing: dict[str, float] = field(default_factory=dict)  # Volcano's NodeInfo.Releasing
    used_ports: set[HostPort] = field(default_factory=set)  # NodeInfo.UsedPorts
    # what the node's annotations add to volcano_allocatable (NodeInfo.OversubscriptionResource)
    volcano_oversubscription: dict[str, float] = field(default_factory=dict)

    @property
    def volcano_future_idle(self) -> dict[str, float]:
        """Volcano's ``NodeInfo.FutureIdle()``, what its allocate action fits a task into."""
        return future_idle(self.volcano_allocatable, self.volcano_used, self.volcano_releasing)

    @property
    def volcano_idle(self) -> dict[str, float]:
        """Volcano's ``NodeInfo.Idle``: FutureIdle without the Releasing pods' room."""
        return future_idle(self.volcano_allocatable, self.volcano_used, {})

    @property
    def volcano_max_task_num(self) -> int:
        """Volcano's ``Allocatable.MaxTaskNum``: the allocatable ``pods``."""
        return int(self.volcano_allocatable.get("pods", 0.0))

    @classmethod
    def from_node(cls, node: Mapping[str, Any], where: str = "node") -> NodeView:
        meta = node.get("metadata")
        name = meta.get("name") if isinstance(meta, Mapping) else None
        if not isinstance(name, str) or not name:
            raise QuantityError(f"{where}: metadata.name is missing")
        status = node.get("status")
        raw = status.get("allocatable") if isinstance(status, Mapping) else None
        if raw is not None and not isinstance(raw, Mapping):
            raise QuantityError(f"node {name}: status.allocatable must be a mapping")
        raw = raw or {}
        over = oversubscription(meta.get("annotations") if isinstance(meta, Mapping) else None)
        return cls(
            name=name,
            node=node,
            allocatable=node_allocatable(raw, f"node {name}: status.allocatable"),
            # Volcano adds the node's oversubscription annotations (linter.scoring.oversubscription)
            volcano_allocatable=volcano_node_allocatable(raw, over, f"node {name}: status.allocatable"),
            volcano_oversubscription=over,
        )

    def add_pod(self, pod: Mapping[str, Any]) -> None:
        """Account one bound, non-terminal pod (callers check :func:`is_counted_pod`)."""
        self.pod_count += 1
        self.used_ports.update(host_ports(pod))
        # in-place resizes count as the scheduler cache counts them (Volcano: container level only)
        views = placed_views(pod)
        task = volcano_request(views.volcano)
        _add(self.volcano_used, task)
        if is_releasing(pod):
            _add(self.volcano_releasing, task)
        pod = views.scheduler
        _add(self.fit_requested, fit_node_contribution(pod))
        _add(self.requested, actual_request(pod))


def _pod_label(pod: Mapping[str, Any]) -> str:
    meta = pod.get("metadata")
    if isinstance(meta, Mapping):
        ns = meta.get("namespace") or "default"
        return f"pod {ns}/{meta.get('name', '?')}"
    return "pod ?"


def node_views(nodes: Iterable[Mapping[str, Any]], pods: Iterable[Mapping[str, Any]]) -> list[NodeView]:
    """Build every node's view; pods bound to unknown nodes are ignored (as the scheduler cache does)."""
    views: dict[str, NodeView] = {}
    for i, node in enumerate(nodes):
        view = NodeView.from_node(node, f"nodes[{i}]")
        views[view.name] = view
    for pod in pods:
        if not is_counted_pod(pod):
            continue
        target = views.get(str(pod["spec"]["nodeName"]))
        if target is None:
            continue
        try:
            target.add_pod(pod)
        except QuantityError as exc:
            raise QuantityError(f"{_pod_label(pod)}: {exc}") from None
    return list(views.values())
