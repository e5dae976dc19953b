"""A pod that NodeAffinity's PreFilter rejects outright, in the scalar model and the webhook's twin.

kube-scheduler 1.36.2: NodeAffinity's PreFilter returns UnschedulableAndUnresolvable
``pod affinity terms conflict``, which ends the PreFilter run before DynamicResources' PreFilter
writes its cycle state. ``FitError.Error`` prints the PreFilter message once (no histogram), and
DynamicResources' PostFilter fails with the Error ``not found``, which ends the PostFilter run:
DefaultPreemption does nothing and the nomination stays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from linter.model import Profile
from linter.scoring.cluster.state import ClusterState
from linter.scoring.preemption import PreemptionOptions, predict_preemption

from .build import node, pod

Obj = Mapping[str, Any]
NODES = [node("n1", cpu="1"), node("n2", cpu="1")]
BOUND = [pod("a", "n1", 1, "1")]


def pinned(*terms: Sequence[str], **kw: Any) -> dict[str, Any]:
    """A pending pod whose required terms each AND ``metadata.name In`` over the given name lists."""
    pending = pod("pre", None, 1000, "1", **kw)
    pending["spec"]["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": list(names)}
                                               for names in term]} for term in terms]}}}
    return pending


def conflicting(**kw: Any) -> dict[str, Any]:
    return pinned([["n1"], ["n2"]], **kw)


def both(pending: Obj, post_filter: tuple[str, ...] = ("DynamicResources", "DefaultPreemption"),
         pods: Sequence[Obj] = BOUND) -> tuple[Any, Any]:
    state = ClusterState()
    for n in NODES:
        state.apply_node(n)
    for p in pods:
        state.apply_pod(p)
    fast = state.preempt(pending, Profile("default-scheduler", post_filter_plugins=post_filter))
    scalar = predict_preemption(pending, NODES, pods, (), PreemptionOptions(post_filter_plugins=post_filter))
    assert (fast.message, fast.event_message) == (scalar.message, scalar.event_message)
    assert (fast.eligible, fast.not_eligible_reason) == (scalar.eligible, scalar.not_eligible_reason)
    assert (fast.nominated_node, fast.victims) == (scalar.nominated_node, tuple(v.key for v in scalar.victims))
    return scalar, fast


def test_the_prefilter_message_once_then_the_dynamic_resources_error() -> None:
    scalar, _ = both(conflicting())
    assert scalar.message == "0/2 nodes are available: pod affinity terms conflict. not found"
    assert scalar.event_message == scalar.message
    assert not scalar.eligible and "rejected at PreFilter" in (scalar.not_eligible_reason or "")
    assert scalar.victims == () and scalar.nominated_node is None


def test_the_nomination_stays() -> None:
    scalar, _ = both(conflicting(nominated="n2"))
    assert scalar.nominated_node == "n2"
    assert scalar.message == "0/2 nodes are available: pod affinity terms conflict. not found"


def test_the_dynamic_resources_error_drops_an_earlier_preemption_reason() -> None:
    # a custom order runs DefaultPreemption first; DynamicResources' Error still replaces its reason
    scalar, _ = both(conflicting(), ("DefaultPreemption", "DynamicResources"))
    assert scalar.message == "0/2 nodes are available: pod affinity terms conflict. not found"


def test_without_dynamic_resources_preemption_finds_no_candidate() -> None:
    scalar, _ = both(conflicting(), ("DefaultPreemption",))
    assert scalar.message == ("0/2 nodes are available: pod affinity terms conflict. preemption: "
                              "0/2 nodes are available: 2 Preemption is not helpful for scheduling.")
    assert scalar.eligible and scalar.victims == ()


def test_without_any_post_filter_plugin_only_the_prefilter_message() -> None:
    scalar, _ = both(conflicting(), ())
    assert scalar.message == "0/2 nodes are available: pod affinity terms conflict."


def test_never_policy_without_dynamic_resources() -> None:
    scalar, _ = both(conflicting(policy="Never"), ("DefaultPreemption",))
    assert scalar.message == ("0/2 nodes are available: pod affinity terms conflict. "
                              "preemption: not eligible due to preemptionPolicy=Never.")


def test_a_pod_pinned_to_one_name_keeps_the_histogram_and_preempts() -> None:
    # NodeAffinity's PreFilter result leaves n2 out (UnschedulableAndUnresolvable, counted once per node);
    # every PreFilter runs, so DynamicResources answers as usual and DefaultPreemption frees n1
    scalar, _ = both(pinned([["n1"]]))
    assert scalar.message == ("0/2 nodes are available: 1 Insufficient cpu, "
                              "1 node(s) didn't satisfy plugin(s) [NodeAffinity].")
    assert scalar.nominated_node == "n1" and [v.key for v in scalar.victims] == ["default/a"]


def test_a_pod_pinned_where_no_victim_helps() -> None:
    scalar, _ = both(pinned([["n2"]]), pods=[*BOUND, pod("b", "n2", 5000, "1")])
    assert scalar.message == (
        "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't satisfy plugin(s) [NodeAffinity]. "
        "no new claims to deallocate, preemption: 0/2 nodes are available: "
        "1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.")
