"""Which topology spread constraints PodTopologySpread applies to a pod (kube-scheduler 1.36, common.go).

The pod's own ``topologySpreadConstraints`` of one ``whenUnsatisfiable`` (DoNotSchedule: the Filter,
ScheduleAnyway: the Score); when it has none at all, the profile's default constraints of that action with
the *default selector* (:func:`default_selector`), and none when that selector is empty. Unset fields
default as the plugin defaults them: minDomains 1, nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore.

``matchLabelKeys``: the pod's values of those keys are ANDed into the selector. Since 1.34 the API server
also writes them into ``labelSelector`` when it stores the pod (MatchLabelKeysInPodTopologySpreadSelectorMerge,
beta, on); the scheduler still merges them, which selects the same pods a second time, so the outcome is
the same whether the pod read was merged already or not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from linter.scoring.labelselector import EVERYTHING, LabelSelector, from_set, object_labels, selector_from

__all__ = [
    "HOSTNAME",
    "SYSTEM_DEFAULTS",
    "ZONE",
    "DefaultSelector",
    "SpreadConstraint",
    "SpreadObjects",
    "constraints_for",
    "default_selector",
]

HOSTNAME = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"
# the plugin's systemDefaultConstraints (defaultingType System)
SYSTEM_DEFAULTS: tuple[Mapping[str, Any], ...] = (
    {"topologyKey": HOSTNAME, "whenUnsatisfiable": "ScheduleAnyway", "maxSkew": 3},
    {"topologyKey": ZONE, "whenUnsatisfiable": "ScheduleAnyway", "maxSkew": 5},
)
# DefaultSelector's controller kinds: (group, version, kind)
_RC, _RS, _SS = ("", "v1", "ReplicationController"), ("apps", "v1", "ReplicaSet"), ("apps", "v1", "StatefulSet")


@dataclass(frozen=True)
class SpreadConstraint:
    max_skew: int
    topology_key: str
    selector: LabelSelector
    min_domains: int = 1
    honor_node_affinity: bool = True  # nodeAffinityPolicy Honor
    honor_node_taints: bool = False  # nodeTaintsPolicy Honor


@dataclass(frozen=True)
class SpreadObjects:
    """The objects DefaultSelector looks up, each as ``{(namespace, name): selector}``: a Service's and a
    ReplicationController's ``spec.selector`` is a label map (a Service's may be None: it selects nothing),
    a ReplicaSet's and StatefulSet's a ``metav1.LabelSelector``."""

    services: Mapping[tuple[str, str], Mapping[str, str] | None]
    replication_controllers: Mapping[tuple[str, str], Mapping[str, str] | None]
    replica_sets: Mapping[tuple[str, str], object]
    stateful_sets: Mapping[tuple[str, str], object]

    @classmethod
    def none(cls) -> SpreadObjects:
        return cls({}, {}, {}, {})


@dataclass(frozen=True)
class DefaultSelector:
    selector: LabelSelector
    owner: str | None = None  # "ReplicaSet rs-1" when DefaultSelector reads a controller owner
    owner_missing: bool = False  # that owner is not among the objects (its selector is left out)


def _meta(pod: Mapping[str, Any]) -> Mapping[str, Any]:
    meta = pod.get("metadata")
    return meta if isinstance(meta, Mapping) else {}


def _group_version(api_version: object) -> tuple[str, str] | None:
    """``schema.ParseGroupVersion``: "" is empty, "v1" the core group, "g/v"; more slashes do not parse."""
    text = api_version if isinstance(api_version, str) else ""
    if not text:
        return ("", "")
    if text.count("/") > 1:
        return None
    group, _, version = text.rpartition("/")
    return (group, version)


def _controller(pod: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """``GetControllerOf``: the first owner reference with ``controller: true``."""
    refs = _meta(pod).get("ownerReferences")
    for ref in refs if isinstance(refs, list) else ():
        if isinstance(ref, Mapping) and ref.get("controller") is True:
            return ref
    return None


def default_selector(pod: Mapping[str, Any], objects: SpreadObjects) -> DefaultSelector:
    """``helper.DefaultSelector``: the selectors of the pod's namespace's Services that select the pod,
    merged, and then its controller owner's when that is a v1 ReplicationController or an apps/v1
    ReplicaSet or StatefulSet found in the namespace."""
    labels = object_labels(pod)
    namespace = str(_meta(pod).get("namespace") or "default")
    merged: dict[str, str] = {}
    for (ns, _), svc_selector in sorted(objects.services.items()):
        if ns != namespace or svc_selector is None:
            continue  # a Service without a selector selects nothing
        if from_set(svc_selector).matches(labels):
            merged.update(svc_selector)  # they all select this pod: no key can conflict
    selector = from_set(merged)
    owner = _controller(pod)
    gv = _group_version(owner.get("apiVersion")) if owner is not None else None
    if owner is None or gv is None:
        return DefaultSelector(selector)
    kind = (*gv, owner.get("kind"))
    if kind not in (_RC, _RS, _SS):
        return DefaultSelector(selector)
    key = (namespace, str(owner.get("name") or ""))
    described = f"{kind[2]} {key[1]}"
    if kind == _RC:
        if key not in objects.replication_controllers:
            return DefaultSelector(selector, described, True)
        merged.update(objects.replication_controllers[key] or {})
        return DefaultSelector(from_set(merged), described)
    found = objects.replica_sets if kind == _RS else objects.stateful_sets
    if key not in found:
        return DefaultSelector(selector, described, True)
    try:
        other = selector_from(found[key])
    except ValueError:
        return DefaultSelector(selector, described)  # a selector that does not convert adds nothing
    return DefaultSelector(selector.add(other.requirements), described)  # Nothing's are none


def _merge_match_label_keys(selector: LabelSelector, keys: object, labels: Mapping[str, str]) -> LabelSelector:
    """``mergeLabelSetWithSelector``: the pod's values of ``matchLabelKeys`` first, then the selector's
    requirements; a Nothing selector stays Nothing."""
    wanted = {k: labels[k] for k in keys if isinstance(k, str) and k in labels} if isinstance(keys, list) else {}
    if not wanted or selector.nothing:
        return selector
    return from_set(wanted).add(selector.requirements)


def _policy(raw: Mapping[str, Any], field: str, default: str) -> bool:
    value = raw.get(field)
    return (value if isinstance(value, str) else default) == "Honor"


def _filtered(raw_constraints: Sequence[object], labels: Mapping[str, str], action: str) -> list[SpreadConstraint]:
    """``filterTopologySpreadConstraints``; raises SelectorError (ValueError) for a selector that does not
    convert."""
    out: list[SpreadConstraint] = []
    for raw in raw_constraints:
        if not isinstance(raw, Mapping) or raw.get("whenUnsatisfiable") != action:
            continue
        selector = selector_from(raw.get("labelSelector"))
        selector = _merge_match_label_keys(selector, raw.get("matchLabelKeys"), labels)
        min_domains = raw.get("minDomains")
        out.append(SpreadConstraint(
            max_skew=int(raw.get("maxSkew") or 0),
            topology_key=str(raw.get("topologyKey") or ""),
            selector=selector,
            min_domains=min_domains if isinstance(min_domains, int) else 1,
            honor_node_affinity=_policy(raw, "nodeAffinityPolicy", "Honor"),
            honor_node_taints=_policy(raw, "nodeTaintsPolicy", "Ignore"),
        ))
    return out


def constraints_for(pod: Mapping[str, Any], action: str, defaults: Sequence[Mapping[str, Any]],
                    default: DefaultSelector | None) -> list[SpreadConstraint]:
    """The constraints of ``action`` ("DoNotSchedule" or "ScheduleAnyway") the plugin applies to ``pod``;
    ``defaults``: the profile's default constraints; ``default``: the pod's :func:`default_selector`
    (only read when the pod has no constraints of its own). Raises ValueError as the plugin errors."""
    spec = pod.get("spec")
    own = spec.get("topologySpreadConstraints") if isinstance(spec, Mapping) else None
    labels = object_labels(pod)
    if isinstance(own, list) and own:
        return _filtered(own, labels, action)
    built = _filtered(defaults, labels, action)
    selector = default.selector if default is not None else EVERYTHING
    if not built or selector.empty:
        return []
    return [SpreadConstraint(c.max_skew, c.topology_key, selector, c.min_domains, c.honor_node_affinity,
                             c.honor_node_taints) for c in built]

