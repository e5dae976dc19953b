"""Volcano argument typing (reference/scoring.md §8.1) and the kube-scheduler filters' verdicts."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from linter.scoring.feasibility import (
    REASON_NODE_AFFINITY,
    REASON_NODE_NAME,
    REASON_TAINTS,
    REASON_UNSCHEDULABLE,
    check_node,
    fit_filter,
    node_affinity,
    taint_toleration,
)
from linter.scoring.volcano import binpack_score_node, parse_binpack_arguments


def parse(text: str) -> tuple[int, dict[str, int], bool]:
    args = parse_binpack_arguments(yaml.safe_load(text) or {})
    return args.weight, dict(args.resources), args.enable_node_order


def test_only_yaml_integers_are_taken() -> None:
    weight, res, _ = parse("binpack.weight: '10'\nbinpack.cpu: 2.5\nbinpack.memory: 2.0\n")
    assert (weight, res) == (1, {"cpu": 1, "memory": 1})
    weight, res, _ = parse("binpack.weight: true\nbinpack.cpu: [3]\nbinpack.memory: yes\n")
    assert (weight, res) == (1, {"cpu": 1, "memory": 1})


def test_yaml_1_1_integer_forms() -> None:
    weight, res, _ = parse("binpack.weight: 010\nbinpack.cpu: 0x1F\nbinpack.memory: 1_000\n")
    assert (weight, res["cpu"], res["memory"]) == (8, 31, 1000)


def test_negative_weights() -> None:
    weight, res, node_order = parse("binpack.weight: -2\nbinpack.cpu: -1\nbinpack.memory: -5\n")
    assert (weight, res, node_order) == (-2, {"cpu": 1, "memory": 1}, True)
    # weight 0: this occurrence registers no function, but its enableNodeOrder switch (default on) still
    # makes the scoring loop call the function another occurrence registered
    assert parse("binpack.weight: 0\n")[0::2] == (0, True)


def test_resources_list_rules() -> None:
    _, res, _ = parse("binpack.resources: ' a.com/x ,, b.com/y , cpu'\nbinpack.resources.a.com/x: -3\n"
                      "binpack.resources.b.com/y: 4\nbinpack.resources.cpu: 10\nbinpack.cpu: 0\n")
    assert res == {"cpu": 0, "memory": 1, "a.com/x": 1, "b.com/y": 4}
    assert list(res) == ["cpu", "memory", "a.com/x", "b.com/y"]
    _, res, _ = parse("binpack.resources: [a.com/x]\n")
    assert res == {"cpu": 1, "memory": 1}
    _, res, _ = parse("binpack.resources: a.com/x, a.com/x\nunknown.key: 3\n")
    assert res == {"cpu": 1, "memory": 1, "a.com/x": 1}


def test_whole_node_zero_and_missing_capacity() -> None:
    args = parse_binpack_arguments({"binpack.resources": "a.com/x", "binpack.resources.a.com/x": 2})
    task = {"cpu": 1000.0, "memory": 1.0, "a.com/x": 1000.0, "pods": 1.0}
    over = binpack_score_node(args, task, {"cpu": 3500.0}, {"cpu": 4000.0, "memory": 4.0, "a.com/x": 4000.0})
    assert (over.score, over.rejected_by) == (0.0, "cpu")
    absent = binpack_score_node(args, task, {}, {"cpu": 4000.0, "memory": 4.0})
    assert absent.weight_sum == 4 and absent.rejected_by is None  # the missing resource still weighs 2
    assert absent.score == pytest.approx((1000 / 4000 + 1 / 4) / 4 * 100)


def node(**spec: Any) -> dict[str, Any]:
    labels = spec.pop("labels", {})
    return {"metadata": {"name": "n1", "labels": labels}, "spec": spec}


def pod(**spec: Any) -> dict[str, Any]:
    return {"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c"}], **spec}}


def check(p: dict[str, Any], n: dict[str, Any]) -> tuple[str, ...]:
    return check_node(p, n, pod_request={}, pod_count=0, node_requested={}, node_allocatable={"pods": 10}).reasons


def test_filters_and_their_reason_texts() -> None:
    assert check(pod(), node(unschedulable=True)) == (REASON_UNSCHEDULABLE,)
    tolerant = pod(tolerations=[{"key": "node.kubernetes.io/unschedulable", "operator": "Exists",
                                 "effect": "NoSchedule"}])
    assert check(tolerant, node(unschedulable=True)) == ()
    assert check(pod(nodeName="other"), node()) == (REASON_NODE_NAME,)
    assert check(pod(nodeName="n1"), node()) == ()
    # The first failing filter wins: unschedulable is checked before taints.
    assert check(pod(), node(unschedulable=True, taints=[{"key": "k", "effect": "NoSchedule"}])) == (
        REASON_UNSCHEDULABLE,)


@pytest.mark.parametrize(("toleration", "tolerated"), [
    ({"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}, True),
    ({"key": "dedicated", "value": "gpu"}, True),
    ({"key": "dedicated", "operator": "Equal", "value": "cpu"}, False),
    ({"key": "dedicated", "operator": "Exists"}, True),
    ({"operator": "Exists"}, True),
    ({"key": "dedicated", "operator": "Exists", "effect": "NoExecute"}, False),
])
def test_tolerations(toleration: dict[str, str], tolerated: bool) -> None:
    n = node(taints=[{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"},
                     {"key": "soft", "effect": "PreferNoSchedule"}])
    assert taint_toleration(pod(tolerations=[toleration]), n) == (None if tolerated else REASON_TAINTS)


def _term(*exprs: dict[str, Any], fields: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    term: dict[str, Any] = {"matchExpressions": list(exprs)}
    if fields:
        term["matchFields"] = fields
    return {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [term]}}}}


@pytest.mark.parametrize(("expr", "matches"), [
    ({"key": "zone", "operator": "In", "values": ["a", "b"]}, True),
    ({"key": "zone", "operator": "NotIn", "values": ["a"]}, False),
    ({"key": "missing", "operator": "NotIn", "values": ["a"]}, True),
    ({"key": "zone", "operator": "Exists"}, True),
    ({"key": "zone", "operator": "DoesNotExist"}, False),
    ({"key": "gpus", "operator": "Gt", "values": ["3"]}, True),
    ({"key": "gpus", "operator": "Lt", "values": ["4"]}, False),
    ({"key": "zone", "operator": "Gt", "values": ["1"]}, False),  # label not an integer
    ({"key": "gpus", "operator": "Gt", "values": ["x"]}, False),  # invalid requirement: term ignored
    ({"key": "zone", "operator": "In", "values": []}, False),
    ({"key": "gpus", "operator": "Gt", "values": ["03"]}, True),  # a label value that ParseInt reads as 3
])
def test_node_affinity_operators(expr: dict[str, Any], matches: bool) -> None:
    n = node(labels={"zone": "a", "gpus": "4"})
    assert node_affinity(pod(**_term(expr)), n) == (None if matches else REASON_NODE_AFFINITY)


@pytest.mark.parametrize("expr", [
    {"key": "gpus", "operator": "Gt", "values": ["+3"]},  # ParseInt reads it, but it is not a label value
    {"key": "gpus", "operator": "Gt", "values": ["-1"]},  # no negative bound is ever a label value
    {"key": "zone", "operator": "In", "values": ["a", "b c"]},  # one bad value spoils the requirement
    {"key": "missing", "operator": "NotIn", "values": ["a b"]},
    {"key": "bad key", "operator": "DoesNotExist"},
    {"key": "a/b/c", "operator": "NotIn", "values": ["x"]},
])
def test_node_affinity_term_that_labels_new_requirement_refuses_matches_no_node(expr: dict[str, Any]) -> None:
    """labels.NewRequirement checks the key and every value (the API server checks neither the values nor
    the form of a Gt/Lt bound): a term it refuses matches nothing, even where the operator alone would."""
    n = node(labels={"zone": "a", "gpus": "4"})
    assert node_affinity(pod(**_term(expr)), n) == REASON_NODE_AFFINITY
    # matchFields values are compared as field values, never checked as label values
    by_field = _term(fields=[{"key": "metadata.name", "operator": "NotIn", "values": ["not a label!"]}])
    assert node_affinity(pod(**by_field), n) is None


def test_node_selector_and_match_fields() -> None:
    n = node(labels={"zone": "a"})
    assert node_affinity(pod(nodeSelector={"zone": "a"}), n) is None
    assert node_affinity(pod(nodeSelector={"zone": "b"}), n) == REASON_NODE_AFFINITY
    by_name = _term(fields=[{"key": "metadata.name", "operator": "In", "values": ["n1"]}])
    assert node_affinity(pod(**by_name), n) is None
    other = _term(fields=[{"key": "metadata.name", "operator": "NotIn", "values": ["n1"]}])
    assert node_affinity(pod(**other), n) == REASON_NODE_AFFINITY
    empty: dict[str, Any] = {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{}]}}}}
    assert node_affinity(pod(**empty), n) == REASON_NODE_AFFINITY


def test_fit_filter_reasons() -> None:
    alloc = {"pods": 2, "cpu": 4000, "memory": 100, "b.com/y": 1, "a.com/x": 1}
    used = {"cpu": 3500, "memory": 10}
    want = {"cpu": 1000, "memory": 10, "b.com/y": 2, "a.com/x": 2}
    assert fit_filter(want, 2, used, alloc) == ["Too many pods", "Insufficient cpu", "Insufficient a.com/x",
                                                "Insufficient b.com/y"]
    assert fit_filter(want, 0, used, alloc, ignored_resources=["a.com/x"], ignored_resource_groups=["b.com"]) == [
        "Insufficient cpu"]
    assert fit_filter({}, 2, used, alloc) == ["Too many pods"]
    assert fit_filter({"cpu": 0, "memory": 0}, 0, {}, {"pods": 1}) == []


def test_node_affinity_prefilter_pins_node_names() -> None:
    """DaemonSet-style ``matchFields metadata.name In`` rejects other nodes before any filter runs."""
    pinned = pod(**_term(fields=[{"key": "metadata.name", "operator": "In", "values": ["other"]}]))
    unschedulable = node(unschedulable=True)
    assert check(pinned, unschedulable) == ("node(s) didn't satisfy plugin(s) [NodeAffinity]",)
    here = pod(**_term(fields=[{"key": "metadata.name", "operator": "In", "values": ["n1"]}]))
    assert check(here, unschedulable) == (REASON_UNSCHEDULABLE,)
    conflict = {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["a"]},
                         {"key": "metadata.name", "operator": "In", "values": ["b"]}]}]}}}}
    assert check(pod(**conflict), node()) == ("pod affinity terms conflict",)
    mixed = {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["other"]}]},
        {"matchExpressions": [{"key": "zone", "operator": "Exists"}]}]}}}}
    assert check(pod(**mixed), node(labels={"zone": "a"})) == ()  # a term without names: all nodes stay
