"""Facts the migration relies on, per removed scheduler-config version and for the legacy Policy (no logic).

Sources: reference/config.md §3 and §6, and the Kubernetes sources of the releases that served
each version (1.12-1.28); the Policy tables follow 1.22's ``legacy_registry.go`` and
``factory.go`` (the last release that turned a Policy into a scheduler profile).

Shape scores: every version that has a ``shape`` (v1alpha1 ... v1 and the Policy) writes
scores on 0..10, and since 1.18 the plugin multiplies them by 10 (``MaxNodeScore /
MaxCustomPriorityScore``), as 1.36 does: shapes carry over unchanged.
"""

from __future__ import annotations

GROUP = "kubescheduler.config.k8s.io"
V1 = f"{GROUP}/v1"
KIND = "KubeSchedulerConfiguration"

# apiVersion -> short name used in notes
OLD_VERSIONS = {
    "componentconfig/v1alpha1": "componentconfig/v1alpha1",
    f"{GROUP}/v1alpha1": "v1alpha1",
    f"{GROUP}/v1alpha2": "v1alpha2",
    f"{GROUP}/v1beta1": "v1beta1",
    f"{GROUP}/v1beta2": "v1beta2",
    f"{GROUP}/v1beta3": "v1beta3",
}
# Default score weights that differ from v1's, per version: v1beta3 raised TaintToleration to 3 and
# NodeAffinity/InterPodAffinity to 2; PodTopologySpread (EvenPodsSpread) scored with 1 until 1.19 made it 2.
# The migration keeps the weights these files really ran with.
_BETA_WEIGHTS = {"TaintToleration": 1, "NodeAffinity": 1, "InterPodAffinity": 1}
_ALPHA_WEIGHTS = {**_BETA_WEIGHTS, "PodTopologySpread": 1}
OLD_DEFAULT_WEIGHTS: dict[str, dict[str, int]] = {
    "componentconfig/v1alpha1": _ALPHA_WEIGHTS,
    f"{GROUP}/v1alpha1": _ALPHA_WEIGHTS,
    f"{GROUP}/v1alpha2": _ALPHA_WEIGHTS,
    f"{GROUP}/v1beta1": _BETA_WEIGHTS,
    f"{GROUP}/v1beta2": _BETA_WEIGHTS,
}
PRE_V1BETA3 = frozenset(OLD_DEFAULT_WEIGHTS)
V1_DEFAULT_WEIGHTS = {"TaintToleration": 3, "NodeAffinity": 2, "InterPodAffinity": 2, "PodTopologySpread": 2}

# Top-level fields v1 no longer has, with the reason given in the output.
DROPPED_TOP_LEVEL = {
    "healthzBindAddress": "removed in v1beta3: kube-scheduler serves /healthz on --secure-port (see --bind-address)",
    "metricsBindAddress": "removed in v1beta3: kube-scheduler serves /metrics on --secure-port (see --bind-address)",
    "failureDomains": "removed in v1alpha2: unused since the SelectorSpread priority stopped reading it",
    "algorithmSource": "removed in v1beta1 (1.19): the default plugins are the DefaultProvider",
}

# Leader-election field renames (v1alpha1 spelled them lockObject*).
LEADER_ELECTION_RENAMES = {"lockObjectName": "resourceName", "lockObjectNamespace": "resourceNamespace"}

# Extension points that were renamed or folded.
POINT_RENAMES_V1ALPHA1 = {"postFilter": "preScore"}  # v1alpha1's postFilter ran where preScore runs now
FOLDED_POINTS = {"unreserve": "reserve"}  # v1beta1 made Unreserve part of every Reserve plugin
DROPPED_POINTS = {"normalizeScore": "removed in v1alpha2: score plugins normalise their own scores"}

# Score plugins folded into NodeResourcesFit.scoringStrategy in v1beta2 -> strategy type.
FOLDED_SCORE_PLUGINS = {
    "NodeResourcesLeastAllocated": "LeastAllocated",
    "NodeResourcesMostAllocated": "MostAllocated",
    "RequestedToCapacityRatio": "RequestedToCapacityRatio",
}
FIT = "NodeResourcesFit"

# Plugins removed without a v1 successor; value: (scoring kept?, why).
REMOVED_PLUGINS = {
    "SelectorSpread": (True, "removed in 1.26; PodTopologySpread with its default system constraints "
                             "(enabled by default in v1) spreads the same way"),
    "NodePreferAvoidPods": (True, "removed in 1.24 together with the preferAvoidPods node annotation"),
    "NodeLabel": (False, "removed in v1beta3 (1.23) with no successor; use node affinity in the pods"),
    "ServiceAffinity": (False, "removed in v1beta3 (1.23) with no successor; use pod affinity in the pods"),
    "NodeResourceLimits": (False, "removed in 1.19 with no successor"),
    "AzureDiskLimits": (True, "folded into NodeVolumeLimits (CSI migration), which v1 enables by default"),
    "CinderLimits": (True, "folded into NodeVolumeLimits (CSI migration), which v1 enables by default"),
    "EBSLimits": (True, "folded into NodeVolumeLimits (CSI migration), which v1 enables by default"),
    "GCEPDLimits": (True, "folded into NodeVolumeLimits (CSI migration), which v1 enables by default"),
}

