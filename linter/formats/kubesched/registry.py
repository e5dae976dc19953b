"""Facts about kube-scheduler 1.36's plugins and API versions (no logic).

* ``PLUGINS``: every in-tree plugin name -> the extension points it implements
  (None = registered but its points are not modelled, so it is never reported).
* ``DEFAULT_MULTI_POINT``: the v1 default multiPoint set with weights (default feature gates).
* ``PLUGINS_1_35``, ``DEFAULT_MULTI_POINT_1_35``: the same for a binary built with Kubernetes 1.35.
* ``EXTENSION_ORDER``: the order in which the framework fills extension points (errors name
  the first failing one) and the Go interface name used in its messages.
* ``REMOVED_PLUGINS_V1``: names validation rejects (``was invalid in version "v1"``).
* ``REMOVED_VERSIONS``: scheduler config apiVersions no longer served, with the release that
  removed them.
"""

from __future__ import annotations

_FILTERISH = frozenset({"preFilter", "filter"})
_SCORER = frozenset({"preFilter", "filter", "preScore", "score"})

PLUGINS: dict[str, frozenset[str] | None] = {
    "SchedulingGates": frozenset({"preEnqueue"}),
    "PrioritySort": frozenset({"queueSort"}),
    "NodeUnschedulable": frozenset({"filter"}),
    "NodeName": frozenset({"filter"}),
    "TaintToleration": frozenset({"filter", "preScore", "score"}),
    "NodeAffinity": _SCORER,
    "NodePorts": _FILTERISH,
    "NodeResourcesFit": _SCORER,
    "VolumeRestrictions": _FILTERISH,
    "NodeVolumeLimits": _FILTERISH,
    "VolumeBinding": frozenset({"preFilter", "filter", "reserve", "preBind", "preScore", "score"}),
    "VolumeZone": _FILTERISH,
    "PodTopologySpread": _SCORER,
    "InterPodAffinity": _SCORER,
    "DefaultPreemption": frozenset({"postFilter", "preEnqueue"}),
    "NodeResourcesBalancedAllocation": frozenset({"preScore", "score"}),
    "ImageLocality": frozenset({"score"}),
    "DefaultBinder": frozenset({"bind"}),
    "DynamicResources": frozenset({"preEnqueue", "preFilter", "filter", "postFilter", "preScore", "score",
                                   "reserve", "preBind"}),
    "NodeDeclaredFeatures": _FILTERISH,
    "GangScheduling": None,
    "TopologyPlacement": None,
    "PodGroupPodsCount": None,
}

DEFAULT_MULTI_POINT: tuple[tuple[str, int | None], ...] = (
    ("SchedulingGates", None), ("PrioritySort", None), ("NodeUnschedulable", None), ("NodeName", None),
    ("TaintToleration", 3), ("NodeAffinity", 2), ("NodePorts", None), ("NodeResourcesFit", 1),
    ("VolumeRestrictions", None), ("NodeVolumeLimits", None), ("VolumeBinding", None), ("VolumeZone", None),
    ("PodTopologySpread", 2), ("InterPodAffinity", 2), ("DynamicResources", 2), ("DefaultPreemption", None),
    ("NodeResourcesBalancedAllocation", 1), ("ImageLocality", 1), ("DefaultBinder", None),
    ("NodeDeclaredFeatures", None),
)

# Kubernetes 1.35 (what the scheduler-plugins build is compiled with), where it differs from 1.36 with
# default feature gates: NodeDeclaredFeatures is alpha (off), so the default set lacks it; the
# placement plugins of TopologyAwareWorkloadScheduling (alpha in 1.36) are not registered at all.
PLUGINS_1_35: dict[str, frozenset[str] | None] = {
    n: points for n, points in PLUGINS.items() if n not in ("TopologyPlacement", "PodGroupPodsCount")}
DEFAULT_MULTI_POINT_1_35 = tuple((n, w) for n, w in DEFAULT_MULTI_POINT if n != "NodeDeclaredFeatures")

# (extension point key, Go interface name) in the order NewFramework fills them.
EXTENSION_ORDER: tuple[tuple[str, str], ...] = (
    ("preFilter", "PreFilterPlugin"), ("filter", "FilterPlugin"), ("postFilter", "PostFilterPlugin"),
    ("reserve", "ReservePlugin"), ("preScore", "PreScorePlugin"), ("score", "ScorePlugin"),
    ("preBind", "PreBindPlugin"), ("bind", "BindPlugin"), ("postBind", "PostBindPlugin"),
    ("permit", "PermitPlugin"), ("preEnqueue", "PreEnqueuePlugin"), ("queueSort", "QueueSortPlugin"),
    ("placementGenerate", "PlacementGeneratePlugin"), ("placementScore", "PlacementScorePlugin"),
)
# Points whose implementers are not modelled: only unknown names are reported there.
UNMODELLED_POINTS = frozenset({"placementGenerate", "placementScore"})
# Extension points validation checks for removed plugin names (multiPoint and placement* are not).
VALIDATED_POINTS = ("preEnqueue", "queueSort", "preFilter", "filter", "postFilter", "preScore", "score",
                    "reserve", "permit", "preBind", "bind", "postBind")

REMOVED_PLUGINS_V1 = ("AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits")

GROUP = "kubescheduler.config.k8s.io"
V1 = f"{GROUP}/v1"

# apiVersion -> (served in, removed in)
REMOVED_VERSIONS: dict[str, tuple[str, str]] = {
    "componentconfig/v1alpha1": ("up to 1.11", "1.12"),
    f"{GROUP}/v1alpha1": ("1.12-1.18", "1.19"),
    f"{GROUP}/v1alpha2": ("1.18", "1.19"),
    f"{GROUP}/v1beta1": ("1.19-1.22", "1.23"),
    f"{GROUP}/v1beta2": ("1.22-1.27", "1.28"),
    f"{GROUP}/v1beta3": ("1.23-1.28", "1.29"),
}

# Score plugins that existed before v1beta2 folded them into NodeResourcesFit.scoringStrategy.
LEGACY_SCORE_PLUGINS = {
    "NodeResourcesLeastAllocated": "LeastAllocated",
    "NodeResourcesMostAllocated": "MostAllocated",
    "RequestedToCapacityRatio": "RequestedToCapacityRatio",
}
# Other plugin names that were dropped over the beta versions.
DROPPED_PLUGINS = ("NodeLabel", "ServiceAffinity", "NodePreferAvoidPods", "SelectorSpread", "NodeResourceLimits")
