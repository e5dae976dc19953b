"""Pod mutation: the Priority plugin's rules, then the score and prediction annotations (patches applied)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from webhook_helpers import (
    apply_response_patch,
    builtin_priority_classes,
    fixture_nodes,
    node,
    patch_ops,
    pod,
    priority_class,
    request_of,
    review,
)

from linter.formats.volcano.handler import analyze
from linter.model import FitArgs, KubeSchedulerModel, Profile, VolcanoBinpackArgs, VolcanoModel
from linter.scoring.requests import fit_score_request, node_allocatable
from linter.scoring.strategies import fit_score_node
from linter.source import parse_documents
from webhook.admission.decide import pods
from webhook.admission.decide.pods import PREDICTION_ANNOTATION, SCORES_ANNOTATION, TOTAL_ANNOTATION_SIZE_LIMIT
from webhook.admission.encode import encode
from webhook.admission.ports import ViewNotReady
from webhook.admission.scheduler_models import SchedulerModels
from webhook.cluster.static import StaticClusterView
from webhook.settings import Settings

CLASSES = [*builtin_priority_classes(), priority_class("high", 1000, policy="Never")]


def _decide(
    obj: dict[str, Any],
    view: StaticClusterView,
    *,
    operation: str = "CREATE",
    models: SchedulerModels | None = None,
    **settings: Any,
) -> dict[str, Any]:
    document = review("Pod", operation, obj, obj if operation == "UPDATE" else None)
    decision = pods.decide(request_of(document), view, Settings(**settings), models or SchedulerModels.static())
    response: dict[str, Any] = encode(document["request"]["uid"], decision)["response"]
    return response


def _annotations(obj: dict[str, Any], response: dict[str, Any]) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    annotations = apply_response_patch(obj, response)["metadata"].get("annotations", {})
    scores = json.loads(annotations[SCORES_ANNOTATION]) if SCORES_ANNOTATION in annotations else None
    return scores, json.loads(annotations[PREDICTION_ANNOTATION])


@pytest.fixture
def cluster() -> StaticClusterView:
    return StaticClusterView(nodes=fixture_nodes(), priority_classes=CLASSES)


def test_resolved_pod_gets_no_priority_patch(cluster: StaticClusterView) -> None:
    obj = pod(priorityClassName="high", priority=1000, preemptionPolicy="Never", nodeName="node-a")
    response = _decide(obj, cluster)
    assert response["allowed"] is True and "patch" not in response


def test_named_class_fills_priority_and_policy(cluster: StaticClusterView) -> None:
    obj = pod(priorityClassName="high", nodeName="node-a")
    spec = apply_response_patch(obj, _decide(obj, cluster))["spec"]
    assert (spec["priority"], spec["preemptionPolicy"], spec["priorityClassName"]) == (1000, "Never", "high")


def test_lowest_valued_default_wins_and_empty_class_name_is_replaced() -> None:
    view = StaticClusterView(
        priority_classes=[
            priority_class("d-high", 20, global_default=True),
            priority_class("d-low", 10, global_default=True),
        ]
    )
    obj = pod(priorityClassName="", nodeName="n")
    response = _decide(obj, view)
    assert {"op": "replace", "path": "/spec/priorityClassName", "value": "d-low"} in patch_ops(response)
    assert apply_response_patch(obj, response)["spec"]["priority"] == 10


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            {"priority": 5},
            'pods "web" is forbidden: the integer value of priority (5) must not be provided in pod spec; '
            "priority admission controller computed 0 from the given PriorityClass name",
        ),
        (
            {"priorityClassName": "high", "preemptionPolicy": "PreemptLowerPriority"},
            'pods "web" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be '
            "provided in pod spec; priority admission controller computed Never from the given PriorityClass name",
        ),
    ],
)
def test_user_set_values_that_disagree_are_forbidden(
    cluster: StaticClusterView, spec: dict[str, Any], message: str
) -> None:
    response = _decide(pod(**spec), cluster)
    assert response["status"] == {"code": 403, "message": message, "reason": "Forbidden"}


@pytest.mark.parametrize("priority", [2**31, -(2**31) - 1, 1.5, "1000", True])
def test_a_priority_go_cannot_decode_is_a_bad_request(cluster: StaticClusterView, priority: Any) -> None:
    # the API server's int32 decoding refuses these before any admission: never a 403 about their value
    response = _decide(pod(priorityClassName="high", priority=priority), cluster)
    assert response["status"] == {"code": 400, "message": "spec.priority: must be a 32-bit integer",
                                  "reason": "BadRequest"}


def test_the_int32_bounds_are_priorities(cluster: StaticClusterView) -> None:
    for priority in (2**31 - 1, -(2**31)):
        message = (f'pods "web" is forbidden: the integer value of priority ({priority}) must not be provided in pod '
                   "spec; priority admission controller computed 1000 from the given PriorityClass name")
        assert _decide(pod(priorityClassName="high", priority=priority), cluster)["status"]["message"] == message


def test_generate_name_then_unknown_in_messages(cluster: StaticClusterView) -> None:
    obj = pod(priorityClassName="gold")
    obj["metadata"] = {"generateName": "job-", "namespace": "default"}
    expected = 'pods "job-" is forbidden: no PriorityClass with name gold was found'
    assert _decide(obj, cluster)["status"]["message"] == expected
    obj["metadata"] = {"namespace": "default"}
    assert _decide(obj, cluster)["status"]["message"].startswith('pods "Unknown" is forbidden')


def test_update_is_allowed_untouched(cluster: StaticClusterView) -> None:
    obj = pod(priorityClassName="no-such-class")
    response = _decide(obj, cluster, operation="UPDATE")
    assert response["allowed"] is True and "patch" not in response


def test_other_kind_is_a_bad_request_denial(cluster: StaticClusterView) -> None:
    document = review("ConfigMap", "CREATE", {"metadata": {"name": "x"}})
    decision = pods.decide(request_of(document), cluster, Settings(), SchedulerModels.static())
    assert (decision.allowed, decision.code, decision.reason) == (False, 400, "BadRequest")


def test_scores_match_the_scalar_scorer_and_are_best_first(cluster: StaticClusterView) -> None:
    obj = pod(requests={"cpu": "1500m", "memory": "3Gi"})
    response = _decide(obj, cluster)
    scores, prediction = _annotations(obj, response)
    assert scores is not None
    request = fit_score_request(obj)
    expected = {
        n["metadata"]["name"]: fit_score_node(
            FitArgs(), request, {}, node_allocatable(n["status"]["allocatable"])
        ).score
        for n in fixture_nodes()
    }
    assert scores == expected
    assert list(scores) == sorted(expected, key=lambda name: (-expected[name], name))
    assert prediction["engine"] == "k8s-fit" and prediction["profile"] == "default-scheduler"
    assert prediction["strategy"] == "LeastAllocated" and prediction["pluginWeight"] == 1
    assert prediction["feasibleNodes"] == prediction["totalNodes"] == len(expected)
    assert prediction["bestNode"] == next(iter(scores))
    assert "unschedulableReasons" not in prediction


def test_patch_is_idempotent(cluster: StaticClusterView) -> None:
    obj = pod(priorityClassName="high", requests={"cpu": "1"})
    once = apply_response_patch(obj, _decide(obj, cluster))
    again = _decide(once, cluster)
    assert again["allowed"] is True and "patch" not in again


@pytest.mark.parametrize(("top", "count"), [(1, 1), (2, 2), (0, 3), (10, 3)])
def test_top_k(cluster: StaticClusterView, top: int, count: int) -> None:
    obj = pod()
    scores, prediction = _annotations(obj, _decide(obj, cluster, top=top))
    assert scores is not None and len(scores) == count == prediction["top"]


def test_no_node_fits_reports_reason_counts(cluster: StaticClusterView) -> None:
    obj = pod(requests={"cpu": "1000"})
    scores, prediction = _annotations(obj, _decide(obj, cluster))
    assert scores == {} and prediction["feasibleNodes"] == 0 and prediction["bestNode"] is None
    assert sum(prediction["unschedulableReasons"].values()) == prediction["totalNodes"] == 3
    assert all("cpu" in reason for reason in prediction["unschedulableReasons"])


def test_reason_counts_count_every_shortage_of_a_node_as_the_message_does() -> None:
    """Go's FitError histogram counts each reason of a node's status: NodeResourcesFit lists every shortage,
    so a node short of cpu and memory counts under both (and a cordoned node under its one reason)."""
    cordoned = node("c", "64", "64Gi")
    cordoned["spec"] = {"unschedulable": True}
    view = StaticClusterView(nodes=[node("a", "1", "1Gi"), node("b", "4", "1Gi", pods="0"), cordoned],
                             priority_classes=CLASSES)
    _, prediction = _annotations(pod(requests={"cpu": "2", "memory": "2Gi"}), _decide(pod(requests={
        "cpu": "2", "memory": "2Gi"}), view))
    assert prediction["unschedulableReasons"] == {
        "Insufficient cpu": 1, "Insufficient memory": 2, "Too many pods": 1, "node(s) were unschedulable": 1}
    assert prediction["preemption"]["message"] == (
        "0/3 nodes are available: 1 Insufficient cpu, 1 Too many pods, 1 node(s) were unschedulable, "
        "2 Insufficient memory. no new claims to deallocate, preemption: 0/3 nodes are available: "
        "3 Preemption is not helpful for scheduling.")


GATED_NOTE = (
    "the scheduler does not try to place this pod until all of its spec.schedulingGates are removed; this "
    "prediction is for the cluster as it is at admission, as if they were removed then"
)


def test_a_gated_pod_is_predicted_as_if_ungated_and_says_so(cluster: StaticClusterView) -> None:
    """kube-scheduler's SchedulingGates PreEnqueue plugin keeps the pod out of the queue until its gates are gone."""
    gates = [{"name": f"example.com/gate-{i}"} for i in range(7)]
    obj = pod(requests={"cpu": "1500m", "memory": "3Gi"}, schedulingGates=gates)
    scores, prediction = _annotations(obj, _decide(obj, cluster))
    plain = pod(requests={"cpu": "1500m", "memory": "3Gi"})
    plain_scores, plain_prediction = _annotations(plain, _decide(plain, cluster))
    assert scores == plain_scores
    assert prediction.pop("gated") == {"gates": [f"example.com/gate-{i}" for i in range(5)], "gateCount": 7,
                                       "note": GATED_NOTE}
    assert prediction == plain_prediction  # the rest of the format is unchanged


