"""One small case per rule of reference/preemption.md; each fails if its rule is broken."""

from __future__ import annotations

from linter.model import PreemptionArgs
from linter.scoring.preemption import FilterSetup, PreemptionOptions, predict_preemption
from linter.scoring.preemption.choice import num_candidates

from .build import node, pdb, pod

P = 1000  # the preemptor's priority in these cases


def keys(prediction: object) -> list[str]:
    return sorted(v.key for v in prediction.victims)  # type: ignore[attr-defined]


# §1 when preemption runs


def test_a_node_that_fits_means_no_preemption() -> None:
    got = predict_preemption(pod("p", None, P, "2"), [node("n1", cpu="2"), node("n2")],
                             [pod("a", "n2", 0, "4")])
    assert not got.needed


# §2 eligibility


def test_never_policy_keeps_an_existing_nomination() -> None:
    got = predict_preemption(pod("p", None, P, "2", policy="Never", nominated="n1"), [node("n1")],
                             [pod("a", "n1", 0, "4")])
    assert not got.eligible and got.nominated_node == "n1"
    assert got.message.endswith("no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.")


TERMINATING = {"deletionTimestamp": "2026-11-23T00:00:00Z",
               "conditions": [{"type": "DisruptionTarget", "status": "True", "reason": "PreemptionByScheduler"}]}


def test_terminating_victim_on_the_nominated_node_blocks() -> None:
    pods = [pod("old", "n1", 0, "2", **TERMINATING), pod("x", "n1", 5000, "2")]
    got = predict_preemption(pod("p", None, P, "2", nominated="n1"), [node("n1")], pods)
    assert not got.eligible and "terminating pod" in (got.not_eligible_reason or "")


def test_a_pod_deleted_for_another_reason_does_not_block() -> None:
    evicted = [{"type": "DisruptionTarget", "status": "True", "reason": "EvictionByEvictionAPI"}]
    other = {**TERMINATING, "conditions": evicted}
    pods = [pod("old", "n1", 0, "2", **other), pod("x", "n1", 5000, "2")]
    got = predict_preemption(pod("p", None, P, "2", nominated="n1"), [node("n1")], pods)
    assert got.eligible and got.nominated_node == "n1" and keys(got) == ["default/old"]


def test_only_the_first_disruption_target_condition_counts() -> None:
    conds = [{"type": "DisruptionTarget", "status": "False", "reason": "PreemptionByScheduler"},
             {"type": "DisruptionTarget", "status": "True", "reason": "PreemptionByScheduler"}]
    pods = [pod("old", "n1", 0, "2", deletionTimestamp="2026-11-23T00:00:00Z", conditions=conds),
            pod("x", "n1", 5000, "2")]
    assert predict_preemption(pod("p", None, P, "2", nominated="n1"), [node("n1")], pods).eligible


def test_unresolvable_nominated_node_makes_the_pod_eligible_again() -> None:
    taint = [{"key": "k", "value": "v", "effect": "NoSchedule"}]
    pods = [pod("old", "n1", 0, "2", **TERMINATING), pod("x", "n1", 5000, "2"), pod("y", "n2", 0, "4")]
    got = predict_preemption(pod("p", None, P, "2", nominated="n1"), [node("n1", taints=taint), node("n2")], pods)
    assert got.eligible and got.nominated_node == "n2"


def test_nominated_to_a_vanished_node_is_eligible() -> None:
    got = predict_preemption(pod("p", None, P, "2", nominated="gone"), [node("n1")], [pod("a", "n1", 0, "4")])
    assert got.eligible and got.nominated_node == "n1"


# §3 candidate nodes


def test_request_above_allocatable_is_unresolvable_even_with_cheap_victims() -> None:
    nodes = [node("small", cpu="2"), node("big", cpu="8")]
    pods = [pod("cheap", "small", -5, "2"), pod("dear", "big", 500, "8")]
    got = predict_preemption(pod("p", None, P, "3"), nodes, pods)
    assert got.nominated_node == "big" and got.not_helpful == ("small",)