# Typed plugin args kinds that v1 still has (their apiVersion is rewritten to v1).
V1_ARGS_KINDS = frozenset({
    "DefaultPreemptionArgs", "InterPodAffinityArgs", "NodeAffinityArgs", "NodeResourcesBalancedAllocationArgs",
    "NodeResourcesFitArgs", "PodTopologySpreadArgs", "VolumeBindingArgs", "DynamicResourcesArgs",
})

# v1 1.36 default score plugins, and default filter plugins that already existed in 1.22.
V1_DEFAULT_SCORE = ("TaintToleration", "NodeAffinity", "NodeResourcesFit", "PodTopologySpread", "InterPodAffinity",
                    "NodeResourcesBalancedAllocation", "ImageLocality")
V1_DEFAULT_FILTER_1_22 = ("NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts",
                          FIT, "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone",
                          "PodTopologySpread", "InterPodAffinity")

# --- legacy Policy (1.22) -----------------------------------------------------------------

# Predicate -> v1 filter plugins (1.22 producers; the cloud volume limits are NodeVolumeLimits in v1).
PREDICATE_PLUGINS: dict[str, tuple[str, ...]] = {
    "GeneralPredicates": (FIT, "NodeName", "NodePorts", "NodeAffinity"),
    "PodToleratesNodeTaints": ("TaintToleration",),
    "PodFitsResources": (FIT,),
    "HostName": ("NodeName",),
    "PodFitsHostPorts": ("NodePorts",),
    "PodFitsPorts": ("NodePorts",),
    "MatchNodeSelector": ("NodeAffinity",),
    "CheckNodeUnschedulable": ("NodeUnschedulable",),
    "CheckVolumeBinding": ("VolumeBinding",),
    "NoDiskConflict": ("VolumeRestrictions",),
    "NoVolumeZoneConflict": ("VolumeZone",),
    "MaxCSIVolumeCountPred": ("NodeVolumeLimits",),
    "MaxEBSVolumeCount": ("NodeVolumeLimits",),
    "MaxGCEPDVolumeCount": ("NodeVolumeLimits",),
    "MaxAzureDiskVolumeCount": ("NodeVolumeLimits",),
    "MaxCinderVolumeCount": ("NodeVolumeLimits",),
    "MatchInterPodAffinity": ("InterPodAffinity",),
    "EvenPodsSpread": ("PodTopologySpread",),
}
MANDATORY_PREDICATES = ("PodToleratesNodeTaints", "CheckNodeUnschedulable")
# Predicates older releases had that became node taints (TaintNodesByCondition): TaintToleration covers them.
TAINT_PREDICATES = frozenset({"CheckNodeMemoryPressure", "CheckNodeDiskPressure", "CheckNodePIDPressure",
                              "CheckNodeCondition"})

# Priority -> v1 score plugin (1.22 producers, with the DefaultPodTopologySpread gate on as it was by default).
PRIORITY_PLUGINS: dict[str, str] = {
    "SelectorSpreadPriority": "PodTopologySpread",
    "ServiceSpreadingPriority": "PodTopologySpread",
    "EvenPodsSpreadPriority": "PodTopologySpread",
    "TaintTolerationPriority": "TaintToleration",
    "NodeAffinityPriority": "NodeAffinity",
    "ImageLocalityPriority": "ImageLocality",
    "InterPodAffinityPriority": "InterPodAffinity",
    "BalancedResourceAllocation": "NodeResourcesBalancedAllocation",
    "LeastRequestedPriority": FIT,
    "MostRequestedPriority": FIT,
}
PRIORITY_STRATEGIES = {"LeastRequestedPriority": "LeastAllocated", "MostRequestedPriority": "MostAllocated"}
# 1.22's default priorities (used when "priorities" is absent).
DEFAULT_PRIORITIES: dict[str, int] = {
    "SelectorSpreadPriority": 1, "InterPodAffinityPriority": 1, "LeastRequestedPriority": 1,
    "BalancedResourceAllocation": 1, "NodePreferAvoidPodsPriority": 10000, "NodeAffinityPriority": 1,
    "TaintTolerationPriority": 1, "ImageLocalityPriority": 1, "EvenPodsSpreadPriority": 2,
}
POLICY_CONFIGMAP_KEY = "policy.cfg"
V1_CONFIGMAP_KEY = "scheduler-config.yaml"
