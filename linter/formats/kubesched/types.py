"""The Go types of KubeSchedulerConfiguration v1 and its plugin args, as a data table.

The strict decoder walks a document against these descriptions. Each entry carries what
encoding/json needs to word its errors exactly: the Go type text (``int32``, ``[]v1.Plugin``,
``v1.Plugins``) and, for structs, the struct name used in ``Go struct field <Struct>.<path>``.
Field names are the JSON names and are matched case-sensitively, as the scheduler's decoder
(sigs.k8s.io/json) does.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class GoType:
    kind: str  # int | uint | float | bool | string | struct | slice | map | duration | quantity | raw | bytes
    go: str  # reflect Type.String() of the (dereferenced) type
    bits: int = 0
    name: str = ""  # struct name (Type.Name())
    fields: dict[str, GoType] = field(default_factory=dict)
    elem: GoType | None = None


def _s(go: str, fields: dict[str, GoType]) -> GoType:
    return GoType("struct", go, name=go.rpartition(".")[2], fields=fields)


def _slice(elem: GoType) -> GoType:
    return GoType("slice", "[]" + elem.go, elem=elem)


INT32 = GoType("int", "int32", 32)
INT64 = GoType("int", "int64", 64)
FLOAT32 = GoType("float", "float32", 32)
BOOL = GoType("bool", "bool")
STRING = GoType("string", "string")
UINT8 = GoType("int", "uint8", 8)
BYTES = GoType("bytes", "[]uint8", elem=UINT8)  # a base64 string, or a JSON array of uint8 numbers
DURATION = GoType("duration", "v1.Duration")
RAW = GoType("raw", "runtime.RawExtension")
STRINGS = _slice(STRING)
STRING_MAP = GoType("map", "map[string]string", elem=STRING)

TYPE_META = {"apiVersion": STRING, "kind": STRING}

PLUGIN = _s("v1.Plugin", {"name": STRING, "weight": INT32})
PLUGIN_SET = _s("v1.PluginSet", {"enabled": _slice(PLUGIN), "disabled": _slice(PLUGIN)})
EXTENSION_POINTS = ("preEnqueue", "queueSort", "preFilter", "filter", "postFilter", "preScore", "score",
                    "reserve", "permit", "preBind", "bind", "postBind", "multiPoint", "placementGenerate",
                    "placementScore")
PLUGINS = _s("v1.Plugins", {ep: PLUGIN_SET for ep in EXTENSION_POINTS})
PLUGIN_CONFIG = _s("v1.PluginConfig", {"name": STRING, "args": RAW})
PROFILE = _s("v1.KubeSchedulerProfile", {
    "schedulerName": STRING, "percentageOfNodesToScore": INT32, "plugins": PLUGINS,
    "pluginConfig": _slice(PLUGIN_CONFIG)})
TLS = _s("v1.ExtenderTLSConfig", {
    "insecure": BOOL, "serverName": STRING, "certFile": STRING, "keyFile": STRING, "caFile": STRING,
    "certData": BYTES, "keyData": BYTES, "caData": BYTES})
MANAGED = _s("v1.ExtenderManagedResource", {"name": STRING, "ignoredByScheduler": BOOL})
EXTENDER = _s("v1.Extender", {
    "urlPrefix": STRING, "filterVerb": STRING, "preemptVerb": STRING, "prioritizeVerb": STRING,
    "weight": INT64, "bindVerb": STRING, "enableHTTPS": BOOL, "tlsConfig": TLS, "httpTimeout": DURATION,
    "nodeCacheCapable": BOOL, "managedResources": _slice(MANAGED), "ignorable": BOOL})
LEADER_ELECTION = _s("v1alpha1.LeaderElectionConfiguration", {
    "leaderElect": BOOL, "leaseDuration": DURATION, "renewDeadline": DURATION, "retryPeriod": DURATION,
    "resourceLock": STRING, "resourceName": STRING, "resourceNamespace": STRING})
CLIENT_CONNECTION = _s("v1alpha1.ClientConnectionConfiguration", {
    "kubeconfig": STRING, "acceptContentTypes": STRING, "contentType": STRING, "qps": FLOAT32, "burst": INT32})


def _configuration(profile: GoType) -> GoType:
    return _s("v1.KubeSchedulerConfiguration", {
        **TYPE_META, "parallelism": INT32, "leaderElection": LEADER_ELECTION, "clientConnection": CLIENT_CONNECTION,
        "enableProfiling": BOOL, "enableContentionProfiling": BOOL, "percentageOfNodesToScore": INT32,
        "podInitialBackoffSeconds": INT64, "podMaxBackoffSeconds": INT64, "profiles": _slice(profile),
        "extenders": _slice(EXTENDER), "delayCacheUntilActive": BOOL})


CONFIGURATION = _configuration(PROFILE)
# k8s.io/kube-scheduler v0.35 (what a Kubernetes 1.35 build decodes with): its v1.Plugins has no
# placementGenerate/placementScore, which 1.36 added, so a 1.35 binary rejects them as unknown fields.
PLUGINS_1_35 = _s("v1.Plugins", {ep: PLUGIN_SET for ep in EXTENSION_POINTS if not ep.startswith("placement")})
CONFIGURATION_1_35 = _configuration(_s("v1.KubeSchedulerProfile", {**PROFILE.fields, "plugins": PLUGINS_1_35}))

# --- plugin args -----------------------------------------------------------------------------

RESOURCE_SPEC = _s("v1.ResourceSpec", {"name": STRING, "weight": INT64})
SHAPE_POINT = _s("v1.UtilizationShapePoint", {"utilization": INT32, "score": INT32})
SCORING_STRATEGY = _s("v1.ScoringStrategy", {
    "type": GoType("string", "v1.ScoringStrategyType"), "resources": _slice(RESOURCE_SPEC),
    "requestedToCapacityRatio": _s("v1.RequestedToCapacityRatioParam", {"shape": _slice(SHAPE_POINT)})})
_REQUIREMENT = _s("v1.NodeSelectorRequirement", {
    "key": STRING, "operator": GoType("string", "v1.NodeSelectorOperator"), "values": STRINGS})
_TERM = _s("v1.NodeSelectorTerm", {"matchExpressions": _slice(_REQUIREMENT), "matchFields": _slice(_REQUIREMENT)})
NODE_AFFINITY = _s("v1.NodeAffinity", {
    "requiredDuringSchedulingIgnoredDuringExecution": _s("v1.NodeSelector", {"nodeSelectorTerms": _slice(_TERM)}),
    "preferredDuringSchedulingIgnoredDuringExecution": _slice(
        _s("v1.PreferredSchedulingTerm", {"weight": INT32, "preference": _TERM}))})
LABEL_SELECTOR = _s("v1.LabelSelector", {
    "matchLabels": STRING_MAP,
    "matchExpressions": _slice(_s("v1.LabelSelectorRequirement", {
        "key": STRING, "operator": GoType("string", "v1.LabelSelectorOperator"), "values": STRINGS}))})
SPREAD_CONSTRAINT = _s("v1.TopologySpreadConstraint", {
    "maxSkew": INT32, "topologyKey": STRING, "whenUnsatisfiable": GoType("string", "v1.UnsatisfiableConstraintAction"),
    "labelSelector": LABEL_SELECTOR, "minDomains": INT32,
    "nodeAffinityPolicy": GoType("string", "v1.NodeInclusionPolicy"),
    "nodeTaintsPolicy": GoType("string", "v1.NodeInclusionPolicy"), "matchLabelKeys": STRINGS})

ARGS_TYPES: dict[str, GoType] = {
    "DefaultPreemption": _s("v1.DefaultPreemptionArgs", {
        **TYPE_META, "minCandidateNodesPercentage": INT32, "minCandidateNodesAbsolute": INT32}),
    "InterPodAffinity": _s("v1.InterPodAffinityArgs", {
        **TYPE_META, "hardPodAffinityWeight": INT32, "ignorePreferredTermsOfExistingPods": BOOL}),
    "NodeResourcesFit": _s("v1.NodeResourcesFitArgs", {
        **TYPE_META, "ignoredResources": STRINGS, "ignoredResourceGroups": STRINGS,
        "scoringStrategy": SCORING_STRATEGY}),
    "PodTopologySpread": _s("v1.PodTopologySpreadArgs", {
        **TYPE_META, "defaultConstraints": _slice(SPREAD_CONSTRAINT),
        "defaultingType": GoType("string", "v1.PodTopologySpreadConstraintsDefaulting")}),
    "NodeResourcesBalancedAllocation": _s("v1.NodeResourcesBalancedAllocationArgs", {
        **TYPE_META, "resources": _slice(RESOURCE_SPEC)}),
    "VolumeBinding": _s("v1.VolumeBindingArgs", {
        **TYPE_META, "bindTimeoutSeconds": INT64, "shape": _slice(SHAPE_POINT)}),
    "NodeAffinity": _s("v1.NodeAffinityArgs", {**TYPE_META, "addedAffinity": NODE_AFFINITY}),
    "DynamicResources": _s("v1.DynamicResourcesArgs", {
        **TYPE_META, "filterTimeout": DURATION, "bindingTimeout": DURATION}),
}
