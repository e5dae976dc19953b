"""Explain's PodTopologySpread filter and score (:mod:`linter.scoring.spread`).

The filter runs when the profile runs the plugin's PreFilter and Filter, after every modelled filter (it
follows them in kube-scheduler's default order), counting the pods nominated to the node; the score when
the profile scores with it. Per node: ``podTopologySpreadRaw`` (Score, before normalising) and
``podTopologySpreadScore`` (NormalizeScore's 0..100, before the weight), feasible nodes only; both None
when the plugin does not score or its PreScore skips the pod.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from linter.model import Profile
from linter.scoring.feasibility import Feasibility
from linter.scoring.labelselector import object_labels
from linter.scoring.nodes import NodeView, is_counted_pod
from linter.scoring.nominated import Nominee, labels_of
from linter.scoring.preemption.filters import SpreadSetup
from linter.scoring.spread import (
    SYSTEM_DEFAULTS,
    BoundPods,
    DefaultSelector,
    SpreadConstraint,
    SpreadNode,
    SpreadObjects,
    constraints_for,
    default_selector,
    prefilter,
    spread_scores,
)

from .dump import ExplainInputError
from .fields import WORKLOAD_KINDS

__all__ = ["PLUGIN", "PodSpread", "SpreadInputs", "spread_inputs"]

Json = dict[str, Any]
PLUGIN = "PodTopologySpread"


@dataclass(frozen=True)
class SpreadInputs:
    """What the plugin reads of STATE: the bound pods it counts and its default selector's objects."""

    pods: BoundPods = field(default_factory=BoundPods)
    objects: SpreadObjects = field(default_factory=SpreadObjects.none)


def spread_inputs(pods: Sequence[Mapping[str, Any]], workloads: Sequence[Mapping[str, Any]]) -> SpreadInputs:
    """The inputs from whole objects: the counted pods and the Services, ReplicaSets, StatefulSets and
    ReplicationControllers among ``workloads``."""
    bound = BoundPods()
    for p in filter(is_counted_pod, pods):
        meta = p.get("metadata") or {}
        bound.add(str(p["spec"]["nodeName"]), str(meta.get("namespace") or "default"), labels_of(p),
                  meta.get("deletionTimestamp") is not None)
    found: dict[str, dict[tuple[str, str], Any]] = {k: {} for k in WORKLOAD_KINDS}
    for obj in workloads:
        meta, spec = obj.get("metadata") or {}, obj.get("spec") or {}
        if obj.get("kind") in found:
            found[str(obj["kind"])][(str(meta.get("namespace") or "default"), str(meta.get("name")))] = \
                spec.get("selector")
    return SpreadInputs(bound, SpreadObjects(found["Service"], found["ReplicationController"], found["ReplicaSet"],
                                             found["StatefulSet"]))


def _runs(plugins: Sequence[str] | None) -> bool:
    return plugins is None or PLUGIN in plugins


def _own_constraints(pod: Mapping[str, Any]) -> bool:
    spec = pod.get("spec")
    own = spec.get("topologySpreadConstraints") if isinstance(spec, Mapping) else None
    return isinstance(own, list) and bool(own)


def _describe(c: SpreadConstraint, action: str) -> Json:
    return {"topologyKey": c.topology_key, "maxSkew": c.max_skew, "whenUnsatisfiable": action,
            "minDomains": c.min_domains, "nodeAffinityPolicy": "Honor" if c.honor_node_affinity else "Ignore",
            "nodeTaintsPolicy": "Honor" if c.honor_node_taints else "Ignore"}


class PodSpread:
    """PodTopologySpread for one pending pod on the views of STATE."""

    def __init__(self, profile: Profile, pod: Mapping[str, Any], views: Sequence[NodeView],
                 inputs: SpreadInputs) -> None:
        self.pod, self.inputs = pod, inputs
        meta = pod.get("metadata")
        self.namespace = str((meta.get("namespace") if isinstance(meta, Mapping) else None) or "default")
        self.filter_on = _runs(profile.filter_plugins) and _runs(profile.pre_filter_plugins)
        self.weight = profile.score_plugin_weights.get(PLUGIN, 0)
        self.system = profile.spread_system_defaulted
        defaults = SYSTEM_DEFAULTS if self.system else profile.spread_listed_constraints
        self.default: DefaultSelector | None = None if _own_constraints(pod) else default_selector(pod, inputs.objects)
        try:
            self.hard = constraints_for(pod, "DoNotSchedule", defaults, self.default) if self.filter_on else []
            self.soft = constraints_for(pod, "ScheduleAnyway", defaults, self.default) if self.weight else []
        except ValueError as exc:  # the API server refuses such a pod
            raise ExplainInputError(f"POD: spec.topologySpreadConstraints: {exc}") from None
        self.nodes = [SpreadNode.of(v.node) for v in views]
        self.labels = object_labels(pod)
        self.state = prefilter(pod, self.namespace, self.hard, self.nodes, inputs.pods)

    def check(self, index: int, nominated: Sequence[Nominee]) -> Feasibility | None:
        """The Filter's verdict on the ``index``-th view (None: it passes), with its nominated pods."""
        if self.state is None:
            return None
        found = self.state.check(self.nodes[index], self.labels, [(n.key[0], n.labels) for n in nominated])
        if found is None:
            return None
        return Feasibility(False, PLUGIN, (found[1],))

    def preemption_setup(self) -> SpreadSetup | None:
        """The Filter's state for the preemption model's dry runs (None: PreFilter skips, the Filter passes)."""
        if self.state is None:
            return None
        return SpreadSetup(self.state, {n.name: n for n in self.nodes}, self.labels)

    @property
    def note(self) -> str | None:
        """Why the default selector may be short of the scheduler's: its owner is not in STATE."""
        if self.default is None or not self.default.owner_missing:
            return None
        return (f"the pod's controller owner {self.default.owner} is not in STATE: its selector is left out of "
                "PodTopologySpread's default constraints (add replicasets, statefulsets and replicationcontrollers "
                "to the kubectl get)")

    def add_scores(self, nodes: Sequence[Json]) -> Json:
        """Fill ``podTopologySpreadRaw``/``Score`` of ``nodes`` (one per view, in view order) and add the
        weighted scores to the feasible nodes' totals; returns the document-level keys."""
        feasible = [self.nodes[i] for i, node in enumerate(nodes) if node["feasible"]]
        require_all = _own_constraints(self.pod) or not self.system
        scores = spread_scores(self.pod, self.namespace, self.soft, require_all, self.nodes, feasible,
                               self.inputs.pods) if self.weight and feasible else None
        for spread_node, node in zip(self.nodes, nodes, strict=True):
            raw = scores.raw.get(spread_node.name) if scores is not None else None
            node["podTopologySpreadRaw"] = raw
            node["podTopologySpreadScore"] = scores.normalized.get(spread_node.name) if scores is not None else None
            if scores is not None and raw is not None:
                node["total"] += scores.normalized[spread_node.name] * self.weight
        return {
            "podTopologySpreadWeight": self.weight or None,
            "podTopologySpreadSkipped": (scores is None) if self.weight and feasible else None,
            "podTopologySpreadConstraints": [_describe(c, "DoNotSchedule") for c in self.hard]
            + [_describe(c, "ScheduleAnyway") for c in self.soft],
            "podTopologySpreadDefaulted": bool(self.hard or self.soft) and not _own_constraints(self.pod),
            "podTopologySpreadNote": self.note,
        }
