"""PodTopologySpread's model (linter.scoring.spread) on hand-worked cases."""

from __future__ import annotations

import math
from typing import Any

import pytest

from linter.scoring.gomath import go_log
from linter.scoring.labelselector import object_labels, selector_from
from linter.scoring.spread import (
    SYSTEM_DEFAULTS,
    BoundPods,
    SpreadNode,
    SpreadObjects,
    constraints_for,
    default_selector,
    label_set,
    prefilter,
    spread_scores,
)

ZONE, HOST = "topology.kubernetes.io/zone", "kubernetes.io/hostname"
NO_OBJECTS = SpreadObjects({}, {}, {}, {})


def node(name: str, zone: str | None = None, taints: list[dict[str, str]] | None = None, **labels: str
         ) -> SpreadNode:
    all_labels = {HOST: name, **labels}
    if zone is not None:
        all_labels[ZONE] = zone
    return SpreadNode.of({"metadata": {"name": name, "labels": all_labels}, "spec": {"taints": taints or []}})


def pod(labels: dict[str, str], constraints: list[dict[str, Any]] | None = None, **spec: Any) -> dict[str, Any]:
    return {"metadata": {"name": "new", "namespace": "default", "labels": labels},
            "spec": {"topologySpreadConstraints": constraints or [], **spec}}


def bound(*placements: tuple[str, dict[str, str]], namespace: str = "default") -> BoundPods:
    pods = BoundPods()
    for where, labels in placements:
        pods.add(where, namespace, label_set(labels))
    return pods


def zone_constraint(max_skew: int = 1, action: str = "DoNotSchedule", **extra: Any) -> dict[str, Any]:
    return {"maxSkew": max_skew, "topologyKey": ZONE, "whenUnsatisfiable": action,
            "labelSelector": {"matchLabels": {"app": "web"}}, **extra}


def verdicts(p: dict[str, Any], nodes: list[SpreadNode], pods: BoundPods) -> dict[str, str | None]:
    state = prefilter(p, "default", constraints_for(p, "DoNotSchedule", SYSTEM_DEFAULTS, None), nodes, pods)
    out: dict[str, str | None] = {}
    for n in nodes:
        v = state.check(n, object_labels(p)) if state is not None else None
        out[n.name] = None if v is None else v[0]
    return out


WEB = {"app": "web"}


def test_filter_rejects_the_zone_over_the_skew_and_a_node_without_the_key() -> None:
    nodes = [node("a1", "a"), node("b1", "b"), node("x")]
    pods = bound(("a1", WEB), ("a1", WEB), ("b1", WEB))  # a: 2, b: 1 -> a: 2 + 1 - 1 = 2 > 1
    assert verdicts(pod(WEB, [zone_constraint()]), nodes, pods) == {
        "a1": "Unschedulable", "b1": None, "x": "UnschedulableAndUnresolvable"}


def test_pod_that_does_not_match_its_own_selector_adds_no_self_match() -> None:
    nodes = [node("a1", "a"), node("b1", "b")]
    pods = bound(("a1", WEB), ("a1", WEB), ("b1", WEB))  # a: 2 + 0 - 1 = 1, not over 1
    assert verdicts(pod({"app": "other"}, [zone_constraint()]), nodes, pods) == {"a1": None, "b1": None}


def test_terminating_and_other_namespace_pods_do_not_count() -> None:
    nodes = [node("a1", "a"), node("b1", "b")]
    pods = bound(("a1", WEB), ("a1", WEB))
    pods.add("a1", "other", label_set(WEB))
    pods.add("b1", "default", label_set(WEB), terminating=True)
    assert verdicts(pod(WEB, [zone_constraint()]), nodes, pods)["a1"] == "Unschedulable"  # 2 + 1 - 0 = 3
    assert verdicts(pod(WEB, [zone_constraint(max_skew=3)]), nodes, pods)["a1"] is None


def test_min_domains_makes_the_global_minimum_zero() -> None:
    nodes = [node("a1", "a"), node("b1", "b")]
    pods = bound(("a1", WEB), ("b1", WEB), ("b1", WEB))  # min is 1; a: 1 + 1 - 1 = 1 passes
    assert verdicts(pod(WEB, [zone_constraint()]), nodes, pods)["a1"] is None
    # 2 domains < minDomains 3: the minimum is 0, a: 1 + 1 - 0 = 2 > 1
    assert verdicts(pod(WEB, [zone_constraint(minDomains=3)]), nodes, pods)["a1"] == "Unschedulable"