def test_an_ungated_pod_has_no_gated_field(cluster: StaticClusterView) -> None:
    obj = pod(schedulingGates=[])
    _, prediction = _annotations(obj, _decide(obj, cluster))
    assert "gated" not in prediction


def test_a_gated_pod_with_an_unknown_scheduler_says_it_is_gated(cluster: StaticClusterView) -> None:
    obj = pod(schedulerName="my-scheduler", schedulingGates=[{"name": "g"}])
    scores, prediction = _annotations(obj, _decide(obj, cluster))
    assert scores is None and prediction["scored"] is False
    assert prediction["gated"] == {"gates": ["g"], "gateCount": 1, "note": GATED_NOTE}


def test_bound_pod_gets_no_annotations(cluster: StaticClusterView) -> None:
    obj = pod(nodeName="node-a", priority=0, preemptionPolicy="PreemptLowerPriority")
    assert "patch" not in _decide(obj, cluster)


@pytest.mark.parametrize("scheduler", ["my-scheduler", "volcano"])
def test_unknown_scheduler_gets_a_prediction_saying_why(cluster: StaticClusterView, scheduler: str) -> None:
    obj = pod(schedulerName=scheduler)
    scores, prediction = _annotations(obj, _decide(obj, cluster))
    assert scores is None
    assert prediction["scored"] is False and prediction["schedulerName"] == scheduler
    assert scheduler in prediction["reason"]