def test_one_unresolvable_resource_spoils_the_node() -> None:
    nodes = [node("n1", cpu="4", allocatable={"example.com/fpga": "1"})]
    pods = [pod("a", "n1", 0, "4")]
    preemptor = pod("p", None, P, requests={"cpu": "2", "example.com/fpga": "2"})
    got = predict_preemption(preemptor, nodes, pods)
    assert got.candidates == () and got.message.endswith(
        "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.")


# §4 victims


def test_negative_priorities_are_ordinary_numbers() -> None:
    got = predict_preemption(pod("p", None, 0, "4"), [node("n1")], [pod("neg", "n1", -1000, "4")])
    assert keys(got) == ["default/neg"]


def test_request_less_victim_frees_nothing_and_is_reprieved() -> None:
    pods = [pod("empty", "n1", 0, None), pod("busy", "n1", 100, "4")]
    got = predict_preemption(pod("p", None, P, "2"), [node("n1")], pods)
    assert keys(got) == ["default/busy"]
    assert [p.key for p in got.candidates[0].reprieved] == ["default/empty"]


def test_still_failing_after_removing_all_victims_reports_the_filter() -> None:
    pods = [pod("high", "n1", 5000, "3"), pod("low", "n1", 0, "1")]
    got = predict_preemption(pod("p", None, P, "2"), [node("n1")], pods)
    assert got.dry_run_failures["n1"].reasons == ("Insufficient cpu",)


def test_equal_priority_newest_goes_first() -> None:
    pods = [pod("old", "n1", 0, "2", "2026-01-01T00:00:00Z"), pod("new", "n1", 0, "2", "2026-02-01T00:00:00Z")]
    assert keys(predict_preemption(pod("p", None, P, "2"), [node("n1")], pods)) == ["default/new"]


def test_equal_priority_without_start_time_is_reported_random() -> None:
    pods = [pod("a", "n1", 0, "2", None), pod("b", "n1", 0, "2", None)]
    got = predict_preemption(pod("p", None, P, "2"), [node("n1")], pods)
    assert len(got.victims) == 1 and any("default/a, default/b" in r for r in got.random)


# §4.4 PDB grouping


def _pdb_case(*budgets: dict[str, object], labels: dict[str, str] | None = None, ns: str = "default") -> int:
    """Violation count on one node where evicting the single protected pod is needed."""
    pods = [pod("w", "n1", 0, "4", labels={"app": "web"} if labels is None else labels, ns=ns)]
    got = predict_preemption(pod("p", None, P, "4"), [node("n1")], pods, list(budgets))
    return got.candidates[0].violations


def test_pdb_selector_rules() -> None:
    assert _pdb_case(pdb("b", {"matchLabels": {"app": "web"}}, 0)) == 1
    assert _pdb_case(pdb("b", {"matchLabels": {"app": "web"}}, 1)) == 0
    assert _pdb_case(pdb("b", {}, 0)) == 0  # empty selector protects nothing here
    assert _pdb_case(pdb("b", None, 0)) == 0  # nor does a missing one
    assert _pdb_case(pdb("b", {"matchLabels": {"app": "web"}}, 0), ns="other") == 0  # other namespace
    assert _pdb_case(pdb("b", {"matchExpressions": [{"key": "app", "operator": "Exists"}]}, 0), labels={}) == 0
    assert _pdb_case(pdb("b", {"matchExpressions": [{"key": "app", "operator": "In", "values": []}]}, 0)) == 0
    assert _pdb_case(pdb("b", {"matchExpressions": [{"key": "app", "operator": "NotIn", "values": ["db"]}]}, 0)) == 1
    assert _pdb_case(pdb("b", {"matchLabels": {"app": "web"}}, 0, disrupted=("w",))) == 0


