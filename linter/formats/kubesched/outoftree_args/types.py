"""The v1 Go types of scheduler-plugins' args (``apis/config/v1/types.go``), as a data table.

Same shape as ``linter.formats.kubesched.types``: the strict decoder walks args against these.
The embedded ``TrimaranSpec`` is promoted into the args (encoding/json does that for embedded
structs), so ``metricProvider`` and ``watcherAddress`` sit at the top of the trimaran args.
``PeaksArgs`` has malformed json tags in its source, so encoding/json falls back to the Go
field names: its keys are ``WatcherAddress`` and ``NodePowerModel`` (matched case-sensitively).
Quantities (``defaultRequests`` values) are ``resource.Quantity``: a value it cannot parse stops the
decoding with ``ParseQuantity``'s own error.
"""

from __future__ import annotations

from linter.formats.kubesched.types import BOOL, INT32, INT64, RESOURCE_SPEC, STRING, STRINGS, TYPE_META, GoType

FLOAT64 = GoType("float", "float64", 64)


def _s(go: str, fields: dict[str, GoType]) -> GoType:
    return GoType("struct", go, name=go.rpartition(".")[2], fields=fields)


def _enum(go: str) -> GoType:
    return GoType("string", go)


_RESOURCES = GoType("slice", "[]" + RESOURCE_SPEC.go, elem=RESOURCE_SPEC)
_METRIC_PROVIDER = _s("v1.MetricProviderSpec", {
    "type": _enum("v1.MetricProviderType"), "address": STRING, "token": STRING, "insecureSkipVerify": BOOL})
_TRIMARAN = {"metricProvider": _METRIC_PROVIDER, "watcherAddress": STRING}
_NRT_STRATEGY = _s("v1.ScoringStrategy", {"type": _enum("v1.ScoringStrategyType"), "resources": _RESOURCES})
_NRT_CACHE = _s("v1.NodeResourceTopologyCache", {
    "foreignPodsDetect": _enum("v1.ForeignPodsDetectMode"), "resyncMethod": _enum("v1.CacheResyncMethod"),
    "informerMode": _enum("v1.CacheInformerMode"), "resyncScope": _enum("v1.CacheResyncScope")})
_POWER_MODEL = _s("v1.PowerModel", {"k0": FLOAT64, "k1": FLOAT64, "k2": FLOAT64})

ARGS_TYPES: dict[str, GoType] = {
    "Coscheduling": _s("v1.CoschedulingArgs", {
        **TYPE_META, "permitWaitingTimeSeconds": INT64, "podGroupBackoffSeconds": INT64,
        "podGroupRejectPercentage": INT32}),
    "NodeResourcesAllocatable": _s("v1.NodeResourcesAllocatableArgs", {
        **TYPE_META, "resources": _RESOURCES, "mode": _enum("v1.ModeType")}),
    "TargetLoadPacking": _s("v1.TargetLoadPackingArgs", {
        **TYPE_META, **_TRIMARAN,
        "defaultRequests": GoType("map", "v1.ResourceList", elem=GoType("quantity", "resource.Quantity")),
        "defaultRequestsMultiplier": STRING, "targetUtilization": INT64}),
    "LoadVariationRiskBalancing": _s("v1.LoadVariationRiskBalancingArgs", {
        **TYPE_META, **_TRIMARAN, "safeVarianceMargin": FLOAT64, "safeVarianceSensitivity": FLOAT64}),
    "LowRiskOverCommitment": _s("v1.LowRiskOverCommitmentArgs", {
        **TYPE_META, **_TRIMARAN, "smoothingWindowSize": INT64,
        "riskLimitWeights": GoType("map", "map[v1.ResourceName]float64", elem=FLOAT64)}),
    "NodeResourceTopologyMatch": _s("v1.NodeResourceTopologyMatchArgs", {
        **TYPE_META, "scoringStrategy": _NRT_STRATEGY, "cacheResyncPeriodSeconds": INT64,
        "discardReservedNodes": BOOL, "cache": _NRT_CACHE, "preemptionMode": _enum("v1.PreemptionMode")}),
    "PreemptionToleration": _s("v1.PreemptionTolerationArgs", {
        **TYPE_META, "minCandidateNodesPercentage": INT32, "minCandidateNodesAbsolute": INT32}),
    "TopologicalSort": _s("v1.TopologicalSortArgs", {**TYPE_META, "namespaces": STRINGS}),
    "NetworkOverhead": _s("v1.NetworkOverheadArgs", {
        **TYPE_META, "namespaces": STRINGS, "weightsName": STRING, "networkTopologyName": STRING}),
    "SySched": _s("v1.SySchedArgs", {**TYPE_META, "defaultProfileNamespace": STRING, "defaultProfileName": STRING}),
    "Peaks": _s("v1.PeaksArgs", {
        **TYPE_META, "WatcherAddress": STRING,
        "NodePowerModel": GoType("map", "map[string]v1.PowerModel", elem=_POWER_MODEL)}),
    "NodeMetadata": _s("v1.NodeMetadataArgs", {
        **TYPE_META, "metadataKey": STRING, "metadataSource": _enum("v1.MetadataSourceType"),
        "metadataType": _enum("v1.MetadataValueType"), "scoringStrategy": _enum("v1.MetadataScoringStrategy"),
        "timestampFormat": STRING}),
}