def test_second_profile_and_volcano_models_are_used(cluster: StaticClusterView) -> None:
    kube = KubeSchedulerModel(
        profiles=(
            Profile(scheduler_name="default-scheduler"),
            Profile(
                scheduler_name="packer",
                fit=FitArgs(strategy="MostAllocated"),
                score_plugin_weights={"NodeResourcesFit": 5},
            ),
        )
    )
    volcano = VolcanoModel(actions=("allocate",), binpack=(VolcanoBinpackArgs(weight=10),))
    models = SchedulerModels.static(kube, volcano)
    packed = pod(schedulerName="packer", requests={"cpu": "2", "memory": "1Gi"})
    _, prediction = _annotations(packed, _decide(packed, cluster, models=models))
    assert (prediction["profile"], prediction["strategy"], prediction["pluginWeight"]) == ("packer", "MostAllocated", 5)
    batch = pod(schedulerName="gang", requests={"cpu": "2", "memory": "1Gi"})
    scores, prediction = _annotations(batch, _decide(batch, cluster, models=models, volcano_scheduler_name="gang"))
    assert prediction["engine"] == "volcano-binpack" and prediction["pluginWeight"] == 10
    assert scores is not None and len(scores) == 3


@pytest.mark.parametrize(("synced", "healthy", "says"), [(False, True, "first list"), (True, False, "lost its watch")])
def test_a_view_not_synced_and_fresh_decides_nothing(
    cluster: StaticClusterView, synced: bool, healthy: bool, says: str
) -> None:
    cluster.synced, cluster.healthy = synced, healthy
    with pytest.raises(ViewNotReady, match=says):
        _decide(pod(), cluster)