def test_node_affinity_policy_decides_whether_a_domain_counts() -> None:
    nodes = [node("a1", "a", pool="x"), node("b1", "b", pool="y")]  # b1 fails the nodeSelector
    pods = bound(("a1", WEB))
    honor = pod(WEB, [zone_constraint()], nodeSelector={"pool": "x"})
    # Honor: only zone a is a domain (min 1): a1 = 1 + 1 - 1 = 1 passes
    assert verdicts(honor, nodes, pods)["a1"] is None
    ignore = pod(WEB, [zone_constraint(nodeAffinityPolicy="Ignore")], nodeSelector={"pool": "x"})
    assert verdicts(ignore, nodes, pods)["a1"] == "Unschedulable"  # zone b counts 0: 1 + 1 - 0 = 2


def test_node_taints_policy_honor_leaves_out_untolerated_nodes() -> None:
    taint = [{"key": "k", "value": "v", "effect": "NoSchedule"}]
    nodes = [node("a1", "a"), node("b1", "b", taints=taint)]
    pods = bound(("a1", WEB))
    assert verdicts(pod(WEB, [zone_constraint()]), nodes, pods)["a1"] == "Unschedulable"  # Ignore: b counts 0
    assert verdicts(pod(WEB, [zone_constraint(nodeTaintsPolicy="Honor")]), nodes, pods)["a1"] is None


def test_match_label_keys_narrow_the_selector_to_the_pods_own_values() -> None:
    nodes = [node("a1", "a"), node("b1", "b")]
    pods = bound(("a1", {"app": "web", "rev": "1"}), ("a1", {"app": "web", "rev": "1"}))
    new = {"app": "web", "rev": "2"}
    assert verdicts(pod(new, [zone_constraint()]), nodes, pods)["a1"] == "Unschedulable"
    assert verdicts(pod(new, [zone_constraint(matchLabelKeys=["rev"])]), nodes, pods)["a1"] is None


def test_empty_selector_counts_no_pod_but_matches_the_pod_itself() -> None:
    nodes = [node("a1", "a"), node("b1", "b")]
    pods = bound(("a1", WEB), ("a1", WEB), ("a1", WEB))
    c = zone_constraint(labelSelector={})
    assert verdicts(pod(WEB, [c]), nodes, pods) == {"a1": None, "b1": None}  # 0 + 1 - 0 = 1


def test_nominated_pods_count_in_their_nodes_domain() -> None:
    nodes = [node("a1", "a"), node("b1", "b")]
    p = pod(WEB, [zone_constraint()])
    state = prefilter(p, "default", constraints_for(p, "DoNotSchedule", (), None), nodes, bound(("b1", WEB)))
    assert state is not None
    assert state.check(nodes[0], WEB) is None  # a: 0 + 1 - 0
    assert state.check(nodes[0], WEB, [("default", label_set(WEB))]) is None  # a: 1 + 1 - 1
    two = [("default", label_set(WEB))] * 2
    assert state.check(nodes[0], WEB, two) == ("Unschedulable", "node(s) didn't match pod topology spread "
                                                                "constraints")
    assert state.check(nodes[0], WEB, [("other", label_set(WEB))] * 2) is None  # other namespace


def test_default_selector_merges_services_then_the_replicaset_owner() -> None:
    p = pod({"app": "web", "tier": "fe"})
    p["metadata"]["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "rs",
                                         "controller": True}]
    objects = SpreadObjects({("default", "svc"): {"tier": "fe"}, ("default", "nomatch"): {"tier": "be"},
                             ("other", "svc"): {"app": "web"}}, {},
                            {("default", "rs"): {"matchExpressions": [{"key": "app", "operator": "In",
                                                                       "values": ["web"]}]}}, {})
    chosen = default_selector(p, objects)
    assert chosen.owner == "ReplicaSet rs" and not chosen.owner_missing
    assert chosen.selector.matches({"app": "web", "tier": "fe"})
    assert not chosen.selector.matches({"app": "web"})  # the Service's tier=fe is required
    assert not chosen.selector.matches({"tier": "fe"})  # the ReplicaSet's app In (web) too
    missing = default_selector(p, SpreadObjects({}, {}, {}, {}))
    assert missing.owner_missing and missing.selector.empty


