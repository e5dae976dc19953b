"""Property: ClusterState.rank equals the scalar model (feasibility, strategies, volcano) node for node.

Random nodes (allocatable, labels, taints, unschedulable), random bound pods (containers,
init containers and sidecars, overhead, pod-level requests, terminal phases, pods bound to
missing nodes, priorities, pending pods nominated to a node, terminating pods), a random incoming pod (tolerations,
nodeSelector, required node affinity, nodeName, priority, now and then a nominated pod's own name)
and random plugin args. The expected side is built only from the scalar functions:
:func:`linter.scoring.nodes.node_views`, :func:`nominated.check_node_with_nominated` (kube-scheduler),
:func:`volcano_feasibility.check_volcano_node` (Volcano's allocate action, which counts no nominations),
:func:`strategies.fit_score_node` and :func:`volcano.binpack_score_node`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linter.model import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    BalancedArgs,
    FitArgs,
    KubeSchedulerModel,
    Profile,
    ResourceWeight,
    ShapePoint,
    VolcanoBinpackArgs,
    VolcanoModel,
    VolcanoPredicateArgs,
)
from linter.scoring import feasibility
from linter.scoring.cluster.state import ClusterState
from linter.scoring.nodes import node_views
from linter.scoring.nominated import (
    DEFAULT_SCHEDULER_NAMES,
    check_node_with_nominated,
    counts_for,
    nominee_of,
    pod_key,
    pod_priority,
)
from linter.scoring.requests import actual_request, fit_score_request, volcano_request
from linter.scoring.strategies import balanced_score_node, fit_score_node
from linter.scoring.volcano import binpack_score_node
from linter.scoring.volcano_feasibility import check_volcano_node, insufficient_resources

NODE_NAMES = ["n-a", "n-b", "n-c", "n-d", "n-e", "n-f"]
POD_NAMES = [f"p{i}" for i in range(10)]
PRIORITY = st.sampled_from([-5, 0, 7, 1000])
RESOURCES = ["cpu", "memory", "ephemeral-storage", "nvidia.com/gpu", "example.com/foo", "hugepages-2Mi", "pods"]
LABEL_KEYS = ["zone", "pool", "rank"]
LABEL_VALUES = ["a", "b", "3", "12"]

cpu_q = st.one_of(
    st.integers(0, 3000).map(lambda n: f"{n}m"),
    st.integers(0, 3).map(str),
    st.sampled_from(["1.0005", "0.5", "250m", "2500u"]),
)
mem_q = st.one_of(
    st.integers(0, 9000).map(lambda n: f"{n}Mi"),
    st.integers(0, 4).map(lambda n: f"{n}Gi"),
    st.sampled_from(["1G", "256M", "100.5"]),
)
count_q = st.integers(0, 3).map(str)
QUANTITY = {
    "cpu": cpu_q,
    "memory": mem_q,
    "ephemeral-storage": mem_q,
    "nvidia.com/gpu": count_q,
    "example.com/foo": st.one_of(count_q, st.just("1.5")),
    "hugepages-2Mi": mem_q,
    "pods": st.integers(0, 2).map(str),
}
NODE_QUANTITY = {
    "cpu": st.one_of(st.integers(4, 64).map(str), st.sampled_from(["1", "2", "7500m", "0", "-2"])),
    "memory": st.one_of(
        st.integers(8, 256).map(lambda n: f"{n}Gi"), st.sampled_from(["1Gi", "3Gi", "4Ti", "80P", "0"])
    ),
    "ephemeral-storage": st.integers(0, 500).map(lambda n: f"{n}Gi"),
    "nvidia.com/gpu": st.integers(0, 8).map(str),
    "example.com/foo": st.integers(0, 10).map(str),
    "hugepages-2Mi": st.integers(0, 64).map(lambda n: f"{n}Gi"),
    "pods": st.sampled_from(["110", "0", "2", "5"]),
}


@st.composite
def resource_list(draw: st.DrawFn, names: list[str] = RESOURCES[:-1], on_node: bool = False) -> dict[str, str]:
    chosen = draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names) if on_node else 3))
    table = NODE_QUANTITY if on_node else QUANTITY
    return {n: draw(table[n]) for n in chosen}


@st.composite
def container(draw: st.DrawFn, init: bool = False) -> dict[str, Any]:
    c: dict[str, Any] = {"name": "c", "resources": {"requests": draw(resource_list())}}
    if init and draw(st.booleans()):
        c["restartPolicy"] = "Always"
    return c


@st.composite
def pod_spec(draw: st.DrawFn) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": draw(st.lists(container(), min_size=1, max_size=3))}
    if draw(st.booleans()):
        spec["initContainers"] = draw(st.lists(container(init=True), max_size=3))
    if draw(st.integers(0, 3)) == 2:
        spec["overhead"] = draw(resource_list(["cpu", "memory"]))
    if draw(st.integers(0, 3)) == 2:
        spec["resources"] = {"requests": draw(resource_list(["cpu", "memory", "hugepages-2Mi"]))}
    return spec


@st.composite
def bound_pod(draw: st.DrawFn, name: str | None = None) -> dict[str, Any]:
    spec = draw(pod_spec())
    node = draw(st.one_of(st.none(), st.sampled_from([*NODE_NAMES, "ghost"])))
    if node is not None:
        spec["nodeName"] = node
    pod: dict[str, Any] = {
        "metadata": {"name": name or draw(st.sampled_from(POD_NAMES)), "namespace": "ns"},
        "spec": spec,
    }
    phase = draw(st.sampled_from([None, "Pending", "Running", "Succeeded", "Failed"]))
    if phase:
        pod["status"] = {"phase": phase}
    if draw(st.integers(0, 2)) == 0:  # nominated: counted by kube-scheduler's filters while not bound
        pod.setdefault("status", {})["nominatedNodeName"] = draw(st.sampled_from([*NODE_NAMES, "ghost"]))
    if draw(st.booleans()):
        pod["spec"]["priority"] = draw(PRIORITY)
    if draw(st.integers(0, 3)) == 0:  # terminating: Volcano counts a Running or Pending one as Releasing
        pod["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:00Z"
    return pod


@st.composite
def scheduler_name(draw: st.DrawFn) -> dict[str, Any]:
    """A pod's ``spec.schedulerName``, absent or "" (default-scheduler), a second profile's or Volcano's."""
    name = draw(st.sampled_from([None, "", "default-scheduler", "binpack", "volcano"]))
    return {} if name is None else {"schedulerName": name}


