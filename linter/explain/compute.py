"""Explanations as JSON-ready dicts: one per node, for each engine.

The field names follow vectors/scoring.json (``score``, ``weightedScore``, ``resources[]``
with ``name, weight, podRequest, requested, allocatable``) so a vector case can be checked
by running the command. Every node gets its scores, feasible or not; nodes are listed best
first: feasible before infeasible (Volcano: and those whose Idle fits the pod before those that
need the Releasing pods' room), then by score (kube-scheduler: the Fit, BalancedAllocation,
TaintToleration, NodeAffinity and ImageLocality contributions after their profile weights), then by name.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from linter.formats.priorityclass.admission import admitted_priority
from linter.model import KubeSchedulerModel, LegacyPolicyModel, Profile, SchedulerModel, VolcanoModel
from linter.scoring.feasibility import DEFAULT_FILTERS, REASON_AFFINITY_CONFLICT, Feasibility, profile_filters
from linter.scoring.hostports import HostPort, host_ports
from linter.scoring.legacy import legacy_rtcr_score_node
from linter.scoring.nodes import NodeView, is_counted_pod
from linter.scoring.nominated import Nominee, check_node_with_nominated, counts_for, nominee_of, pod_key
from linter.scoring.preemption.filters import AffinitySetup, SpreadSetup
from linter.scoring.requests import actual_request, fit_score_request, volcano_request
from linter.scoring.sampling import profile_nodes_to_find, volcano_nodes_to_find
from linter.scoring.strategies import balanced_score_node, fit_score_node
from linter.scoring.unmodelled import AffinityCounts, affinity_flags, plugins_for_pod
from linter.scoring.volcano import binpack_score_node, node_order_binpack
from linter.scoring.volcano_feasibility import check_volcano_node, fit_errors_message, insufficient_resources

from . import podaffinity
from .dump import ClusterDump, ExplainInputError, describe
from .imagelocality import add_image_locality_scores
from .objects import ClusterObjects
from .preemption import admitted_pod, preemption_section
from .preferences import add_preference_scores
from .spread import PLUGIN as SPREAD_PLUGIN
from .spread import PodSpread, SpreadInputs, spread_inputs

__all__ = ["Cluster", "build_views", "explain", "explain_dump", "explain_views", "select_profile"]

Json = dict[str, Any]
Obj = Mapping[str, Any]
# the in-tree plugins explain computes beyond the scorer's own (never in notModelledForPod)
_MODELLED = frozenset({SPREAD_PLUGIN, podaffinity.PLUGIN})


def build_views(nodes: Sequence[Obj], pods: Sequence[Obj]) -> list[NodeView]:
    views: dict[str, NodeView] = {}
    for node in nodes:
        view = NodeView.from_node(node, describe(node))
        views[view.name] = view
    for pod in pods:
        if is_counted_pod(pod):
            target = views.get(str(pod["spec"]["nodeName"]))
            if target is not None:
                target.add_pod(pod)
    return list(views.values())


def select_profile(model: KubeSchedulerModel, name: str | None, pod: Obj) -> Profile:
    """--profile, else the pod's ``spec.schedulerName``, else the first profile."""
    wanted = name or pod.get("spec", {}).get("schedulerName")
    if wanted:
        profile = model.profile(str(wanted))
        if profile is None:
            known = ", ".join(p.scheduler_name for p in model.profiles)
            raise ExplainInputError(f"no profile named {wanted!r} in the scheduler config (profiles: {known})")
        return profile
    return model.profiles[0]


def _feasibility_json(verdict: Feasibility) -> Json:
    return {"feasible": verdict.feasible, "reasons": list(verdict.reasons), "rejectedByPlugin": verdict.plugin}


def _filters(profile: Profile) -> tuple[str, ...]:
    return profile_filters(profile.filter_plugins, profile.fit_filter_enabled, profile.pre_filter_plugins)


