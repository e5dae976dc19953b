"""Which in-tree kube-scheduler plugins that this tool does not model can act on one pending pod.

The model covers NodeResourcesFit, NodeResourcesBalancedAllocation, TaintToleration and NodeAffinity
scores and the filters NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts and
NodeResourcesFit. The other in-tree plugins of kube-scheduler 1.36 (default feature gates) step aside
for most pods: their PreFilter or PreScore returns Skip. :func:`plugins_for_pod` names a plugin only when
the profile runs it at that point and its Skip condition does not hold for the pod, as far as the pod and
a few cluster-wide counts show (ImageLocality is left to the scorer's own notes):

* InterPodAffinity (the webhook only; explain computes it, :mod:`linter.scoring.podaffinity`, and passes
  it in ``modelled``), filter: the pod has required podAffinity or podAntiAffinity terms, or a pod bound to a
  node has required podAntiAffinity terms (the filter checks whether one of them matches this pod).
  Score: the pod has preferred terms, or (unless ``ignorePreferredTermsOfExistingPods``) a bound pod has
  preferred terms, or required podAffinity terms while ``hardPodAffinityWeight`` > 0.
* PodTopologySpread (the webhook only; explain computes it, :mod:`linter.scoring.spread`, and passes it
  in ``modelled``): the pod's ``topologySpreadConstraints`` (DoNotSchedule: filter, ScheduleAnyway:
  score); without them the profile's default constraints (System: ScheduleAnyway on zone and hostname)
  when the default selector is not empty. That selector comes from the Services selecting the pod (not
  visible here) and the controller owner when it is a v1 ReplicationController or an apps/v1 ReplicaSet
  or StatefulSet: only that owner is looked at.
* VolumeBinding (filter): a persistentVolumeClaim or ephemeral volume. Its score needs the alpha
  StorageCapacityScoring gate, off in 1.36.
* VolumeZone (filter): a persistentVolumeClaim volume.
* NodeVolumeLimits (filter): a persistentVolumeClaim, ephemeral or CSI-migratable inline volume.
* VolumeRestrictions (filter): an inline gcePersistentDisk, awsElasticBlockStore, rbd or iscsi volume, or
  a persistentVolumeClaim volume (a ReadWriteOncePod claim in use elsewhere, or a missing claim).
* DynamicResources (filter and score): ``spec.resourceClaims``. Extended resources backed by a
  DeviceClass (DRAExtendedResource) need the DeviceClasses, which are not read.

A score plugin changes nothing when at most one node is feasible (kube-scheduler then skips scoring), so
scores are named only when ``scored`` is true. Pure Python: both explain and the webhook use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from linter.model import Profile

__all__ = [
    "PREFERRED_TERMS",
    "REQUIRED_AFFINITY",
    "REQUIRED_ANTI_AFFINITY",
    "AffinityCounts",
    "AffinityTally",
    "affinity_flags",
    "plugins_for_pod",
]

# affinity_flags bits: what a bound pod's own terms make the InterPodAffinity plugin do for other pods
REQUIRED_ANTI_AFFINITY = 1  # filter (existing pods' anti-affinity is symmetric)
PREFERRED_TERMS = 2  # score: preferred podAffinity or podAntiAffinity terms
REQUIRED_AFFINITY = 4  # score, weighted by hardPodAffinityWeight

# kube-scheduler 1.36's default profile filters (what Profile.filter_plugins None stands for)
_DEFAULT_FILTERS = frozenset({
    "NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts", "NodeResourcesFit",
    "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread",
    "InterPodAffinity", "DynamicResources", "NodeDeclaredFeatures",
})
# volume sources csi-translation-lib can migrate (IsInlineMigratable): NodeVolumeLimits counts them
_MIGRATABLE_INLINE = ("gcePersistentDisk", "awsElasticBlockStore", "azureDisk", "azureFile", "cinder",
                      "vsphereVolume", "portworxVolume")
_RESTRICTED_INLINE = ("gcePersistentDisk", "awsElasticBlockStore", "rbd", "iscsi")  # needsRestrictionsCheck
_COUNTED_SOURCES = frozenset({"persistentVolumeClaim", "ephemeral", *_MIGRATABLE_INLINE, *_RESTRICTED_INLINE})
# DefaultSelector's controller kinds (apiVersion, kind)
_SPREAD_OWNERS = frozenset({("v1", "ReplicationController"), ("apps/v1", "ReplicaSet"), ("apps/v1", "StatefulSet")})


@dataclass(frozen=True)
class AffinityCounts:
    """Bound pods (counted on a node) whose terms make InterPodAffinity act on other pods."""

    required_anti_affinity: int = 0
    preferred_terms: int = 0
    required_affinity: int = 0

    @classmethod
    def of(cls, pods_by_flags: Mapping[int, int]) -> AffinityCounts:
        """From the number of bound pods with each :func:`affinity_flags` value."""
        bits = (REQUIRED_ANTI_AFFINITY, PREFERRED_TERMS, REQUIRED_AFFINITY)
        return cls(*(sum(n for flags, n in pods_by_flags.items() if flags & bit) for bit in bits))


class AffinityTally:
    """:class:`AffinityCounts` kept up to date pod by pod: ``put`` on every add or update of a bound pod,
    ``drop`` when it stops counting; O(1) each, and only pods with some flag are remembered."""

    def __init__(self) -> None:
        self._flags: dict[tuple[str, str], int] = {}
        self._counts = [0, 0, 0]

    def put(self, key: tuple[str, str], flags: int) -> None:
        old = self._flags.get(key, 0)
        if old == flags:
            return
        self._move(old, -1)
        self._move(flags, 1)
        if flags:
            self._flags[key] = flags
        else:
            del self._flags[key]

    def drop(self, key: tuple[str, str]) -> None:
        self._move(self._flags.pop(key, 0), -1)

    def _move(self, flags: int, step: int) -> None:
        for i, bit in enumerate((REQUIRED_ANTI_AFFINITY, PREFERRED_TERMS, REQUIRED_AFFINITY)):
            if flags & bit:
                self._counts[i] += step

    def counts(self) -> AffinityCounts:
        return AffinityCounts(*self._counts)


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _has_terms(section: Mapping[str, Any], kind: str) -> bool:
    terms = section.get(f"{kind}DuringSchedulingIgnoredDuringExecution")
    return isinstance(terms, list) and bool(terms)


def affinity_flags(pod: Mapping[str, Any]) -> int:
    """The :data:`REQUIRED_ANTI_AFFINITY` / :data:`PREFERRED_TERMS` / :data:`REQUIRED_AFFINITY` bits of ``pod``."""
    affinity = _mapping(_mapping(pod.get("spec")).get("affinity"))
    if not affinity:
        return 0
    pod_affinity, anti = _mapping(affinity.get("podAffinity")), _mapping(affinity.get("podAntiAffinity"))
    flags = REQUIRED_ANTI_AFFINITY if _has_terms(anti, "required") else 0
    if _has_terms(pod_affinity, "preferred") or _has_terms(anti, "preferred"):
        flags |= PREFERRED_TERMS
    if _has_terms(pod_affinity, "required"):
        flags |= REQUIRED_AFFINITY
    return flags


def _spread_owner(pod: Mapping[str, Any]) -> str | None:
    """The controller owner's kind when DefaultSelector reads it (GetControllerOf: the first reference with
    ``controller: true``)."""
    refs = _mapping(pod.get("metadata")).get("ownerReferences")
    for ref in refs if isinstance(refs, list) else ():
        if isinstance(ref, Mapping) and ref.get("controller") is True:
            found = (ref.get("apiVersion"), ref.get("kind"))
            return str(found[1]) if found in _SPREAD_OWNERS else None
    return None


def _spread(pod: Mapping[str, Any], spec: Mapping[str, Any], profile: Profile, action: str) -> str | None:
    constraints = spec.get("topologySpreadConstraints")
    if isinstance(constraints, list) and constraints:
        own = sum(1 for c in constraints if isinstance(c, Mapping) and c.get("whenUnsatisfiable") == action)
        return f"{own} {action} topologySpreadConstraints" if own else None
    defaults = sum(1 for a in profile.spread_default_actions if a == action)
    owner = _spread_owner(pod) if defaults else None
    if owner is None:
        return None
    how = "the system default" if profile.spread_system_defaulted else f"{defaults} default {action}"
    return f"{how} spreading constraints, with the selector of its {owner} owner"


def _volumes(spec: Mapping[str, Any]) -> dict[str, int]:
    counts = {"persistentVolumeClaim": 0, "ephemeral": 0, "migratable": 0, "restricted": 0}
    volumes = spec.get("volumes")
    for volume in volumes if isinstance(volumes, list) else ():
        if not isinstance(volume, Mapping) or _COUNTED_SOURCES.isdisjoint(volume):
            continue  # the usual volume (a projected token, a configMap, an emptyDir): none of these sources
        for source in ("persistentVolumeClaim", "ephemeral"):
            counts[source] += volume.get(source) is not None
        counts["migratable"] += any(volume.get(s) is not None for s in _MIGRATABLE_INLINE)
        counts["restricted"] += any(volume.get(s) is not None for s in _RESTRICTED_INLINE)
    return counts


def _filters(pod: Mapping[str, Any], spec: Mapping[str, Any], profile: Profile, counts: AffinityCounts, own: int
             ) -> dict[str, str]:
    anti = bool(own & REQUIRED_ANTI_AFFINITY)
    out: dict[str, str] = {}
    if own & REQUIRED_AFFINITY or anti:
        out["InterPodAffinity"] = "the pod has required pod " + (
            "affinity and anti-affinity terms" if own & REQUIRED_AFFINITY and anti
            else "affinity terms" if own & REQUIRED_AFFINITY else "anti-affinity terms")
    elif counts.required_anti_affinity:
        out["InterPodAffinity"] = (f"{counts.required_anti_affinity} bound pod(s) have required pod anti-affinity "
                                   "terms, which keep this pod off their topology domains if they match it")
    spread = _spread(pod, spec, profile, "DoNotSchedule")
    if spread:
        out["PodTopologySpread"] = spread
    vols = _volumes(spec)
    claims, ephemeral = vols["persistentVolumeClaim"], vols["ephemeral"]
    if claims or ephemeral:
        out["VolumeBinding"] = f"{claims} persistentVolumeClaim and {ephemeral} ephemeral volume(s)"
    if claims:
        out["VolumeZone"] = f"{claims} persistentVolumeClaim volume(s): their PersistentVolumes' zone labels"
    if claims or ephemeral or vols["migratable"]:
        out["NodeVolumeLimits"] = "volumes that count against the nodes' CSI attach limits"
    if vols["restricted"]:
        out["VolumeRestrictions"] = "inline gcePersistentDisk, awsElasticBlockStore, rbd or iscsi volume(s)"
    elif claims:
        out["VolumeRestrictions"] = "persistentVolumeClaim volume(s): ReadWriteOncePod claims in use elsewhere"
    resource_claims = spec.get("resourceClaims")
    if isinstance(resource_claims, list) and resource_claims:
        out["DynamicResources"] = f"{len(resource_claims)} spec.resourceClaims"
    return out


def _scores(pod: Mapping[str, Any], spec: Mapping[str, Any], profile: Profile, counts: AffinityCounts, own: int
            ) -> dict[str, str]:
    out: dict[str, str] = {}
    spread = _spread(pod, spec, profile, "ScheduleAnyway")
    if spread:
        out["PodTopologySpread"] = spread
    if own & PREFERRED_TERMS:
        out["InterPodAffinity"] = "the pod has preferred pod affinity or anti-affinity terms"
    elif not profile.interpod_ignore_existing_preferred:
        existing = counts.preferred_terms + (counts.required_affinity if profile.interpod_hard_affinity_weight else 0)
        if existing:
            out["InterPodAffinity"] = (f"{existing} bound pod(s) have pod affinity terms that score this pod "
                                       "if they match it")
    resource_claims = spec.get("resourceClaims")
    if isinstance(resource_claims, list) and resource_claims:
        out["DynamicResources"] = f"{len(resource_claims)} spec.resourceClaims"
    return out


def plugins_for_pod(pod: Mapping[str, Any], profile: Profile, counts: AffinityCounts, *, scored: bool,
                    modelled: frozenset[str] = frozenset()) -> dict[str, dict[str, str]]:
    """``{"filters": {plugin: why}, "scores": {plugin: why}}`` for the unmodelled plugins that act on
    ``pod`` under ``profile`` (each part only when not empty; ``{}`` when none acts). ``counts``: the
    cluster's bound pods; ``scored``: more than one node is feasible, so kube-scheduler runs its scores;
    ``modelled``: the plugins the caller computes, left out of both parts (explain: PodTopologySpread and
    InterPodAffinity; the webhook: none)."""
    spec = _mapping(pod.get("spec"))
    enabled = _DEFAULT_FILTERS if profile.filter_plugins is None else frozenset(profile.filter_plugins)
    own = affinity_flags(pod)
    out: dict[str, dict[str, str]] = {}
    filters = {n: why for n, why in _filters(pod, spec, profile, counts, own).items()
               if n in enabled and n not in modelled}
    if filters:
        out["filters"] = filters
    if scored:
        scores = {n: why for n, why in _scores(pod, spec, profile, counts, own).items()
                  if n in profile.score_plugin_weights and n not in modelled}
        if scores:
            out["scores"] = scores
    return out