@st.composite
def nominated_pod(draw: st.DrawFn) -> dict[str, Any]:
    """A pending pod nominated to a node (or to a node that does not exist), maybe of a higher priority;
    often a big one, so that counting it or not decides whether a node fits."""
    big = {"cpu": draw(st.sampled_from(["4", "16", "60"])), "memory": draw(st.sampled_from(["4Gi", "200Gi"]))}
    spec = draw(pod_spec()) if draw(st.booleans()) else {"containers": [{"name": "c", "resources": {"requests": big}}]}
    return {
        "metadata": {"name": draw(st.sampled_from(POD_NAMES)), "namespace": "ns"},
        "spec": {**spec, "priority": draw(PRIORITY), **draw(scheduler_name())},
        "status": {"phase": "Pending", "nominatedNodeName": draw(st.sampled_from([*NODE_NAMES, "ghost"]))},
    }


TAINT = st.fixed_dictionaries(
    {
        "key": st.sampled_from(["dedicated", "gpu", "node.kubernetes.io/unschedulable"]),
        "value": st.sampled_from(["", "x", "y"]),
        "effect": st.sampled_from(["NoSchedule", "NoExecute", "PreferNoSchedule"]),
    }
)


@st.composite
def node(draw: st.DrawFn, name: str | None = None) -> dict[str, Any]:
    name = name or draw(st.sampled_from(NODE_NAMES))
    alloc = draw(resource_list(RESOURCES, on_node=True))
    if draw(st.integers(0, 4)) != 2:
        alloc["pods"] = draw(NODE_QUANTITY["pods"])
    spec: dict[str, Any] = {}
    if draw(st.integers(0, 5)) == 2:
        spec["taints"] = draw(st.lists(TAINT, max_size=2))
    if draw(st.integers(0, 7)) == 2:
        spec["unschedulable"] = True
    labels = draw(st.dictionaries(st.sampled_from(LABEL_KEYS), st.sampled_from(LABEL_VALUES), max_size=3))
    labels["kubernetes.io/hostname"] = name
    return {"metadata": {"name": name, "labels": labels}, "spec": spec, "status": {"allocatable": alloc}}