def _check(pod: Obj, view: NodeView, profile: Profile | None, pod_request: Mapping[str, int],
           filters: tuple[str, ...], nominated: Sequence[Nominee] = ()) -> Feasibility:
    """The filters' verdict on ``view``; ``pod_request`` (``actual_request(pod)``) and ``filters`` are
    computed once by the caller, which checks every node. ``nominated``: the pods nominated to the node
    that count for this pod (kube-scheduler only)."""
    fit = profile.built_fit if profile is not None else None
    return check_node_with_nominated(
        pod,
        view.node,
        pod_request=pod_request,
        pod_count=view.pod_count,
        node_requested=view.requested,
        node_allocatable=view.allocatable,
        nominated=[n.request for n in nominated],
        ignored_resources=fit.ignored_resources if fit else (),
        ignored_resource_groups=fit.ignored_resource_groups if fit else (),
        filters=filters,
        used_ports=view.used_ports,
        nominated_ports=[n.ports for n in nominated],
    )


def _nominated_by_node(pod: Obj, priority: int, nominees: Sequence[Nominee],
                       scheduler_names: frozenset[str]) -> dict[str, list[Nominee]]:
    """The nominated pods that count for ``pod`` (of ``priority``), by node: only those of a scheduler
    name among ``scheduler_names`` (the model's profiles) are in its nominator."""
    key = pod_key(pod)
    by_node: dict[str, list[Nominee]] = {}
    for nominee in nominees:
        if nominee.scheduler in scheduler_names and counts_for(nominee.priority, nominee.key, priority, key):
            by_node.setdefault(nominee.node, []).append(nominee)
    return by_node


def _sorted(nodes: list[Json], key: str) -> list[Json]:
    return sorted(nodes, key=lambda n: (not n["feasible"], -(n.get(key) or 0), n["name"]))


def _explain_k8s(model: KubeSchedulerModel, views: Sequence[NodeView], pod: Obj, profile_name: str | None,
                 cluster: Cluster) -> Json:
    profile = select_profile(model, profile_name, pod)
    fit_args, balanced_args = profile.fit, profile.balanced
    fit_request, real_request = fit_score_request(pod), actual_request(pod)
    filters = _filters(profile)
    priority, policy = admitted_priority(pod, cluster.priority_classes)  # LookupError: admission would reject it
    nominated = _nominated_by_node(pod, priority, cluster.nominated, model.scheduler_names)
    spread = PodSpread(profile, pod, views, cluster.spread)
    verdicts: list[Feasibility] = []
    for index, view in enumerate(views):
        here = nominated.get(view.name, [])
        verdict = _check(pod, view, profile, real_request, filters, here)
        if verdict.feasible:  # PodTopologySpread's Filter follows every modelled one
            verdict = spread.check(index, here) or verdict
        verdicts.append(verdict)
    affinity_pods = None if cluster.pod_affinity is None else \
        cluster.pod_affinity.bound_pods(views, cluster.spread.pods)  # the labels PodTopologySpread counts too
    affinity_filter = None
    if affinity_pods is not None and podaffinity.wanted(profile)[0]:  # InterPodAffinity's Filter follows
        affinity_filter = podaffinity.apply_filter(pod, views, verdicts, affinity_pods, cluster.namespaces,
                                                   [v.reasons == (REASON_AFFINITY_CONFLICT,) for v in verdicts],
                                                   nominated)
    out: list[Json] = []
    for view, verdict in zip(views, verdicts, strict=True):
        here = nominated.get(view.name, [])
        node: Json = {"name": view.name, **_feasibility_json(verdict),
                      "nominatedPods": ["/".join(n.key) for n in here]}
        total = 0
        node["score"] = node["weightedScore"] = None
        if fit_args is not None:
            fit = fit_score_node(fit_args, fit_request, view.fit_requested, view.allocatable)
            node.update(score=fit.score, weightedScore=fit.score * profile.fit_weight,
                        weightedSum=fit.weighted_sum, weightSum=fit.weight_sum,
                        resources=[r.as_dict() for r in fit.resources])
            total += fit.score * profile.fit_weight
        node["balancedScore"] = None
        if balanced_args is not None:
            bal = balanced_score_node(balanced_args, real_request, view.requested, view.allocatable)
            node.update(balancedScore=None if bal.skipped else bal.score, balancedSkipped=bal.skipped,
                        balancedWeight=profile.balanced_weight, balancedWithPod=bal.with_pod,
                        balancedWithoutPod=bal.without_pod,
                        balancedResources=[r.as_dict() for r in bal.resources])
            total += 0 if bal.skipped else bal.score * profile.balanced_weight
        node["total"] = total
        out.append(node)
    preferences = add_preference_scores(profile, pod, views, out)  # adds to the feasible nodes' totals
    pod_affinity = podaffinity.score_fields(profile, pod, affinity_pods, cluster.namespaces, out)
    if affinity_filter is not None and affinity_filter.needs_namespaces:
        pod_affinity["interPodAffinityNeedsNamespaces"] = True
    image_locality = add_image_locality_scores(profile, pod, views, out)  # adds to every node's total
    spreading = spread.add_scores(out)  # adds to the feasible nodes' totals
    feasible = sum(1 for n in out if n["feasible"])
    shape = fit_args.shape if fit_args is not None and fit_args.shape else None
    return {
        "engine": "k8s-fit",
        "profile": profile.scheduler_name,
        "strategy": fit_args.strategy if fit_args is not None else None,
        "pluginWeight": profile.fit_weight,
        **preferences,
        **pod_affinity,
        **image_locality,
        **spreading,
        "shape": [{"utilization": p.utilization, "score": p.score} for p in shape] if shape else None,
        "podRequest": fit_request,
        # scores of the build's out-of-tree plugins are not modelled: named here, never in "total"
        "notModelledScorePlugins": [{"name": n, "weight": w} for n, w in profile.unmodelled_scores.items()],
        # in-tree plugins the model leaves out that act on this pod ({} when none does)
        "notModelledForPod": plugins_for_pod(pod, profile, cluster.affinity, scored=feasible > 1,
                                             modelled=_MODELLED),
        # no node passes and a computed filter acts on the pod: the preemption model's dry runs leave it out
        # (InterPodAffinity: only a PreFilter failure, which rejects every node)
        "preemptionLeavesOut": [] if feasible else [name for name, acts in (
            (podaffinity.PLUGIN, affinity_filter is not None and affinity_filter.filtered
             and affinity_filter.state is None),) if acts],
        "nodes": _sorted(out, "total"),
        "feasibleNodesToFind": profile_nodes_to_find(profile, pod, filters, len(views),
                                                     lambda name: any(view.name == name for view in views)),
        "preemption": None if any(n["feasible"] for n in out) else _preemption(pod, model, profile, cluster, priority,
                                                                             policy, spread.preemption_setup(),
                                                                             _affinity_setup(affinity_filter)),
    }