def test_defaults_apply_only_without_own_constraints_and_with_a_selector() -> None:
    p = pod(WEB)
    assert constraints_for(p, "ScheduleAnyway", SYSTEM_DEFAULTS, default_selector(p, NO_OBJECTS)) == []
    svc = SpreadObjects({("default", "s"): WEB}, {}, {}, {})
    got = constraints_for(p, "ScheduleAnyway", SYSTEM_DEFAULTS, default_selector(p, svc))
    assert [(c.topology_key, c.max_skew) for c in got] == [(HOST, 3), (ZONE, 5)]
    assert constraints_for(p, "DoNotSchedule", SYSTEM_DEFAULTS, default_selector(p, svc)) == []
    own = pod(WEB, [zone_constraint(action="DoNotSchedule")])
    assert constraints_for(own, "ScheduleAnyway", SYSTEM_DEFAULTS, default_selector(own, svc)) == []


def test_system_default_scores_by_hand() -> None:
    # feasible a1 (zone a), b1 (zone b), x (no zone): zone domains a, b, "" -> weight ln 5; hostname: 3 nodes -> ln 5
    nodes = [node("a1", "a"), node("b1", "b"), node("x")]
    p = pod(WEB)
    svc = SpreadObjects({("default", "s"): WEB}, {}, {}, {})
    soft = constraints_for(p, "ScheduleAnyway", SYSTEM_DEFAULTS, default_selector(p, svc))
    got = spread_scores(p, "default", soft, False, nodes, nodes, bound(("a1", WEB), ("a1", WEB)))
    assert got is not None
    w = go_log(5.0)
    # a1: 2w + 2 (hostname) + 2w + 4 (zone) = 12.44 -> 12; b1: 2 + 4 = 6; x: hostname only, 2
    assert got.raw == {"a1": round(4 * w + 6), "b1": 6, "x": 2} == {"a1": 12, "b1": 6, "x": 2}
    # 100 * (12 + 2 - s) / 12, truncated
    assert got.normalized == {"a1": 16, "b1": 66, "x": 100}


def test_own_constraints_ignore_feasible_nodes_without_the_key() -> None:
    nodes = [node("a1", "a"), node("b1", "b"), node("x")]
    p = pod(WEB, [zone_constraint(max_skew=2, action="ScheduleAnyway")])
    soft = constraints_for(p, "ScheduleAnyway", SYSTEM_DEFAULTS, None)
    got = spread_scores(p, "default", soft, True, nodes, nodes, bound(("a1", WEB), ("b1", WEB), ("b1", WEB)))
    assert got is not None and got.ignored == {"x"}
    w = go_log(4.0)  # two zone domains
    assert got.raw == {"a1": round(w + 1), "b1": round(2 * w + 1), "x": 0} == {"a1": 2, "b1": 4, "x": 0}
    assert got.normalized == {"a1": 100, "b1": 50, "x": 0}  # 100 * (4 + 2 - s) / 4


def test_score_skips_without_schedule_anyway_constraints() -> None:
    p = pod(WEB, [zone_constraint()])
    soft = constraints_for(p, "ScheduleAnyway", SYSTEM_DEFAULTS, None)
    assert spread_scores(p, "default", soft, True, [node("a1", "a")], [node("a1", "a")], bound()) is None


def test_go_log_differs_from_libm_in_the_last_bit_for_three() -> None:
    assert go_log(3.0) != math.log(3.0)
    assert abs(go_log(3.0) - math.log(3.0)) < 1e-15
    assert go_log(5.0) == math.log(5.0)


def test_nil_selector_matches_nothing_and_empty_selects_everything() -> None:
    assert not selector_from(None).matches({})
    assert selector_from({}).matches({"a": "b"}) and selector_from({}).empty


def test_a_selector_that_does_not_convert_raises_apimachinerys_error_text() -> None:
    """PodTopologySpread and InterPodAffinity share one LabelSelectorAsSelector: the error names the field as
    labels.NewRequirement does (explain prints it after ``POD: spec.topologySpreadConstraints:``)."""
    bad_value = pod(WEB, [zone_constraint(labelSelector={"matchExpressions": [
        {"key": "app", "operator": "In", "values": ["a b"]}]})])
    with pytest.raises(ValueError, match=r'^values\[0\]\[app\]: Invalid value: "a b": a valid label must be'):
        constraints_for(bad_value, "DoNotSchedule", (), None)
    bad_op = pod(WEB, [zone_constraint(labelSelector={"matchExpressions": [{"key": "app", "operator": "Gt"}]})])
    with pytest.raises(ValueError, match=r'^"Gt" is not a valid label selector operator$'):
        constraints_for(bad_op, "DoNotSchedule", (), None)
