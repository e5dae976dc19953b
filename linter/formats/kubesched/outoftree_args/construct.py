"""What each scheduler-plugins plugin's ``New()`` rejects, worded as that plugin words it.

``construct(name, args)`` returns the error text the framework wraps as
``initializing plugin "<name>": <text>``, or None when the plugin is built. ``args`` are the
defaulted args (kube-scheduler adds defaulted args for every enabled plugin whose kind its
scheme knows, scheduler-plugins' kinds included, so these plugins never get nil). Only checks
that depend on the config are modelled; a plugin's clients (kubeconfig, metrics provider, load
watcher, NODE_POWER_MODEL file) are the cluster's business.
"""

from __future__ import annotations

from typing import Any

from linter.formats.kubesched.argsvalid import validate_args
from linter.gofmt import FieldError, Rendered, aggregate, go_json, go_quote
from linter.goparsefloat import parse_float_error

_TRIMARAN = ("TargetLoadPacking", "LowRiskOverCommitment", "LoadVariationRiskBalancing")
_PROVIDERS = ("KubernetesMetricsServer", "Prometheus", "SignalFx")


def construct(name: str, args: dict[str, Any]) -> str | None:
    if name in _TRIMARAN:
        provider = args.get("metricProvider", {}).get("type", "")
        if not args.get("watcherAddress") and provider not in _PROVIDERS:
            return f"invalid MetricProvider.Type, got {provider}"
        if name == "TargetLoadPacking":
            return _parse_float_error(args.get("defaultRequestsMultiplier", ""))
        return None
    if name == "Peaks" and not args.get("WatcherAddress"):
        return "invalid MetricProvider.Type, got "
    check = _CHECKS.get(name)
    return check(args) if check is not None else None


def _enum(value: str) -> Rendered:
    """A value of a named string type (ModeType, ScoringStrategyType, ...): field.ErrorBody prints it
    with json.Marshal (``<``, ``>`` and ``&`` escaped), only a plain ``string`` with %q."""
    return Rendered(go_json(value))


def _parse_float_error(text: str) -> str | None:
    """``strconv.ParseFloat(text, 64)`` as TargetLoadPacking reports its failure."""
    error = parse_float_error(text)
    if error is None:
        return None
    return f"unable to parse DefaultRequestsMultiplier: strconv.ParseFloat: parsing {go_quote(text)}: {error}"


def _coscheduling(args: dict[str, Any]) -> str | None:
    errors = []
    for key, value, detail in (
        ("permitWaitingTimeSeconds", args["permitWaitingTimeSeconds"], "must be greater than 0"),
        ("podGroupBackoffSeconds", args["podGroupBackoffSeconds"], "must be greater than 0"),
    ):
        if value < 0:
            errors.append(FieldError("Invalid value", key, value, detail).render())
    pct = args["podGroupRejectPercentage"]
    if not 0 <= pct <= 100:
        errors.append(FieldError("Invalid value", "podGroupRejectPercentage", pct,
                                 "must be between 0 and 100").render())
    return aggregate(errors) if errors else None


def _allocatable(args: dict[str, Any]) -> str | None:
    errors = []
    for i, res in enumerate(args["resources"]):
        if res["weight"] <= 0:
            errors.append(FieldError("Invalid value", f"resources[{i}].weight", res["weight"],
                                     f"resource weight of {res['name']} should be a positive value, "
                                     f"got :{res['weight']}").render())
    if args["mode"] not in ("Least", "Most"):
        errors.append(FieldError("Invalid value", "mode", _enum(args["mode"]), "invalid support ModeType").render())
    return aggregate(errors) if errors else None


def _topology_match(args: dict[str, Any]) -> str | None:
    errors = []
    kind = args["scoringStrategy"]["type"]
    if kind not in ("MostAllocated", "BalancedAllocation", "LeastAllocated", "LeastNUMANodes"):
        errors.append(FieldError("Invalid value", "scoringStrategy.type", _enum(kind),
                                 "invalid ScoringStrategyType").render())
    mode = args["preemptionMode"]
    if mode not in ("Disabled", "Enabled"):
        errors.append(FieldError("Invalid value", "preemptionMode", _enum(mode), "invalid PreemptionMode").render())
    return aggregate(errors) if errors else None


def _preemption_toleration(args: dict[str, Any]) -> str | None:
    # ValidateDefaultPreemptionArgs(field.NewPath(""), ...): a root path named "" prints as "[]".
    errors = [fe.render() for fe, _ in validate_args("DefaultPreemption", args, "[]")]
    return aggregate(errors) if errors else None


def _node_metadata(args: dict[str, Any]) -> str | None:
    errors = []
    if not args["metadataKey"]:
        errors.append(FieldError("Invalid value", "metadataKey", "", "metadataKey cannot be empty"))
    if args["metadataSource"] not in ("Label", "Annotation"):
        errors.append(FieldError("Invalid value", "metadataSource", _enum(args["metadataSource"]),
                                 'metadataSource must be either "Label" or "Annotation"'))
    kind, strategy = args["metadataType"], args["scoringStrategy"]
    if kind not in ("Number", "Timestamp"):
        errors.append(FieldError("Invalid value", "metadataType", _enum(kind),
                                 'metadataType must be either "Number" or "Timestamp"'))
    if strategy not in ("Highest", "Lowest", "Newest", "Oldest"):
        errors.append(FieldError("Invalid value", "scoringStrategy", _enum(strategy),
                                 'scoringStrategy must be one of "Highest", "Lowest", "Newest", or "Oldest"'))
    if kind == "Number" and strategy in ("Newest", "Oldest"):
        errors.append(FieldError("Invalid value", "scoringStrategy", _enum(strategy),
                                 'scoringStrategy "Newest" and "Oldest" are only valid for metadataType "Timestamp"'))
    if kind == "Timestamp" and strategy in ("Highest", "Lowest"):
        errors.append(FieldError("Invalid value", "scoringStrategy", _enum(strategy),
                                 'scoringStrategy "Highest" and "Lowest" are only valid for metadataType "Number"'))
    return "invalid NodeMetadataArgs: " + aggregate([e.render() for e in errors]) if errors else None


_CHECKS = {
    "Coscheduling": _coscheduling,
    "NodeResourcesAllocatable": _allocatable,
    "NodeResourceTopologyMatch": _topology_match,
    "PreemptionToleration": _preemption_toleration,
    "NodeMetadata": _node_metadata,
}