def _preemption(pod: Obj, model: KubeSchedulerModel, profile: Profile, cluster: Cluster, priority: int,
                policy: str, spread: SpreadSetup | None, affinity: AffinitySetup | None) -> Json | None:
    """The preemption section (None if the preemption model finds a node that fits after all), for a pod
    that passes the filters on no node (counting nominated pods); ``priority``/``policy``: what admission
    gives the pending pod.

    Only then are the objects (``cluster.objects()``, a second read of a streamed dump) needed.
    """
    whole = cluster.objects()
    return preemption_section(admitted_pod(pod, priority, policy), whole.nodes, whole.pods, whole.pdbs, profile,
                              _filters(profile), model.scheduler_names, spread, affinity)


def _affinity_setup(outcome: podaffinity.Outcome | None) -> AffinitySetup | None:
    """InterPodAffinity's Filter for the preemption section (None: it does not run or its PreFilter skipped
    or failed)."""
    if outcome is None or outcome.state is None:
        return None
    return AffinitySetup(outcome.state, outcome.node_labels)


@dataclass(frozen=True)
class Cluster:
    """What the filters and the preemption section need: the PriorityClasses and the nominated pods now,
    the objects only if the pod fits nowhere."""

    priority_classes: Sequence[Obj]
    objects: Callable[[], ClusterObjects]
    nominated: Sequence[Nominee] = ()
    affinity: AffinityCounts = field(default_factory=AffinityCounts)  # bound pods with pod affinity terms
    # what PodTopologySpread counts and looks up; its pods' labels serve InterPodAffinity too
    spread: SpreadInputs = field(default_factory=SpreadInputs)
    # what InterPodAffinity reads of the bound pods (None: not computed) and the Namespaces' labels
    pod_affinity: podaffinity.AffinityPods | None = None
    namespaces: Mapping[str, Mapping[str, str]] | None = None