def test_annotations_never_exceed_the_total_size_limit() -> None:
    view = StaticClusterView(nodes=[node(f"node-{i:05d}-" + "x" * 200, "8", "32Gi") for i in range(1500)])
    obj = pod()
    filler = "f" * (TOTAL_ANNOTATION_SIZE_LIMIT - 60_000)
    obj["metadata"]["annotations"] = {"filler": filler, SCORES_ANNOTATION: "stale"}
    response = _decide(copy.deepcopy(obj), view, top=0)
    annotations = apply_response_patch(obj, response)["metadata"]["annotations"]
    total = sum(len(k.encode()) + len(v.encode()) for k, v in annotations.items())
    assert total <= TOTAL_ANNOTATION_SIZE_LIMIT
    scores = json.loads(annotations[SCORES_ANNOTATION])
    prediction = json.loads(annotations[PREDICTION_ANNOTATION])
    assert 0 < len(scores) < 1500 and prediction["top"] == len(scores)
    assert "1500" in prediction["truncated"]
    # Maximal: the next-best node would not have fitted.
    with view.scheduling_state() as state:
        ranked = state.rank(obj, SchedulerModels.static().current()[0], "default-scheduler", top=0).scores
    assert list(scores.items()) == [(name, score) for name, score in ranked[: len(scores)]]
    bigger = dict(ranked[: len(scores) + 1])
    grown = len(json.dumps(bigger, separators=(",", ":"))) - len(annotations[SCORES_ANNOTATION])
    assert total + grown > TOTAL_ANNOTATION_SIZE_LIMIT


def test_prediction_names_out_of_tree_scores_left_out(cluster: StaticClusterView, tmp_path: Any) -> None:
    config = tmp_path / "sched.yaml"
    config.write_text(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
        "- plugins:\n    score:\n      enabled: [{name: TargetLoadPacking, weight: 2}]\n"
        "  pluginConfig:\n  - name: TargetLoadPacking\n"
    )
    models = SchedulerModels(str(config), None, "scheduler-plugins")
    obj = pod(requests={"cpu": "1", "memory": "1Gi"})
    scores, prediction = _annotations(obj, _decide(obj, cluster, models=models))
    assert prediction["notModelledScorePlugins"] == {"TargetLoadPacking": 2}
    assert scores is not None  # NodeResourcesFit is still scored
    _, plain = _annotations(obj, _decide(obj, cluster))
    assert "notModelledScorePlugins" not in plain


def _annotation_bytes(annotations: dict[str, str]) -> int:
    """apimachinery ValidateAnnotationsSize: the sum of key and value lengths in bytes."""
    return sum(len(k.encode()) + len(v.encode()) for k, v in annotations.items())


def test_an_unscored_prediction_never_exceeds_the_total_size_limit(cluster: StaticClusterView) -> None:
    obj = pod(schedulerName="my-scheduler")
    obj["metadata"]["annotations"] = {"filler": "f" * (TOTAL_ANNOTATION_SIZE_LIMIT - len("filler") - 50)}
    response = _decide(copy.deepcopy(obj), cluster)
    annotations = apply_response_patch(obj, response)["metadata"]["annotations"]
    assert response["allowed"] is True and _annotation_bytes(annotations) <= TOTAL_ANNOTATION_SIZE_LIMIT
    assert set(annotations) == {"filler"}


def test_a_reinvocation_that_no_longer_scores_removes_the_stale_scores(cluster: StaticClusterView) -> None:
    first = apply_response_patch(pod(), _decide(pod(), cluster))
    assert SCORES_ANNOTATION in first["metadata"]["annotations"]
    first["spec"]["schedulerName"] = "my-scheduler"  # a later webhook changed it; the reinvocation sees this pod
    scores, prediction = _annotations(first, _decide(copy.deepcopy(first), cluster))
    assert scores is None and prediction["scored"] is False