REQUIREMENT = st.one_of(
    st.fixed_dictionaries(
        {
            "key": st.sampled_from(LABEL_KEYS),
            "operator": st.sampled_from(["In", "NotIn"]),
            "values": st.lists(st.sampled_from(LABEL_VALUES), min_size=1, max_size=2),
        }
    ),
    st.fixed_dictionaries(
        {"key": st.sampled_from(LABEL_KEYS), "operator": st.sampled_from(["Exists", "DoesNotExist"])}
    ),
    st.fixed_dictionaries(
        {
            "key": st.sampled_from(LABEL_KEYS),
            "operator": st.sampled_from(["Gt", "Lt"]),
            "values": st.sampled_from(["2", "5", "x"]).map(lambda v: [v]),
        }
    ),
)
FIELD_REQUIREMENT = st.fixed_dictionaries(
    {
        "key": st.just("metadata.name"),
        "operator": st.sampled_from(["In", "NotIn"]),
        "values": st.sampled_from(NODE_NAMES).map(lambda v: [v]),
    }
)
TOLERATION = st.fixed_dictionaries(
    {},
    optional={
        "key": st.sampled_from(["dedicated", "gpu", "node.kubernetes.io/unschedulable"]),
        "operator": st.sampled_from(["Equal", "Exists"]),
        "value": st.sampled_from(["", "x"]),
        "effect": st.sampled_from(["NoSchedule", "NoExecute"]),
    },
)


@st.composite
def incoming_pod(draw: st.DrawFn) -> dict[str, Any]:
    spec = draw(pod_spec())
    if draw(st.booleans()):
        spec["tolerations"] = draw(st.lists(TOLERATION, max_size=2))
    if draw(st.integers(0, 3)) == 2:
        spec["nodeSelector"] = draw(
            st.dictionaries(st.sampled_from(LABEL_KEYS), st.sampled_from(LABEL_VALUES), max_size=2)
        )
    if draw(st.integers(0, 3)) == 2:
        terms = draw(
            st.lists(
                st.fixed_dictionaries(
                    {},
                    optional={
                        "matchExpressions": st.lists(REQUIREMENT, max_size=2),
                        "matchFields": st.lists(FIELD_REQUIREMENT, max_size=1),
                    },
                ),
                min_size=1,
                max_size=2,
            )
        )
        spec["affinity"] = {
            "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}
        }
    if draw(st.integers(0, 9)) == 2:
        spec["nodeName"] = draw(st.sampled_from(NODE_NAMES))
    if draw(st.booleans()):
        spec["priority"] = draw(PRIORITY)
    # now and then one of the bound pods' names: its own nomination must not count
    return {"metadata": {"name": draw(st.sampled_from(["incoming", "p0"])), "namespace": "ns"}, "spec": spec}


@st.composite
def fit_args(draw: st.DrawFn) -> FitArgs:
    strategy = draw(st.sampled_from([LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO]))
    names = draw(st.lists(st.sampled_from(RESOURCES), min_size=1, max_size=4))
    resources = tuple(ResourceWeight(n, draw(st.integers(1, 5))) for n in names)
    shape = None
    if strategy == REQUESTED_TO_CAPACITY_RATIO:
        utils = sorted(draw(st.sets(st.integers(0, 100), min_size=1, max_size=4)))
        shape = tuple(ShapePoint(u, draw(st.integers(0, 10))) for u in utils)
    ignored = draw(st.sampled_from([("nvidia.com/gpu",), ("example.com/foo",), ()]))
    groups = draw(st.sampled_from([("example.com",), ("nvidia.com",), ()]))
    return FitArgs(
        strategy=strategy, resources=resources, shape=shape, ignored_resources=ignored, ignored_resource_groups=groups
    )


