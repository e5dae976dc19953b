"""Volcano's allocate-action feasibility (ed72c7c), scalar model, on small hand-built clusters.

Each expected verdict is derived from the Go source named in the test's docstring: ``Action.predicate``
(allocate.go), ``PredicatesPlugin.Predicate``/``PrePredicate`` (plugins/predicates), ``Resource.
LessEqualWithResourcesName`` and ``NewResource`` (api/resource_info.go), ``NodeInfo.setNode``/``AddTask``/
``FutureIdle`` (api/node_info.go), ``getTaskStatus`` (api/helpers.go) and ``FitErrors.Error``
(api/unschedule_info.go).
"""

from __future__ import annotations

from typing import Any

import pytest

from linter.formats.volcano.handler import analyze
from linter.model import VolcanoModel, VolcanoPredicateArgs
from linter.scoring.nodes import NodeView, node_views
from linter.scoring.requests import volcano_request
from linter.scoring.volcano_feasibility import (
    REASON_AFFINITY_CONFLICT,
    REASON_POD_NUMBER,
    VolcanoVerdict,
    check_volcano_node,
    fit_errors_message,
    insufficient_resources,
    is_releasing,
)
from linter.source import parse_documents

ALL_ON = VolcanoPredicateArgs()


def node(name: str = "n1", alloc: dict[str, str] | None = None, **spec: Any) -> dict[str, Any]:
    return {"metadata": {"name": name, "labels": {"zone": "a"}}, "spec": spec,
            "status": {"allocatable": alloc if alloc is not None else {"cpu": "4", "memory": "8Gi", "pods": "110"}}}