def test_a_reinvocation_with_no_room_left_removes_ours(cluster: StaticClusterView) -> None:
    first = apply_response_patch(pod(), _decide(pod(), cluster))
    ours = first["metadata"]["annotations"]
    # a later webhook filled the room our annotations had: they must not stay and push the pod over the limit
    first["metadata"]["annotations"] = {**ours, "filler": "f" * (TOTAL_ANNOTATION_SIZE_LIMIT - len("filler") - 10)}
    annotations = apply_response_patch(first, _decide(copy.deepcopy(first), cluster))["metadata"]["annotations"]
    assert set(annotations) == {"filler"} and _annotation_bytes(annotations) <= TOTAL_ANNOTATION_SIZE_LIMIT


@pytest.mark.parametrize(("subresource", "operation", "kind", "obj"), [
    ("binding", "CREATE", {"group": "", "version": "v1", "kind": "Binding"},
     {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "web"},
      "target": {"kind": "Node", "name": "node-a"}}),
    ("eviction", "CREATE", {"group": "policy", "version": "v1", "kind": "Eviction"},
     {"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": "web"}}),
    ("status", "UPDATE", {"group": "", "version": "v1", "kind": "Pod"}, pod()),
    ("ephemeralcontainers", "UPDATE", {"group": "", "version": "v1", "kind": "Pod"}, pod()),
])
def test_subresources_are_allowed_untouched_whatever_their_kind(
    cluster: StaticClusterView, subresource: str, operation: str, kind: dict[str, str], obj: dict[str, Any]
) -> None:
    document = review("Pod", operation, obj, obj if operation == "UPDATE" else None)
    document["request"].update(kind=kind, subResource=subresource)
    decision = pods.decide(request_of(document), cluster, Settings(), SchedulerModels.static())
    assert decision.allowed is True and decision.patch == () and decision.warnings == ()


def test_volcano_prediction_names_the_node_order_plugins_it_leaves_out(cluster: StaticClusterView) -> None:
    conf = 'actions: "allocate"\ntiers:\n- plugins:\n  - name: nodeorder\n  - name: binpack\n  - name: usage\n'
    volcano = analyze(parse_documents(conf, "volcano-scheduler.conf")[0]).model
    assert isinstance(volcano, VolcanoModel)
    batch = pod(schedulerName="volcano", requests={"cpu": "2", "memory": "1Gi"})
    _, prediction = _annotations(batch, _decide(batch, cluster, models=SchedulerModels.static(None, volcano)))
    assert prediction["notModelledNodeOrderPlugins"] == ["nodeorder", "usage"]


def test_a_volcano_pod_gets_volcanos_reasons_and_message() -> None:
    """Volcano's allocate action (``Action.predicate``, then ``PredicatesPlugin.Predicate``): a node short of
    several resources counts once, under the first (cpu, memory, then scalars); the cordoned node passes the
    resource check and fails NodeUnschedulable; ``FitErrors.Error`` is the message."""
    cordoned = node("c", "64", "64Gi")
    cordoned["spec"] = {"unschedulable": True}
    view = StaticClusterView(nodes=[node("a", "1", "1Gi"), node("b", "4", "1Gi", pods="0"), cordoned],
                             priority_classes=CLASSES)
    conf = "actions: allocate\ntiers:\n- plugins:\n  - name: predicates\n  - name: usage\n  - name: binpack\n"
    volcano = analyze(parse_documents(conf, "volcano.conf")[0]).model
    assert isinstance(volcano, VolcanoModel)
    models = SchedulerModels.static(KubeSchedulerModel(profiles=(Profile(scheduler_name="default-scheduler"),)),
                                    volcano)
    obj = pod(requests={"cpu": "2", "memory": "2Gi"}, schedulerName="volcano")
    _, prediction = _annotations(obj, _decide(obj, view, models=models))
    assert prediction["unschedulableReasons"] == {
        "Insufficient cpu": 1, "Insufficient memory": 1, "node(s) were unschedulable": 1}
    assert prediction["message"] == ("0/3 nodes are unavailable: 1 Insufficient cpu, 1 Insufficient memory, "
                                     "1 node(s) were unschedulable.")
    assert prediction["notModelledPredicatePlugins"] == ["usage"]
    assert "preemption" not in prediction