def test_every_matching_pdb_is_charged() -> None:
    # p1 is charged to both budgets (1 each): the second pod then violates b2 although b1 made nobody violate.
    pods = [pod("w1", "n1", 10, "2", labels={"app": "web", "tier": "x"}),
            pod("w2", "n1", 0, "2", labels={"tier": "x"})]
    budgets = [pdb("b1", {"matchLabels": {"app": "web"}}, 1), pdb("b2", {"matchLabels": {"tier": "x"}}, 1)]
    got = predict_preemption(pod("p", None, P, "4"), [node("n1")], pods, budgets)
    assert got.candidates[0].violations == 1
    assert got.candidates[0].violated_pdbs == {"default/w2": ["default/b2"]}


# §5 how many nodes are tried


def test_num_candidates() -> None:
    assert num_candidates(50, PreemptionArgs()) == 50
    assert num_candidates(5000, PreemptionArgs()) == 500
    assert num_candidates(999, PreemptionArgs()) == 100
    assert num_candidates(1000, PreemptionArgs(50, 0)) == 500
    assert num_candidates(7, PreemptionArgs(0, 3)) == 3


def test_sampling_gives_the_set_of_possible_nodes() -> None:
    nodes = [node(f"n{i}") for i in range(4)]
    pods = [pod(f"v{i}", f"n{i}", i * 10, "4") for i in range(4)]
    opts = PreemptionOptions(args=PreemptionArgs(0, 2))  # tries 2 of 4 candidates
    got = predict_preemption(pod("p", None, P, "4"), nodes, pods, (), opts)
    # any node that is best among some 2 candidates: n0, n1, n2 (n3 is worse than all others)
    assert got.nominated_node is None and got.possible_nodes == ("n0", "n1", "n2")
    assert any("random offset" in r for r in got.random)
    full = predict_preemption(pod("p", None, P, "4"), nodes, pods)
    assert full.nominated_node == "n0" and full.random == ()


def test_all_violating_candidates_beyond_n_make_the_nomination_random() -> None:
    """No candidate is free of PDB violations, so the dry run never stops early, but it keeps only the
    first n violating candidates it finds (candidateList holds n): a node best among some n can win."""
    nodes = [node(f"n{i}") for i in range(4)]
    pods = [pod(f"v{i}", f"n{i}", i * 10, "4", labels={"app": "x"}) for i in range(4)]
    budget = [pdb("all", {"matchLabels": {"app": "x"}}, 0)]
    opts = PreemptionOptions(args=PreemptionArgs(0, 2))  # keeps 2 of 4 violating candidates
    got = predict_preemption(pod("p", None, P, "4"), nodes, pods, budget, opts)
    assert got.nominated_node is None and got.possible_nodes == ("n0", "n1", "n2")
    assert ("all 4 candidate nodes violate a PodDisruptionBudget: the scheduler keeps only the first 2 it finds "
            "(in parallel, from a random offset) and picks among those: the nomination depends on which") in got.random
    full = predict_preemption(pod("p", None, P, "4"), nodes, pods, budget)
    assert full.nominated_node == "n0" and full.random == ()


def test_n_zero_keeps_no_candidate() -> None:
    """minCandidateNodesAbsolute 0 with P·percentage < 100 gives n = 0: DryRunPreemption's candidate lists
    hold nothing, and a node where preemption works records no status, so it counts as not helpful."""
    nodes = [node("n1"), node("n2"), node("n3")]
    pods = [pod("a", "n1", 100, "4"), pod("b", "n2", 200, "4"), pod("c", "n3", 3000, "4")]
    opts = PreemptionOptions(args=PreemptionArgs(10, 0))
    got = predict_preemption(pod("p", None, P, "4", nominated="n1"), nodes, pods, (), opts)
    assert got.eligible and got.nominated_node is None and got.possible_nodes == () and got.candidates == ()
    assert got.message == (
        "0/3 nodes are available: 3 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are "
        "available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.")


# §6 node choice


