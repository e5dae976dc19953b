"""InterPodAffinity (linter.scoring.podaffinity) on hand-worked cases from kube-scheduler 1.36's
interpodaffinity/filtering.go and scoring.go and framework.PodInfo (see the module docstrings).

Every expected value below was worked out by hand from the Go code, not by running the model.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from linter.scoring.labelselector import SelectorError, selector_from
from linter.scoring.podaffinity import (
    BoundPods,
    filter_node,
    filter_node_with_nominated,
    fold_label_keys,
    normalize,
    pod_terms,
    prefilter,
    prescore,
    raw_score,
)

AFF = "node(s) didn't match pod affinity rules"
ANTI = "node(s) didn't match pod anti-affinity rules"
EXISTING = "node(s) didn't satisfy existing pods anti-affinity rules"
UNRES = "UnschedulableAndUnresolvable"
UNSCHED = "Unschedulable"

# n1, n2 in zone a; n3 in zone b; n4 without labels
NODES: list[dict[str, str]] = [
    {"kubernetes.io/hostname": "n1", "zone": "a"},
    {"kubernetes.io/hostname": "n2", "zone": "a"},
    {"kubernetes.io/hostname": "n3", "zone": "b"},
    {},
]
NS = {"default": {"kubernetes.io/metadata.name": "default"},
      "prod": {"kubernetes.io/metadata.name": "prod", "team": "x"}}


def term(labels: Mapping[str, str] | None, key: str, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"topologyKey": key, **extra}
    if labels is not None:
        out["labelSelector"] = {"matchLabels": dict(labels)}
    return out


def affinity(req: list[Any] | None = None, anti: list[Any] | None = None,
             pref: list[Any] | None = None, pref_anti: list[Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if req or pref:
        out["podAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution": req or [],
                              "preferredDuringSchedulingIgnoredDuringExecution": pref or []}
    if anti or pref_anti:
        out["podAntiAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution": anti or [],
                                  "preferredDuringSchedulingIgnoredDuringExecution": pref_anti or []}
    return out


def bound(*pods: tuple[int, str, Mapping[str, str], Any]) -> BoundPods:
    out = BoundPods(NODES)
    for node, ns, labels, aff in pods:
        out.add(node, ns, labels, aff)
    return out


def run_filter(labels: Mapping[str, str], aff: Any, pods: BoundPods, ns: str = "default",
               namespaces: Mapping[str, Mapping[str, str]] | None = NS) -> list[tuple[str, str] | None] | str:
    pre = prefilter(ns, labels, pod_terms(ns, aff), pods, namespaces)
    if pre.skip:
        return "skip"
    if pre.status is not None:
        return pre.status[1]
    assert pre.state is not None
    return [filter_node(pre.state, n) for n in NODES]


def test_required_affinity_zone_and_node_without_key() -> None:
    pods = bound((0, "default", {"app": "db"}, None))
    got = run_filter({"app": "web"}, affinity(req=[term({"app": "db"}, "zone")]), pods)
    # db runs in zone a: n1, n2 pass; n3 (zone b) and n4 (no zone label) fail, unresolvable
    assert got == [None, None, (UNRES, AFF), (UNRES, AFF)]


def test_first_pod_of_a_self_selecting_group_passes_where_the_key_exists() -> None:
    # nobody matches app=web anywhere and the pod matches its own term: every node with the key passes
    got = run_filter({"app": "web"}, affinity(req=[term({"app": "web"}, "zone")]), bound())
    assert got == [None, None, None, (UNRES, AFF)]
    # the same pod without the label it selects: nowhere
    got = run_filter({"app": "other"}, affinity(req=[term({"app": "web"}, "zone")]), bound())
    assert got == [(UNRES, AFF)] * 4


def test_self_match_is_lost_once_any_pair_is_counted() -> None:
    # a matching pod on n3 (zone b) makes the count non-empty: zone a nodes now fail
    pods = bound((2, "default", {"app": "web"}, None))
    got = run_filter({"app": "web"}, affinity(req=[term({"app": "web"}, "zone")]), pods)
    assert got == [(UNRES, AFF), (UNRES, AFF), None, (UNRES, AFF)]


def test_affinity_needs_one_pod_matching_all_terms() -> None:
    # one pod has app=db, the other tier=1: no single pod matches both terms, nothing is counted;
    # the pending pod does not match them itself either
    pods = bound((0, "default", {"app": "db"}, None), (0, "default", {"tier": "1"}, None))
    aff = affinity(req=[term({"app": "db"}, "zone"), term({"tier": "1"}, "zone")])
    assert run_filter({}, aff, pods) == [(UNRES, AFF)] * 4


def test_anti_affinity_of_the_pod_and_of_bound_pods() -> None:
    pods = bound((0, "default", {"app": "web"}, None))
    got = run_filter({"app": "web"}, affinity(anti=[term({"app": "web"}, "kubernetes.io/hostname")]), pods)
    assert got == [(UNSCHED, ANTI), None, None, None]
    # symmetric: a bound pod's zone anti-affinity selects the pending pod
    pods = bound((2, "default", {"app": "cache"}, affinity(anti=[term({"app": "web"}, "zone")])))
    got = run_filter({"app": "web"}, None, pods)
    assert got == [None, None, (UNSCHED, EXISTING), None]


def test_skip_without_terms_or_matching_bound_anti_affinity() -> None:
    pods = bound((2, "default", {"app": "cache"}, affinity(anti=[term({"app": "other"}, "zone")])))
    assert run_filter({"app": "web"}, None, pods) == "skip"


def test_affinity_is_checked_before_anti_affinity() -> None:
    pods = bound((0, "default", {"app": "db"}, None), (1, "default", {"app": "web"}, None))
    aff = affinity(req=[term({"app": "db"}, "zone")], anti=[term({"app": "web"}, "kubernetes.io/hostname")])
    assert run_filter({"app": "web"}, aff, pods) == [None, (UNSCHED, ANTI), (UNRES, AFF), (UNRES, AFF)]


def test_namespaces_default_list_and_selector() -> None:
    pods = bound((0, "prod", {"app": "db"}, None))
    # no namespaces, no selector: the pod's own namespace only
    assert run_filter({}, affinity(req=[term({"app": "db"}, "zone")]), pods)[0] == (UNRES, AFF)
    # an explicit list
    assert run_filter({}, affinity(req=[term({"app": "db"}, "zone", namespaces=["prod"])]), pods)[0] is None
    # {} selects every namespace
    assert run_filter({}, affinity(req=[term({"app": "db"}, "zone", namespaceSelector={})]), pods)[0] is None
    # a selector resolved against the Namespaces' labels
    sel = {"matchLabels": {"team": "x"}}
    assert run_filter({}, affinity(req=[term({"app": "db"}, "zone", namespaceSelector=sel)]), pods)[0] is None
    sel = {"matchLabels": {"team": "y"}}
    assert run_filter({}, affinity(req=[term({"app": "db"}, "zone", namespaceSelector=sel)]), pods)[0] \
        == (UNRES, AFF)


def test_bound_pods_namespace_selector_reads_the_pending_pods_namespace() -> None:
    sel = {"matchLabels": {"team": "x"}}
    pods = bound((0, "default", {}, affinity(anti=[term({"app": "web"}, "zone", namespaceSelector=sel)])))
    assert run_filter({"app": "web"}, None, pods, ns="prod")[:2] == [(UNSCHED, EXISTING)] * 2
    assert run_filter({"app": "web"}, None, pods, ns="default") == "skip"
    # without Namespaces the prod labels are unknown: no match, and the outcome says so
    pre = prefilter("prod", {"app": "web"}, pod_terms("prod", None), pods, None)
    assert pre.skip and pre.needs_namespaces


def test_unparsable_term_fails_prefilter() -> None:
    bad = {"topologyKey": "zone", "labelSelector": {"matchExpressions": [{"key": "a", "operator": "In"}]}}
    got = run_filter({}, affinity(pref=[{"weight": 1, "podAffinityTerm": bad}]), bound())
    assert isinstance(got, str) and got.startswith("parsing pod: preferredAffinityTerms: values: ")


def test_nil_selector_matches_nothing_empty_matches_everything() -> None:
    assert not selector_from(None).matches({})
    assert selector_from({}).matches({"a": "b"})
    assert selector_from({"matchExpressions": [{"key": "a", "operator": "NotIn", "values": ["x"]}]}).matches({})
    with pytest.raises(SelectorError):
        selector_from({"matchExpressions": [{"key": "a", "operator": "Gt", "values": ["1"]}]})


def score(labels: Mapping[str, str], aff: Any, pods: BoundPods, feasible: list[int], *, hard: int = 1,
          ignore: bool = False) -> list[int] | None:
    state = prescore("default", labels, pod_terms("default", aff), pods, NS, hard_pod_affinity_weight=hard,
                     ignore_preferred_terms_of_existing_pods=ignore)
    if state.topology is None:
        return None
    return normalize([raw_score(state.topology, NODES[i]) for i in feasible])


def test_preferred_terms_both_ways_and_normalisation() -> None:
    pods = bound((0, "default", {"app": "db"}, None), (2, "default", {"app": "web"}, None))
    aff = affinity(pref=[{"weight": 30, "podAffinityTerm": term({"app": "db"}, "zone")}],
                   pref_anti=[{"weight": 10, "podAffinityTerm": term({"app": "web"}, "zone")}])
    # zone a: +30, zone b: -10 -> raw n1 30, n2 30, n3 -10 -> (s+10)/40*100
    assert score({}, aff, pods, [0, 1, 2]) == [100, 100, 0]


def test_hard_pod_affinity_weight_and_ignore_preferred() -> None:
    pods = bound((0, "default", {}, affinity(req=[term({"app": "web"}, "kubernetes.io/hostname")])),
                 (2, "default", {}, affinity(pref=[{"weight": 3, "podAffinityTerm": term({"app": "web"}, "zone")}])))
    # n1 +5 (hard weight 5), zone b +3: raw 5, 0, 3 -> 100, 0, 60
    assert score({"app": "web"}, None, pods, [0, 1, 2], hard=5) == [100, 0, 60]
    # weight 0: only the preferred term: 0, 0, 3
    assert score({"app": "web"}, None, pods, [0, 1, 2], hard=0) == [0, 0, 100]
    # ignorePreferredTermsOfExistingPods without preferred terms of the pod: Skip (hard terms too)
    assert score({"app": "web"}, None, pods, [0, 1, 2], ignore=True) is None


def test_prescore_skips_when_nothing_is_added() -> None:
    pods = bound((3, "default", {}, affinity(req=[term({"app": "web"}, "zone")])))  # n4 has no labels
    assert score({"app": "web"}, None, pods, [0, 1, 2]) is None


def test_normalize_float_truncation() -> None:
    # 100 * (1/3) = 33.33.. -> 33; 100 * (2/3) = 66.66.. -> 66
    assert normalize([0, 1, 2, 3]) == [0, 33, 66, 100]
    assert normalize([-7, -7]) == [0, 0]


def test_fold_label_keys_as_the_api_server_does() -> None:
    t = {"topologyKey": "zone", "labelSelector": {"matchLabels": {"app": "web"}},
         "matchLabelKeys": ["rev", "absent"], "mismatchLabelKeys": ["team"]}
    folded = fold_label_keys(affinity(req=[t]), {"rev": "7", "team": "x"})
    sel = folded["podAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][0]["labelSelector"]  # type: ignore[index]
    assert sel["matchExpressions"] == [{"key": "rev", "operator": "In", "values": ["7"]},
                                       {"key": "team", "operator": "NotIn", "values": ["x"]}]


def test_nominated_pods_count_in_both_passes_of_their_node() -> None:
    """RunFilterPluginsWithNominatedPods: with the node's nominated pods added (AddPod), then without; both
    must pass. A db pod nominated to n1 satisfies a db affinity only in the first pass: n1 still fails."""
    aff = affinity(req=[term({"app": "db"}, "kubernetes.io/hostname")])
    pre = prefilter("default", {"app": "web"}, pod_terms("default", aff), bound(), NS)
    assert pre.state is not None
    db = [("default", {"app": "db"}, pod_terms("default", None))]
    assert filter_node_with_nominated(pre.state, NODES[0], db) == (UNRES, AFF)
    # the pod matches its own term: the first pod of its group passes either way
    own = prefilter("default", {"app": "db"}, pod_terms("default", aff), bound(), NS)
    assert own.state is not None
    assert filter_node_with_nominated(own.state, NODES[0], db) is None
    # anti-affinity both ways: the nominated pod is in the pair only on the node it is nominated to
    anti = affinity(anti=[term({"app": "db"}, "zone")])
    state = prefilter("default", {"app": "web"}, pod_terms("default", anti), bound(), NS).state
    assert state is not None
    assert filter_node_with_nominated(state, NODES[0], db) == (UNSCHED, ANTI)
    assert filter_node_with_nominated(state, NODES[1], []) is None  # same zone, no nomination there
    guard = [("default", {}, pod_terms("default", affinity(anti=[term({"app": "web"}, "zone")])))]
    assert filter_node_with_nominated(state, NODES[2], guard) == (UNSCHED, EXISTING)