@st.composite
def binpack_args(draw: st.DrawFn) -> VolcanoBinpackArgs:
    extras = draw(st.lists(st.sampled_from(RESOURCES[2:]), unique=True, max_size=3))
    resources = {"cpu": draw(st.integers(0, 3)), "memory": draw(st.integers(0, 3))}
    resources.update({n: draw(st.integers(0, 4)) for n in extras})
    weight = draw(st.integers(-2, 5))
    return VolcanoBinpackArgs(weight=weight, resources=resources, enable_node_order=weight != 0)


def cluster(nodes: list[dict[str, Any]], pods: list[dict[str, Any]]) -> ClusterState:
    state = ClusterState()
    for n in nodes:
        state.apply_node(n)
    for p in pods:
        state.apply_pod(p)
    return state


def unique_by_name(objs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return list({o["metadata"]["name"]: o for o in objs}.values())


def expected_feasibility(
    pod: dict[str, Any], nodes: list[dict[str, Any]], pods: list[dict[str, Any]], args: FitArgs, filters: bool = True,
    *, nominations: bool = False, scheduler_names: frozenset[str] = DEFAULT_SCHEDULER_NAMES,
) -> tuple[dict[str, Any], Counter[str]]:
    """Per feasible node its NodeView, and every reason of every infeasible node (scalar model);
    ``nominations``: kube-scheduler's filters, which count the pods nominated to a node by a pod of
    one of ``scheduler_names`` (the model's profiles)."""
    request = actual_request(pod)
    feasible: dict[str, Any] = {}
    reasons: Counter[str] = Counter()
    by_name = {n["metadata"]["name"]: n for n in nodes}
    nominees = [n for n in map(nominee_of, pods) if n is not None] if nominations else []
    for view in node_views(nodes, pods):
        verdict = check_node_with_nominated(
            pod,
            by_name[view.name],
            pod_request=request,
            pod_count=view.pod_count,
            node_requested=view.requested,
            node_allocatable=view.allocatable,
            nominated=[n.request for n in nominees if n.node == view.name and n.scheduler in scheduler_names
                       and counts_for(n.priority, n.key, pod_priority(pod), pod_key(pod))],
            ignored_resources=args.ignored_resources,
            ignored_resource_groups=args.ignored_resource_groups,
            filters=feasibility.DEFAULT_FILTERS if filters else (),
        )
        if verdict.feasible:
            feasible[view.name] = view
        else:
            reasons.update(verdict.reasons)
    return feasible, reasons


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def expected_order(pod: dict[str, Any], feasible: dict[str, Any], args: FitArgs, weight: int) -> list[Any]:
    """The scalar model's (node, Fit score) pairs in the order kube-scheduler picks: by the total of Fit (after
    ``weight``) and the default BalancedAllocation (weight 1, nothing when skipped), as explain's, then name."""
    return expected_total_order(pod, feasible, args, weight, BalancedArgs(), 1)


@SETTINGS
@given(
    nodes=st.lists(node(), max_size=6).map(unique_by_name),
    pods=st.lists(bound_pod(), max_size=12),
    nominated=st.lists(nominated_pod(), max_size=4),
    pod=incoming_pod(),
    args=fit_args(),
    weight=st.integers(1, 5),
    filters=st.booleans(),
)
def test_fit_rank_equals_scalar_model(
    nodes: list[dict[str, Any]],
    pods: list[dict[str, Any]],
    nominated: list[dict[str, Any]],
    pod: dict[str, Any],
    args: FitArgs,
    weight: int,
    filters: bool,
) -> None:
    pods = unique_by_name(nominated + pods)
    model = KubeSchedulerModel(
        profiles=(Profile("default-scheduler", fit=args, score_plugin_weights={"NodeResourcesFit": weight}),)
    )
    ranking = cluster(nodes, pods).rank(pod, model, top=0, filters=filters)
    feasible, reasons = expected_feasibility(pod, nodes, pods, args, filters, nominations=True)
    assert list(ranking.scores) == expected_order(pod, feasible, args, weight)
    assert dict(ranking.reason_counts) == dict(reasons)
    assert ranking.total_nodes == len(nodes) and ranking.feasible_nodes == len(feasible)
    assert ranking.plugin_weight == weight and ranking.strategy == args.strategy


@st.composite
def small_spec(draw: st.DrawFn) -> dict[str, Any]:
    requests = {"cpu": draw(st.sampled_from(["500m", "1", "2"]))}
    if draw(st.booleans()):
        requests["memory"] = draw(st.sampled_from(["1Gi", "4Gi"]))
    return {"containers": [{"name": "c", "resources": {"requests": requests}}]}


@st.composite
def small_pod(draw: st.DrawFn) -> dict[str, Any]:
    """An incoming pod with a priority, now and then named like one of the nominated pods (p0)."""
    spec = {**draw(small_spec()), "priority": draw(PRIORITY)}
    return {"metadata": {"name": draw(st.sampled_from(["incoming", "p0"])), "namespace": "ns"}, "spec": spec}


@st.composite
def crowded_with_nominations(draw: st.DrawFn) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Small untainted nodes, pods bound to them and pods nominated to them: whether the nominated pods
    count decides, more often than not, whether a node fits."""
    names = draw(st.lists(st.sampled_from(NODE_NAMES), min_size=1, max_size=4, unique=True))
    nodes = [{"metadata": {"name": n}, "status": {"allocatable": {
        "cpu": draw(st.sampled_from(["2", "4"])), "memory": "8Gi", "pods": draw(st.sampled_from(["2", "3", "110"]))}}}
        for n in names]
    pods = []
    for i in range(draw(st.integers(0, 8))):
        spec = {**draw(small_spec()), "priority": draw(PRIORITY), **draw(scheduler_name())}
        status: dict[str, Any] = {"phase": "Pending"}
        if draw(st.booleans()):
            spec["nodeName"] = draw(st.sampled_from(names))
        else:
            status["nominatedNodeName"] = draw(st.sampled_from([*names, "ghost"]))
        pods.append({"metadata": {"name": f"p{i}", "namespace": "ns"}, "spec": spec, "status": status})
    return nodes, pods


@SETTINGS
@given(cluster_pods=crowded_with_nominations(), pod=small_pod(), args=fit_args(), second_profile=st.booleans())
def test_fit_rank_counts_nominated_pods_as_the_scalar_model(
    cluster_pods: tuple[list[dict[str, Any]], list[dict[str, Any]]], pod: dict[str, Any], args: FitArgs,
    second_profile: bool,
) -> None:
    nodes, pods = cluster_pods
    profiles = (Profile("default-scheduler", fit=args), *([Profile("binpack")] if second_profile else []))
    model = KubeSchedulerModel(profiles=profiles)
    ranking = cluster(nodes, pods).rank(pod, model, top=0)
    feasible, reasons = expected_feasibility(pod, nodes, pods, args, nominations=True,
                                             scheduler_names=model.scheduler_names)
    assert list(ranking.scores) == expected_order(pod, feasible, args, 1)
    assert dict(ranking.reason_counts) == dict(reasons)


def expected_volcano_feasibility(
    pod: dict[str, Any], nodes: list[dict[str, Any]], pods: list[dict[str, Any]], model: VolcanoModel, filters: bool,
) -> tuple[dict[str, Any], Counter[str]]:
    """Per feasible node its NodeView, and every reason of every infeasible node (Volcano's scalar model)."""
    task = volcano_request(pod)
    feasible: dict[str, Any] = {}
    reasons: Counter[str] = Counter()
    by_name = {n["metadata"]["name"]: n for n in nodes}
    for view in node_views(nodes, pods):
        verdict = check_volcano_node(pod, by_name[view.name], task=task, idle=view.volcano_future_idle,
                                     pod_count=view.pod_count, max_task_num=view.volcano_max_task_num,
                                     predicates=model.predicates, used_ports=view.used_ports)
        if verdict.feasible or not filters:
            feasible[view.name] = view
        else:
            reasons.update(verdict.reasons)
    return feasible, reasons


PREDICATE_ARGS = st.one_of(st.none(), st.builds(VolcanoPredicateArgs, st.booleans(), st.booleans(), st.booleans()))


@SETTINGS
@given(
    nodes=st.lists(node(), max_size=6).map(unique_by_name),
    pods=st.lists(bound_pod(), max_size=12),
    pod=incoming_pod(),
    args=binpack_args(),
    top=st.integers(0, 4),
    filters=st.booleans(),
    predicates=PREDICATE_ARGS,
)
def test_binpack_rank_equals_scalar_model(
    nodes: list[dict[str, Any]],
    pods: list[dict[str, Any]],
    pod: dict[str, Any],
    args: VolcanoBinpackArgs,
    top: int,
    filters: bool,
    predicates: VolcanoPredicateArgs | None,
) -> None:
    pods = unique_by_name(pods)
    model = VolcanoModel(actions=("allocate",), binpack=(args,), predicates=predicates)
    ranking = cluster(nodes, pods).rank(pod, model, top=top, filters=filters)
    feasible, reasons = expected_volcano_feasibility(pod, nodes, pods, model, filters)
    task = volcano_request(pod)
    want = {
        name: binpack_score_node(args, task, v.volcano_used, v.volcano_allocatable).score
        for name, v in feasible.items()
    }
    assert dict(ranking.reason_counts) == dict(reasons)
    assert ranking.feasible_nodes == len(feasible)
    # prioritizeNodes: the nodes whose Idle fits the task come first (with filters: the others need the
    # Releasing pods' room)
    second = {name for name, v in feasible.items() if filters and insufficient_resources(task, v.volcano_idle)}
    ordered = sorted(want.items(), key=lambda kv: (kv[0] in second, -kv[1], kv[0]))
    assert len(ranking.scores) == (len(ordered) if top == 0 else min(top, len(ordered)))
    for (got_name, got_score), (want_name, want_score) in zip(ranking.scores, ordered, strict=False):
        assert (got_name in second) == (want_name in second)
        assert abs(float(got_score) - want[got_name]) <= 1e-9 * max(1.0, abs(want[got_name]))
        assert abs(float(got_score) - want_score) <= 1e-9 * max(1.0, abs(want_score))


BALANCED_RESOURCES = ["cpu", "memory", "ephemeral-storage", "nvidia.com/gpu", "example.com/foo", "hugepages-2Mi"]


def expected_total_order(pod: dict[str, Any], feasible: dict[str, Any], args: FitArgs, fit_weight: int,
                         balanced: BalancedArgs, balanced_weight: int) -> list[Any]:
    """:func:`expected_order` with any BalancedAllocation args and weight (negative weights included)."""
    fit_request, real = fit_score_request(pod), actual_request(pod)
    rows = []
    for name, v in feasible.items():
        fit = fit_score_node(args, fit_request, v.fit_requested, v.allocatable).score
        bal = balanced_score_node(balanced, real, v.requested, v.allocatable)
        total = fit * fit_weight + (0 if bal.skipped else bal.score * balanced_weight)
        rows.append((-total, name, fit))
    return [(name, fit) for _, name, fit in sorted(rows)]


@SETTINGS
@given(
    nodes=st.lists(node(), max_size=6).map(unique_by_name),
    pods=st.lists(bound_pod(), max_size=12),
    pod=incoming_pod(),
    args=fit_args(),
    fit_weight=st.integers(1, 5),
    balanced=st.lists(st.sampled_from(BALANCED_RESOURCES), min_size=1, max_size=5, unique=True).flatmap(
        lambda names: st.lists(st.integers(1, 4), min_size=len(names), max_size=len(names)).map(
            lambda weights: BalancedArgs(tuple(ResourceWeight(n, w) for n, w in zip(names, weights, strict=True))))),
    balanced_weight=st.sampled_from([1, 2, 7, -3]),
    few_feasible=st.sampled_from([0, None]),
)
def test_rank_by_any_balanced_args_equals_scalar_model(
    nodes: list[dict[str, Any]],
    pods: list[dict[str, Any]],
    pod: dict[str, Any],
    args: FitArgs,
    fit_weight: int,
    balanced: BalancedArgs,
    balanced_weight: int,
    few_feasible: int | None,
) -> None:
    """The ranking's BalancedAllocation over every row, or (``few_feasible`` 0) over the feasible rows alone,
    orders nodes as the scalar model's total does, for any resources, weights and node values."""
    from linter.scoring.cluster import rank

    pods = unique_by_name(pods)
    model = KubeSchedulerModel(profiles=(Profile(
        "default-scheduler", fit=args, balanced=balanced,
        score_plugin_weights={"NodeResourcesFit": fit_weight, "NodeResourcesBalancedAllocation": balanced_weight}),))
    saved = rank._FEW_FEASIBLE
    rank._FEW_FEASIBLE = saved if few_feasible is None else few_feasible  # 0: always the feasible rows alone
    try:
        ranking = cluster(nodes, pods).rank(pod, model, top=0)
    finally:
        rank._FEW_FEASIBLE = saved
    feasible, _ = expected_feasibility(pod, nodes, pods, args, True, nominations=True)
    assert list(ranking.scores) == expected_total_order(pod, feasible, args, fit_weight, balanced, balanced_weight)


@SETTINGS
@given(
    nodes=st.lists(node(), min_size=1, max_size=6).map(unique_by_name),
    pods=st.lists(bound_pod(), max_size=12),
    pod=incoming_pod(),
    balanced=st.lists(st.sampled_from(BALANCED_RESOURCES), min_size=1, max_size=5, unique=True).map(
        lambda names: BalancedArgs(tuple(ResourceWeight(n, 1) for n in names))),
    subset=st.booleans(),
)
def test_balanced_scores_equal_the_scalar_plugin_node_for_node(
    nodes: list[dict[str, Any]], pods: list[dict[str, Any]], pod: dict[str, Any], balanced: BalancedArgs,
    subset: bool,
) -> None:
    """The vectorised BalancedAllocation, over every row or over some rows, gives each node the scalar
    plugin's score (the ranking's total is built from it)."""
    import numpy as np

    from linter.scoring.cluster.balanced import balanced_scores

    pods = unique_by_name(pods)
    store = cluster(nodes, pods).store
    real = actual_request(pod)
    views = {v.name: v for v in node_views(nodes, pods)}
    rows = [r for r, name in enumerate(store.row_names[: store.size]) if name in views]
    picked = np.array(rows[::2] if subset else rows, np.int64)
    scores = balanced_scores(store, balanced, real, picked if subset else None)
    expected = [balanced_score_node(balanced, real, views[store.row_names[r]].requested,
                                    views[store.row_names[r]].allocatable) for r in picked]
    if scores is None:
        assert all(e.skipped for e in expected)
        return
    got = scores.tolist() if subset else scores[picked].tolist()
    assert got == [e.score for e in expected]


@st.composite
def nodes_with_cpu_and_memory(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Nodes that all have cpu and memory (no zero), the case the ranking's in-place two-resource path takes."""
    names = draw(st.lists(st.sampled_from(NODE_NAMES), min_size=1, max_size=6, unique=True))
    return [{"metadata": {"name": n}, "status": {"allocatable": {
        "cpu": draw(st.sampled_from(["1", "2", "7500m", "64", "3"])),
        "memory": draw(st.sampled_from(["1Gi", "3Gi", "8Gi", "256Gi", "1536Mi"])),
        "pods": "110"}}} for n in names]


@SETTINGS
@given(nodes=nodes_with_cpu_and_memory(), pods=st.lists(bound_pod(), max_size=12), pod=incoming_pod())
def test_balanced_scores_for_cpu_and_memory_on_every_node_equal_the_scalar_plugin(
    nodes: list[dict[str, Any]], pods: list[dict[str, Any]], pod: dict[str, Any],
) -> None:
    """The default BalancedAllocation (cpu, memory) on nodes that all have both: the in-place path gives each
    node the scalar plugin's score."""
    from linter.scoring.cluster.balanced import balanced_scores

    pods = unique_by_name(pods)
    store = cluster(nodes, pods).store
    real = actual_request(pod)
    views = {v.name: v for v in node_views(nodes, pods)}
    scores = balanced_scores(store, BalancedArgs(), real)
    expected = {name: balanced_score_node(BalancedArgs(), real, v.requested, v.allocatable)
                for name, v in views.items()}
    if scores is None:
        assert all(e.skipped for e in expected.values())
        return
    got = {store.row_names[r]: s for r, s in enumerate(scores.tolist()) if store.row_names[r] in views}
    assert got == {name: e.score for name, e in expected.items()}


@SETTINGS
@given(
    nodes=st.one_of(nodes_with_cpu_and_memory(), st.lists(node(), min_size=1, max_size=6).map(unique_by_name)),
    pods=st.lists(bound_pod(), max_size=12),
    pod=incoming_pod(),
    balanced=st.one_of(st.just(BalancedArgs()), st.lists(
        st.sampled_from(BALANCED_RESOURCES), min_size=1, max_size=5, unique=True).map(
        lambda names: BalancedArgs(tuple(ResourceWeight(n, 1) for n in names)))),
)
def test_bounded_balanced_scores_equal_the_scalar_plugin_node_for_node(
    nodes: list[dict[str, Any]], pods: list[dict[str, Any]], pod: dict[str, Any], balanced: BalancedArgs,
) -> None:
    """The ranking's float64 BalancedAllocation for the usual case gives each node the scalar plugin's score
    whenever it applies, and applies to the default resources on nodes that all have cpu and memory."""
    from linter.scoring.cluster.balanced import bounded_balanced_scores, skips_pod

    pods = unique_by_name(pods)
    store = cluster(nodes, pods).store
    real = actual_request(pod)
    if skips_pod(balanced, real):
        return
    views = {v.name: v for v in node_views(nodes, pods)}
    scores = bounded_balanced_scores(store, balanced, real)
    every_row_a_node = store.present_count() == store.size  # pods bound to a missing node have a row too
    all_positive = all(v.allocatable.get(r, 0) > 0 for v in views.values() for r in ("cpu", "memory"))
    if balanced == BalancedArgs() and every_row_a_node and all_positive:
        assert scores is not None
    if scores is None:
        return
    got = {store.row_names[r]: s for r, s in enumerate(scores.tolist()) if store.row_names[r] in views}
    assert got == {name: float(balanced_score_node(balanced, real, v.requested, v.allocatable).score)
                   for name, v in views.items()}


@SETTINGS
@given(
    nodes=st.one_of(nodes_with_cpu_and_memory(), st.lists(node(), min_size=1, max_size=6).map(unique_by_name)),
    pods=st.lists(bound_pod(), max_size=12),
    pod=incoming_pod(),
    args=fit_args(),
    fit_weight=st.integers(0, 4),
    balanced_weight=st.integers(1, 4),
)
def test_bounded_totals_equal_the_general_totals(
    nodes: list[dict[str, Any]], pods: list[dict[str, Any]], pod: dict[str, Any], args: FitArgs,
    fit_weight: int, balanced_weight: int,
) -> None:
    """The float64 totals of the usual case equal the int64 ones row for row and lie within their bound."""
    from linter.scoring.cluster import rank
    from linter.scoring.cluster.balanced import skips_pod
    from linter.scoring.cluster.scores import fit_scores

    pods = unique_by_name(pods)
    store = cluster(nodes, pods).store
    real = actual_request(pod)
    if skips_pod(BalancedArgs(), real):
        return
    scores, in_range = fit_scores(store, args, fit_score_request(pod))
    bounded = rank._bounded_totals(store, store.size, scores, in_range, fit_weight, BalancedArgs(),
                                   balanced_weight, real)
    views = {v.name: v for v in node_views(nodes, pods)}
    every_row_a_node = store.present_count() == store.size  # pods bound to a missing node have a row too
    if in_range and every_row_a_node and all(
            v.allocatable.get(r, 0) > 0 for v in views.values() for r in ("cpu", "memory")):
        assert bounded is not None
    if bounded is None:
        return
    got, largest = bounded[0].tolist(), bounded[1]
    present = [r for r in range(store.size) if store.row_names[r] in views]
    infeasible = ~store.present[: store.size]
    want = rank._totals(store, infeasible, store.size, scores, fit_weight, BalancedArgs(), balanced_weight, real)
    assert want is not None
    assert [got[r] for r in present] == [float(want[r]) for r in present]
    assert all(0 <= got[r] <= largest for r in present)
