"""scheduler-plugins' ``SetDefaults_*`` (``apis/config/v1/defaults.go``) and the v1 -> internal step.

Applied to the args a pluginConfig entry gives (an entry without ``args`` decodes to all
defaults) and, as for in-tree kinds, to the args kube-scheduler adds for an enabled plugin that
has no pluginConfig entry. Absent pointer fields the defaults leave nil become Go zero values in
the internal types.
"""

from __future__ import annotations

from typing import Any

DEFAULT_REQUESTS_MULTIPLIER = "1.5"
_RESOURCE_SPEC = [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}]


def _trimaran(out: dict[str, Any]) -> None:
    provider = dict(out.get("metricProvider") or {})
    if "watcherAddress" not in out and not provider.get("type"):
        provider["type"] = "KubernetesMetricsServer"
    if provider.get("type") == "Prometheus" and "insecureSkipVerify" not in provider:
        provider["insecureSkipVerify"] = True
    provider.setdefault("type", "")
    provider.setdefault("address", "")
    out["metricProvider"] = provider
    out.setdefault("watcherAddress", "")


def _positive(out: dict[str, Any], key: str, default: Any, *, zero_ok: bool) -> None:
    value = out.get(key)
    if value is None or value < 0 or (value == 0 and not zero_ok):
        out[key] = default


def default_args(name: str, args: dict[str, Any]) -> dict[str, Any]:
    """Defaulted internal args of the scheduler-plugins plugin ``name`` (a copy)."""
    out = dict(args)
    if name == "Coscheduling":
        out.setdefault("permitWaitingTimeSeconds", 60)
        out.setdefault("podGroupBackoffSeconds", 0)
        out.setdefault("podGroupRejectPercentage", 10)
    elif name == "NodeResourcesAllocatable":
        if not out.get("resources"):
            out["resources"] = [{"name": "cpu", "weight": 1 << 20}, {"name": "memory", "weight": 1}]
        out["resources"] = [{"name": r.get("name", ""), "weight": r.get("weight", 0)} for r in out["resources"]]
        out["mode"] = out.get("mode") or "Least"
    elif name == "TargetLoadPacking":
        _trimaran(out)
        if out.get("defaultRequests") is None:
            out["defaultRequests"] = {"cpu": "1000m"}
        out.setdefault("defaultRequestsMultiplier", DEFAULT_REQUESTS_MULTIPLIER)
        _positive(out, "targetUtilization", 40, zero_ok=False)
    elif name == "LoadVariationRiskBalancing":
        _trimaran(out)
        _positive(out, "safeVarianceMargin", 1.0, zero_ok=True)
        _positive(out, "safeVarianceSensitivity", 1.0, zero_ok=True)
    elif name == "LowRiskOverCommitment":
        _trimaran(out)
        _positive(out, "smoothingWindowSize", 5, zero_ok=False)
        weights = out.get("riskLimitWeights")
        out["riskLimitWeights"] = ({r: (w if 0 <= w <= 1 else 0.5) for r, w in weights.items()} if weights
                                   else {"cpu": 0.5, "memory": 0.5})
    elif name == "NodeResourceTopologyMatch":
        # only a nil pointer gets LeastAllocated: `scoringStrategy: {}` keeps its empty type, which New() rejects
        given: dict[str, Any] | None = out.get("scoringStrategy")
        strategy: dict[str, Any] = dict(given) if given is not None else {"type": "LeastAllocated"}
        strategy.setdefault("type", "")
        resources = [dict(r) for r in strategy.get("resources") or []] or [dict(r) for r in _RESOURCE_SPEC]
        for r in resources:
            r.setdefault("name", "")
            r["weight"] = r.get("weight") or 1
        strategy["resources"] = resources
        out["scoringStrategy"] = strategy
        cache = dict(out.get("cache") or {})
        cache.setdefault("foreignPodsDetect", "All")
        cache.setdefault("resyncMethod", "Autodetect")
        cache.setdefault("informerMode", "Dedicated")
        out["cache"] = cache
        out.setdefault("preemptionMode", "Disabled")
    elif name == "PreemptionToleration":
        out.setdefault("minCandidateNodesPercentage", 10)
        out.setdefault("minCandidateNodesAbsolute", 100)
    elif name in ("TopologicalSort", "NetworkOverhead"):
        if not out.get("namespaces"):
            out["namespaces"] = ["default"]
        if name == "NetworkOverhead":
            out.setdefault("weightsName", "UserDefined")
            out.setdefault("networkTopologyName", "nt-default")
    elif name == "SySched":
        out.setdefault("defaultProfileNamespace", "default")
        out.setdefault("defaultProfileName", "all-syscalls")
    elif name == "Peaks":
        out.setdefault("WatcherAddress", "")
        out.setdefault("NodePowerModel", {})
    elif name == "NodeMetadata":
        for key in ("metadataKey", "metadataSource", "metadataType", "scoringStrategy"):
            out.setdefault(key, "")
        if out["metadataType"] == "Timestamp" and "timestampFormat" not in out:
            out["timestampFormat"] = "2006-01-02T15:04:05Z07:00"
        out.setdefault("timestampFormat", "")
    return out