def _volcano_verdict(pod: Obj, view: NodeView, task: Mapping[str, float], model: VolcanoModel,
                     ports: Sequence[HostPort]) -> Json:
    verdict = check_volcano_node(pod, view.node, task=task, idle=view.volcano_future_idle, pod_count=view.pod_count,
                                 max_task_num=view.volcano_max_task_num, predicates=model.predicates,
                                 used_ports=view.used_ports, pod_ports=ports)
    # prioritizeNodes picks among the feasible nodes whose Idle fits the task first
    fits_idle = verdict.feasible and not insufficient_resources(task, view.volcano_idle)
    return {"feasible": verdict.feasible, "reasons": list(verdict.reasons), "rejectedByPlugin": verdict.plugin,
            "insufficientResources": list(verdict.insufficient), "fitsIdle": fits_idle}


def _volcano_message(nodes: Sequence[Json]) -> str | None:
    """Volcano's FitErrors text when no node fits (None when one does, or there is no node)."""
    if not nodes or any(n["feasible"] for n in nodes):
        return None
    counts: dict[str, int] = {}
    for node in nodes:
        for reason in node["reasons"]:
            counts[reason] = counts.get(reason, 0) + 1
    return fit_errors_message(len(nodes), counts)


def _volcano_order(node: Json) -> tuple[bool, bool, float, str]:
    """Feasible first, those whose Idle fits first among them, then by score; a NaN score (only an infeasible
    node's, from an oversubscription annotation) sorts after every other score."""
    score = node["score"] or 0.0
    return not node["feasible"], not node["fitsIdle"], -score if score == score else math.inf, node["name"]


def _explain_volcano(model: VolcanoModel, views: Sequence[NodeView], pod: Obj) -> Json:
    # Volcano calls one binpack function (the last registering entry's) once per entry with node ordering on.
    registered, calls = node_order_binpack(model.binpack)
    args = registered or (model.binpack[0] if model.binpack else None)
    ordered = registered is not None and calls > 0
    task, ports = volcano_request(pod), host_ports(pod)
    out: list[Json] = []
    for view in views:
        node: Json = {"name": view.name, **_volcano_verdict(pod, view, task, model, ports),
                      "oversubscription": dict(view.volcano_oversubscription)}
        node["score"] = node["weightedScore"] = None
        if args is not None:
            res = binpack_score_node(args, task, view.volcano_used, view.volcano_allocatable)
            score = 0.0
            for _ in range(calls if ordered else 0):  # Session.NodeOrderFn adds each call's float64
                score += res.score
            node.update(score=score, weightedScore=score, weightSum=res.weight_sum, binpackScore=res.score,
                        rejectedBy=res.rejected_by, nodeOrderRegistered=ordered,
                        resources=[{"name": t.name, "weight": t.weight, "podRequest": t.request, "used": t.used,
                                    "requested": t.request + t.used, "allocatable": t.capacity, "term": t.term}
                                   for t in res.terms])
        out.append(node)
    return {
        "engine": "volcano-binpack",
        "profile": None,
        "strategy": "binpack" if args is not None else None,
        "pluginWeight": args.weight if args is not None else None,
        "effectiveWeights": {"binpack.weight": args.weight, "resources": dict(args.resources)} if args else None,
        "binpackEntries": len(model.binpack),
        "binpackCalls": calls if ordered else 0,
        "notModelledNodeOrderPlugins": [
            {"name": p.name, "weights": dict(p.weights) if p.weights is not None else None}
            for p in model.other_node_order],
        "predicates": None if model.predicates is None else {
            "nodeAffinity": model.predicates.node_affinity, "nodePorts": model.predicates.node_ports,
            "taintToleration": model.predicates.taint_toleration},
        "notModelledPredicatePlugins": list(model.other_predicates),
        "podRequest": task,
        "nodes": sorted(out, key=_volcano_order),
        "feasibleNodesToFind": volcano_nodes_to_find(len(views)),
        "message": _volcano_message(out),
    }