def pod(name: str, cpu: str = "1", node_name: str | None = None, phase: str | None = "Running",
        deleting: bool = False, **spec: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"metadata": {"name": name, "namespace": "ns"},
                           "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": cpu}}}], **spec}}
    if node_name:
        out["spec"]["nodeName"] = node_name
    if phase:
        out["status"] = {"phase": phase}
    if deleting:
        out["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:00Z"
    return out


def verdict(incoming: dict[str, Any], the_node: dict[str, Any], bound: list[dict[str, Any]] | None = None,
            predicates: VolcanoPredicateArgs | None = ALL_ON) -> VolcanoVerdict:
    view: NodeView = node_views([the_node], bound or [])[0]
    return check_volcano_node(incoming, the_node, task=volcano_request(incoming), idle=view.volcano_future_idle,
                              pod_count=view.pod_count, max_task_num=view.volcano_max_task_num,
                              predicates=predicates, used_ports=view.used_ports)


def test_resource_check_uses_min_resource_tolerance() -> None:
    """``lessEqualFunc``: ``l < r || |l-r| < minResource`` (0.1) in Volcano units; a missing amount is 0."""
    assert insufficient_resources({"cpu": 1000.05, "memory": 0.0}, {"cpu": 1000.0, "memory": 0.0}) == []
    assert insufficient_resources({"cpu": 1000.2, "memory": 0.0}, {"cpu": 1000.0, "memory": 0.0}) == ["cpu"]
    # a task always compares cpu and memory: an overcommitted node refuses even a request of 0
    assert insufficient_resources({"cpu": 0.0, "memory": 0.0, "pods": 1.0},
                                  {"cpu": -500.0, "memory": 10.0, "pods": 5.0}) == ["cpu"]
    assert insufficient_resources({"cpu": 0.0, "memory": 0.0, "example.com/x": 1.0}, {"cpu": 1.0}) == \
        ["example.com/x"]


def test_only_the_first_short_resource_is_named() -> None:
    """``WrapInsufficientResourceReason``: "Insufficient " + resources[0]; cpu before memory before scalars."""
    big = pod("big", cpu="5")
    big["spec"]["containers"][0]["resources"]["requests"]["memory"] = "9Gi"
    got = verdict(big, node())
    assert got == VolcanoVerdict(False, "allocate", ("Insufficient cpu",), ("cpu", "memory"))


def test_several_short_scalars_are_named_in_name_order_and_all_kept() -> None:
    """Go iterates the task's ScalarResources map: the first short scalar is random; the model takes names in
    order and keeps every short one."""
    gpu = pod("gpu", cpu="1")
    gpu["spec"]["containers"][0]["resources"]["requests"].update({"nvidia.com/gpu": "1", "example.com/foo": "1"})
    got = verdict(gpu, node())
    assert got.reasons == ("Insufficient example.com/foo",)
    assert got.insufficient == ("example.com/foo", "nvidia.com/gpu")


@pytest.mark.parametrize(("phase", "deleting", "releasing"), [
    ("Running", True, True), ("Pending", True, True), ("Running", False, False),
    ("Unknown", True, False), (None, True, False),
])
def test_releasing_status(phase: str | None, deleting: bool, releasing: bool) -> None:
    """``getTaskStatus``: Running or Pending with a DeletionTimestamp is Releasing; Unknown stays Unknown."""
    assert is_releasing(pod("p", phase=phase, deleting=deleting)) is releasing


def test_a_releasing_pod_gives_its_room_back() -> None:
    """``FutureIdle = Idle + Releasing``: a terminating Running pod's request is free for the allocate action,
    while kube-scheduler (and ``Used``) still count it."""
    full = node(alloc={"cpu": "2", "memory": "8Gi", "pods": "110"})
    incoming = pod("in", cpu="1")
    assert verdict(incoming, full, [pod("old", cpu="2", node_name="n1")]).reasons == ("Insufficient cpu",)
    assert verdict(incoming, full, [pod("old", cpu="2", node_name="n1", deleting=True)]).feasible
    # a terminating pod in phase Unknown is not Releasing: it keeps its room
    assert not verdict(incoming, full, [pod("old", cpu="2", node_name="n1", phase="Unknown", deleting=True)]).feasible


def test_pod_number_check_after_the_resource_check() -> None:
    """The ``pods`` scalar (1 per task) is in the resource check; ``Predicate``'s ``MaxTaskNum <= len(pods)``
    counts the Releasing pods too, so only a Releasing pod makes the two differ."""
    two = node(alloc={"cpu": "4", "memory": "8Gi", "pods": "2"})
    bound = [pod("a", cpu="0", node_name="n1"), pod("b", cpu="0", node_name="n1", deleting=True)]
    got = verdict(pod("in", cpu="1"), two, bound)
    assert got == VolcanoVerdict(False, "predicates", (REASON_POD_NUMBER,))
    assert verdict(pod("in", cpu="1"), two, bound, predicates=None).feasible  # no predicates: resources only
    not_releasing = [bound[0], pod("c", cpu="0", node_name="n1")]
    assert verdict(pod("in", cpu="1"), two, not_releasing).reasons == ("Insufficient pods",)


def test_node_without_scalar_allocatable_keeps_only_releasing_scalars() -> None:
    """``NewResource`` leaves ``ScalarResources`` nil without a scalar name, and ``Resource.sub`` then skips the
    pods' scalars: FutureIdle's ``pods`` is the Releasing pods' count alone."""
    bare = node(alloc={"cpu": "4", "memory": "8Gi"})
    assert verdict(pod("in"), bare).reasons == ("Insufficient pods",)
    releasing = [pod("old", cpu="0", node_name="n1", deleting=True)]
    assert verdict(pod("in"), bare, releasing).reasons == (REASON_POD_NUMBER,)  # MaxTaskNum 0 <= 1 pod
    assert verdict(pod("in"), bare, releasing, predicates=None).feasible


def test_stable_filters_stop_at_the_first_failure() -> None:
    """NodeUnschedulable, NodeAffinity and TaintToleration are UnschedulableAndUnresolvable: ``ShouldAbort``."""
    tainted = node(unschedulable=True, taints=[{"key": "k", "effect": "NoSchedule"}])
    got = verdict(pod("in", nodeSelector={"zone": "b"}), tainted)
    assert got == VolcanoVerdict(False, "NodeUnschedulable", ("node(s) were unschedulable",))
    got = verdict(pod("in", nodeSelector={"zone": "b"}), node(taints=[{"key": "k", "effect": "NoSchedule"}]))
    assert got.reasons == ("node(s) didn't match Pod's node affinity/selector",)
    assert verdict(pod("in"), node(taints=[{"key": "k", "effect": "NoSchedule"}])).plugin == "TaintToleration"


def test_statuses_accumulate_until_an_abort() -> None:
    """The pod-number status does not abort; a stable filter's or NodePorts' status is added after it."""
    two = node(alloc={"cpu": "4", "memory": "8Gi", "pods": "1"}, unschedulable=True)
    bound = [pod("b", cpu="0", node_name="n1", deleting=True)]
    got = verdict(pod("in"), two, bound)
    assert got == VolcanoVerdict(False, "predicates", (REASON_POD_NUMBER, "node(s) were unschedulable"))
    ports = {"ports": [{"containerPort": 80, "hostPort": 80}]}
    holder = pod("h", cpu="0", node_name="n1", deleting=True)
    holder["spec"]["containers"][0].update(ports)
    wanting = pod("in")
    wanting["spec"]["containers"][0].update(ports)
    got = verdict(wanting, node(alloc={"cpu": "4", "memory": "8Gi", "pods": "1"}), [holder])
    assert got.reasons == (REASON_POD_NUMBER, "node(s) didn't have free ports for the requested pod ports")


def test_switched_off_filters_do_not_run() -> None:
    """``predicate.NodeAffinityEnable``/``TaintTolerationEnable``/``NodePortsEnable`` false: the plugin is not
    added to the filter order; NodeUnschedulable has no switch."""
    off = VolcanoPredicateArgs(node_affinity=False, node_ports=False, taint_toleration=False)
    assert verdict(pod("in", nodeSelector={"zone": "b"}), node(taints=[{"key": "k", "effect": "NoSchedule"}]),
                   predicates=off).feasible
    assert not verdict(pod("in"), node(unschedulable=True), predicates=off).feasible


def test_affinity_prefilter_conflict_rejects_every_node_before_resources() -> None:
    """``PrePredicateFn`` runs before ``PredicateNodes``; NodeAffinity's PreFilter conflict becomes
    ``plugin NodeAffinity pre-predicates failed pod affinity terms conflict`` on each node."""
    terms = [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["a"]},
                              {"key": "metadata.name", "operator": "In", "values": ["b"]}]}]
    pinned = pod("in", cpu="100", affinity={"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": terms}}})
    assert verdict(pinned, node()).reasons == (REASON_AFFINITY_CONFLICT,)
    assert verdict(pinned, node(), predicates=None).reasons == ("Insufficient cpu",)
    off = VolcanoPredicateArgs(node_affinity=False)
    assert verdict(pinned, node(), predicates=off).reasons == ("Insufficient cpu",)