def _choose(*victims_per_node: list[tuple[int, str, str]]) -> str | None:
    nodes, pods = [], []
    for i, victims in enumerate(victims_per_node):
        nodes.append(node(f"n{i}"))
        pods += [pod(f"v{i}{j}", f"n{i}", prio, cpu, start) for j, (prio, cpu, start) in enumerate(victims)]
    return predict_preemption(pod("p", None, P, "4"), nodes, pods).nominated_node


T1, T2, T3 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z"


def test_lowest_top_victim_priority_wins() -> None:
    assert _choose([(200, "4", T1)], [(100, "2", T1), (150, "2", T1)]) == "n1"


def test_sum_with_offset_prefers_one_negative_victim() -> None:
    assert _choose([(-1000, "2", T1), (-1000, "2", T2)], [(-1000, "4", T3)]) == "n1"


def test_latest_start_of_top_victims_wins() -> None:
    assert _choose([(100, "4", T1)], [(100, "4", T2)]) == "n1"


def test_tie_on_all_criteria_is_random() -> None:
    nodes = [node("n0"), node("n1")]
    pods = [pod("a", "n0", 0, "4", T1), pod("b", "n1", 0, "4", T1)]
    got = predict_preemption(pod("p", None, P, "4"), nodes, pods)
    assert got.nominated_node is None and got.possible_nodes == ("n0", "n1") and got.victims == ()
    assert any("at random" in r for r in got.random)


NOW_TIE = ("2 nodes tie on all five criteria: the scheduler picks one at random",
           "the deciding victims have no status.startTime: the scheduler compares them with 'now'")


def test_victims_without_start_time_count_as_now() -> None:
    """'now' is later than every real start, so n1 wins criterion 5 for certain: nothing is random."""
    nodes = [node("n0"), node("n1")]
    pods = [pod("a", "n0", 0, "4", T3), pod("b", "n1", 0, "4", None)]
    got = predict_preemption(pod("p", None, P, "4"), nodes, pods)
    assert got.nominated_node == "n1" and got.possible_nodes == ("n1",) and got.random == ()
    assert got.choice is not None and got.choice.decided_by == "latest start of the highest-priority victims"


def test_two_nodes_whose_top_victims_never_started_tie_at_random() -> None:
    """Each node's 'now' is read when it is scored, in random (map) order: the later one wins."""
    nodes = [node("n0"), node("n1")]
    pods = [pod("a", "n0", 0, "4", None), pod("b", "n1", 0, "4", None)]
    got = predict_preemption(pod("p", None, P, "4"), nodes, pods)
    assert got.nominated_node is None and got.possible_nodes == ("n0", "n1") and got.random == NOW_TIE


# §7 messages


def test_histogram_sorts_byte_wise() -> None:
    nodes = [node(f"t{i:02}", taints=[{"key": "k", "effect": "NoSchedule"}]) for i in range(12)]
    nodes += [node(f"e{i}") for i in range(8)]
    pods = [pod(f"x{i}", f"e{i}", 5000, "4") for i in range(8)]
    got = predict_preemption(pod("p", None, P, "2"), nodes, pods)
    assert got.message == (
        "0/20 nodes are available: 12 node(s) had untolerated taint(s), 8 Insufficient cpu. no new claims to "
        "deallocate, preemption: 0/20 nodes are available: 12 Preemption is not helpful for scheduling, "
        "8 No preemption victims found for incoming pod.")


def test_event_message_is_cut_at_1024_bytes() -> None:
    nodes = [node("n" * 60 + str(i), taints=[{"key": f"k{i}", "effect": "NoSchedule"}]) for i in range(3)]
    nodes.append(node("e", cpu="1"))
    setup = FilterSetup()
    reasons_pod = pod("p", None, P, requests={f"example.com/r{i:03}": "1" for i in range(60)} | {"cpu": "2"})
    got = predict_preemption(reasons_pod, nodes, [pod("x", "e", 5000, "1")], (), PreemptionOptions(setup))
    assert len(got.message.encode()) > 1024
    assert len(got.event_message.encode()) == 1024 and got.event_message.endswith(" ...")
    assert got.message.startswith(got.event_message[:-4])