def _explain_legacy(model: LegacyPolicyModel, views: Sequence[NodeView], pod: Obj) -> Json:
    priority = model.rtcr
    fit_request, real_request = fit_score_request(pod), actual_request(pod)
    out: list[Json] = []
    for view in views:
        node: Json = {"name": view.name, **_feasibility_json(_check(pod, view, None, real_request, DEFAULT_FILTERS))}
        node["score"] = node["weightedScore"] = None
        if priority is not None:
            res = legacy_rtcr_score_node(priority, fit_request, view.fit_requested, view.allocatable)
            node.update(score=res.score, weightedScore=res.weighted_score, weightedSum=res.weighted_sum,
                        weightSum=res.weight_sum, resources=[r.as_dict() for r in res.resources])
        out.append(node)
    return {
        "engine": "legacy-rtcr",
        "profile": priority.name if priority is not None else None,
        "strategy": "RequestedToCapacityRatio" if priority is not None else None,
        "pluginWeight": priority.weight if priority is not None else None,
        "shape": [{"utilization": p.utilization, "score": p.score} for p in priority.shape] if priority else None,
        "podRequest": fit_request,
        "nodes": _sorted(out, "weightedScore"),
    }


def explain_views(model: SchedulerModel, views: Sequence[NodeView], pod: Obj, profile: str | None,
                  cluster: Cluster) -> Json:
    """The full explanation for ``pod`` on prepared node views.

    For kube-scheduler models it has a ``preemption`` key: None when some node passes the
    filters, else :func:`~linter.explain.preemption.preemption_section`. Raises LookupError, whatever
    the model, when the pod names a PriorityClass that neither ``cluster.priority_classes`` nor the built-ins
    hold: the API server's Priority plugin rejects it.
    """
    head: Json = {"pod": describe(pod)}
    if not isinstance(model, KubeSchedulerModel):  # kube-scheduler resolves it itself, for the filters
        admitted_priority(pod, cluster.priority_classes)  # the Priority plugin rejects any scheduler's pod
    if isinstance(model, KubeSchedulerModel):
        body = _explain_k8s(model, views, pod, profile, cluster)
    elif isinstance(model, VolcanoModel):
        body = _explain_volcano(model, views, pod)
    else:
        body = _explain_legacy(model, views, pod)
    return {**body, **head}


def explain(
    model: SchedulerModel, nodes: Sequence[Obj], pods: Sequence[Obj], pod: Obj, profile: str | None = None,
    *, pdbs: Sequence[Obj] = (), priority_classes: Sequence[Obj] = (), workloads: Sequence[Obj] = (),
    namespaces: Sequence[Obj] = (),
) -> Json:
    """The full explanation for ``pod`` on the cluster ``nodes``/``pods`` under ``model`` (see explain_views);
    ``workloads``: the Services, ReplicaSets, StatefulSets and ReplicationControllers of STATE."""
    whole = ClusterObjects(list(nodes), list(pods), list(priority_classes), list(pdbs))
    nominees = [n for n in map(nominee_of, pods) if n is not None]
    flags: dict[int, int] = {}
    affinity_pods = podaffinity.AffinityPods()
    for bound in filter(is_counted_pod, pods):
        flags[affinity_flags(bound)] = flags.get(affinity_flags(bound), 0) + 1
        affinity_pods.note(str(bound["spec"]["nodeName"]), bound)
    namespace_labels = {str(n["metadata"]["name"]): dict(n["metadata"].get("labels") or {}) for n in namespaces}
    return explain_views(model, build_views(nodes, pods), pod, profile,
                         Cluster(priority_classes, lambda: whole, nominees, AffinityCounts.of(flags),
                                 spread_inputs(pods, workloads), affinity_pods,
                                 namespace_labels if namespaces else None))


def explain_dump(model: SchedulerModel, dump: ClusterDump, pod: Obj, profile: str | None,
                 objects: Callable[[], ClusterObjects]) -> Json:
    """The explanation on a streamed dump; ``objects`` reads STATE again, whole, if preemption needs it."""
    return explain_views(model, dump.views(), pod, profile,
                         Cluster(dump.priority_classes, objects, dump.nominated, dump.affinity,
                                 SpreadInputs(dump.labelled_pods, dump.spread_objects), dump.pod_affinity,
                                 dump.namespaces))