def test_fit_errors_message_sorts_histogram_strings() -> None:
    """``FitErrors.Error``: "0/N nodes are unavailable: " + sorted "<count> <reason>" strings + "."."""
    got = fit_errors_message(12, {"Insufficient cpu": 10, "node(s) were unschedulable": 2})
    assert got == "0/12 nodes are unavailable: 10 Insufficient cpu, 2 node(s) were unschedulable."


def _model(text: str) -> VolcanoModel:
    model = analyze(parse_documents(text, "volcano.conf")[0]).model
    assert isinstance(model, VolcanoModel)
    return model


def test_conf_predicates_entry_and_switches() -> None:
    """``Session.PredicateFn`` calls the function of the last ``predicates`` entry (OnSessionOpen overwrites
    ``predicateFns``) once some entry has ``enablePredicate`` on; ``GetBool`` takes bools and ParseBool strings."""
    base = "actions: allocate\ntiers:\n- plugins:\n"
    assert _model(base + "  - name: binpack\n").predicates is None
    assert _model(base + "  - name: predicates\n    enablePredicate: false\n").predicates is None
    two = (base + "  - name: predicates\n  - name: predicates\n    enablePredicate: false\n    arguments:\n"
           "      predicate.NodeAffinityEnable: 'false'\n      predicate.TaintTolerationEnable: no\n"
           "      predicate.NodePortsEnable: 'yes'\n")
    assert _model(two).predicates == VolcanoPredicateArgs(node_affinity=False, node_ports=True,
                                                          taint_toleration=False)
    assert _model(base + "  - name: predicates\n    arguments: {predicate.NodePortsEnable: 0}\n").predicates == \
        ALL_ON


def test_conf_names_other_predicate_plugins() -> None:
    """deviceshare, nodegroup, numa-aware, tdm, usage register a predicate function; extender only with a
    predicate verb; an entry with ``enablePredicate: false`` is not called."""
    text = ("actions: allocate\ntiers:\n- plugins:\n  - name: usage\n  - name: extender\n"
            "  - name: extender\n    arguments: {extender.predicateVerb: filter}\n"
            "  - name: tdm\n    enablePredicate: false\n  - name: predicates\n  - name: nodegroup\n")
    assert _model(text).other_predicates == ("usage", "extender", "nodegroup")