def test_without_default_preemption_only_dynamic_resources_speaks() -> None:
    opts = PreemptionOptions(post_filter_plugins=("DynamicResources",))
    got = predict_preemption(pod("p", None, P, "2"), [node("n1")], [pod("a", "n1", 0, "4")], (), opts)
    assert got.message == "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate"
    assert got.victims == ()


# §8.3 and §9 nominated pods


def test_lower_priority_nominations_do_not_reserve_and_get_cleared() -> None:
    pods = [pod("a", "n1", 0, "4"), pod("low", None, 10, "3", nominated="n1"), pod("high", None, 5000, "1",
                                                                               nominated="n1")]
    got = predict_preemption(pod("p", None, P, "3"), [node("n1")], pods)
    assert got.nominated_node == "n1" and got.cleared_nominations == ("default/low",)


def test_equal_priority_nomination_reserves_space() -> None:
    pods = [pod("a", "n1", 0, "4"), pod("same", None, P, "3", nominated="n1")]
    got = predict_preemption(pod("p", None, P, "2"), [node("n1")], pods)
    assert got.candidates == () and got.dry_run_failures["n1"].reasons == ("Insufficient cpu",)


def test_own_nomination_is_not_counted_against_itself() -> None:
    me = pod("p", None, P, "2", nominated="n1")
    got = predict_preemption(me, [node("n1")], [me, pod("a", "n1", 0, "4")])
    assert got.nominated_node == "n1" and keys(got) == ["default/a"]


# the nominator holds only pods of the scheduler's profiles (responsibleForPod, eventhandlers.go)

TWO_PROFILES = frozenset({"default-scheduler", "binpack"})


def test_another_schedulers_nomination_neither_reserves_nor_is_cleared() -> None:
    # volcano's pod would leave no room on n1 (4 - 1 - 3 < 2) and, of lower priority, would be cleared
    pods = [pod("a", "n1", 0, "1"), pod("vc-high", None, 5000, "3", nominated="n1", scheduler="volcano"),
            pod("vc-low", None, 10, "3", nominated="n1", scheduler="volcano")]
    got = predict_preemption(pod("p", None, P, "2"), [node("n1")], pods)
    assert not got.needed and got.node_statuses["n1"].ok
    crowded = [pod("a", "n1", 0, "4"), *pods[1:]]
    got = predict_preemption(pod("p", None, P, "2"), [node("n1")], crowded)
    assert got.nominated_node == "n1" and keys(got) == ["default/a"] and got.cleared_nominations == ()


def test_a_nomination_of_another_profile_of_the_config_reserves_and_is_cleared() -> None:
    pods = [pod("a", "n1", 0, "4"), pod("bp-high", None, 5000, "1", nominated="n1", scheduler="binpack"),
            pod("bp-low", None, 10, "3", nominated="n1", scheduler="binpack"),
            pod("dflt-low", None, 10, "3", nominated="n1", scheduler="")]  # "" is default-scheduler
    options = PreemptionOptions(scheduler_names=TWO_PROFILES)
    got = predict_preemption(pod("p", None, P, "3"), [node("n1")], pods, (), options)
    assert got.nominated_node == "n1" and got.cleared_nominations == ("default/bp-low", "default/dflt-low")
    # bp-high keeps 1 cpu: with a gone there are 3, so a 4-cpu pod fits nowhere even after preemption
    got = predict_preemption(pod("p", None, P, "4"), [node("n1")], pods, (), options)
    assert got.candidates == () and got.dry_run_failures["n1"].reasons == ("Insufficient cpu",)
    # a scheduler with only the default profile does not hold bp-high: the 4-cpu pod preempts a
    alone = predict_preemption(pod("p", None, P, "4"), [node("n1")], pods)
    assert keys(alone) == ["default/a"] and alone.cleared_nominations == ("default/dflt-low",)
