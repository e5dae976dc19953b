"""Preemption for one pending pod on a static cluster (reference/preemption.md §11).

:func:`predict_preemption` runs the recipe: filter every node (nominated pods counted); if one
passes, nothing is preempted. Otherwise check eligibility, dry-run every node whose failure is
resolvable, choose the node, and build the FailedScheduling message. What the real scheduler
decides at random is reported as such (``Prediction.random``, ``possible_nodes``).

A PreFilter that rejects the pod outright (NodeAffinity's ``pod affinity terms conflict``) ends the
PreFilter run before DynamicResources' PreFilter writes its cycle state; that plugin's PostFilter
then fails with an Error, ``not found``, which ends the PostFilter run: nothing is preempted and the
nomination stays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from linter.model import PreemptionArgs
from linter.scoring.feasibility import prefilter_rejection
from linter.scoring.nodes import is_counted_pod
from linter.scoring.nominated import DEFAULT_SCHEDULER_NAMES, scheduler_name_of

from .choice import Choice, choose, num_candidates, selection_key
from .filters import UNSCHEDULABLE, FilterSetup, NodeState, Status, filter_with_nominated, node_state
from .messages import (
    DRA_NO_CLAIMS,
    DRA_NO_STATE,
    NO_NODES,
    NO_NODES_REASON,
    NOT_ELIGIBLE_NEVER,
    NOT_ELIGIBLE_TERMINATING,
    NOT_HELPFUL,
    fit_error,
    truncate_event,
)
from .orders import OrderBudget
from .outcomes import node_outcomes, order_notes
from .pdb import Budget, budget_of
from .pods import PodFacts, pod_facts
from .victims import NodeVictims, select_victims

__all__ = ["NO_DRA_STATE", "Prediction", "PreemptionOptions", "post_filter_tail", "predict_preemption"]

_TERMINAL = ("Succeeded", "Failed")
NO_DRA_STATE = ("the pod was rejected at PreFilter before DynamicResources' PreFilter ran, so its PostFilter fails "
                "with the error 'not found', which ends the PostFilter run: nothing is preempted")


@dataclass(frozen=True)
class PreemptionOptions:
    """The profile's filters, PostFilter plugins and ``DefaultPreemptionArgs``."""

    setup: FilterSetup = field(default_factory=FilterSetup)
    args: PreemptionArgs = field(default_factory=PreemptionArgs)
    post_filter_plugins: tuple[str, ...] = ("DynamicResources", "DefaultPreemption")
    # the profile names of the scheduler config: only pods of these schedulerNames are nominated (§9)
    scheduler_names: frozenset[str] = DEFAULT_SCHEDULER_NAMES


@dataclass(frozen=True)
class Prediction:
    """What the scheduler does with the pod this cycle."""

    preemptor: PodFacts
    needed: bool  # False: some node passes the filters, the pod is bound, nothing is preempted
    node_statuses: dict[str, Status]  # the scheduling cycle's filter verdicts
    eligible: bool = False
    not_eligible_reason: str | None = None
    nominated_node: str | None = None  # status.nominatedNodeName afterwards, when certain
    possible_nodes: tuple[str, ...] = ()  # every node it may be nominated to
    victims: tuple[PodFacts, ...] = ()  # on nominated_node
    candidates: tuple[NodeVictims, ...] = ()  # every node where preemption would succeed
    dry_run_failures: dict[str, Status] = field(default_factory=dict)
    not_helpful: tuple[str, ...] = ()  # nodes whose failure no eviction can fix
    choice: Choice | None = None
    potential_nodes: int = 0
    sample_size: int = 0
    random: tuple[str, ...] = ()
    message: str = ""
    event_message: str = ""
    cleared_nominations: tuple[str, ...] = ()  # lower-priority pods nominated to the chosen node


def _index(
    preemptor: PodFacts, nodes: Sequence[Mapping[str, Any]], pods: Sequence[Mapping[str, Any]],
    scheduler_names: frozenset[str],
) -> tuple[dict[str, NodeState], dict[str, list[PodFacts]]]:
    """The nodes with their bound pods, and the pods the scheduler's nominator holds, by node: pending,
    nominated, and of a ``schedulerName`` among ``scheduler_names`` (``responsibleForPod``)."""
    states = {s.name: s for s in map(node_state, nodes)}
    nominated: dict[str, list[PodFacts]] = {}
    me = (preemptor.namespace, preemptor.name)
    for pod in pods:
        facts = pod_facts(pod)
        if (facts.namespace, facts.name) == me:
            continue
        if is_counted_pod(pod):
            if facts.node_name in states:
                states[facts.node_name].pods.append(facts)
            continue
        phase = pod.get("status", {}).get("phase") if isinstance(pod.get("status"), Mapping) else None
        if (facts.nominated_node and not facts.node_name and phase not in _TERMINAL
                and scheduler_name_of(pod) in scheduler_names):
            nominated.setdefault(facts.nominated_node, []).append(facts)
    return states, nominated


def _terminating_victim(preemptor: PodFacts, node: NodeState | None) -> bool:
    return node is not None and any(
        p.priority < preemptor.priority and p.terminating_by_preemption for p in node.pods
    )


def post_filter_tail(plugins: Sequence[str], preemption: str | None) -> str:
    """RunPostFilterPlugins: every Unschedulable plugin's reason, joined by ', '."""
    parts = [DRA_NO_CLAIMS if p == "DynamicResources" else f"preemption: {preemption}"
             for p in plugins if p == "DynamicResources" or (p == "DefaultPreemption" and preemption)]
    return ", ".join(parts)


def predict_preemption(
    pod: Mapping[str, Any],
    nodes: Sequence[Mapping[str, Any]],
    pods: Sequence[Mapping[str, Any]],
    pdbs: Sequence[Mapping[str, Any]] = (),
    options: PreemptionOptions | None = None,
) -> Prediction:
    """Predict the scheduling cycle's preemption for the pending ``pod``.

    ``pods`` holds every pod of the cluster: bound ones occupy their nodes, pending ones with
    ``status.nominatedNodeName`` are nominated there when ``options.scheduler_names`` holds their
    ``spec.schedulerName``; the pod itself is skipped if listed.
    """
    options = options or PreemptionOptions()
    me = pod_facts(pod, placed=False)
    states, nominated = _index(me, nodes, pods, options.scheduler_names)
    statuses = {name: filter_with_nominated(me, options.setup, s, s.pods, nominated.get(name, ()))
                for name, s in states.items()}
    if not states:
        return Prediction(me, True, statuses, not_eligible_reason=NO_NODES_REASON, message=NO_NODES,
                          event_message=NO_NODES)
    if any(s.ok for s in statuses.values()):
        return Prediction(me, needed=False, node_statuses=statuses)
    first = [s.reasons for s in statuses.values()]
    plugins = options.post_filter_plugins
    pre_filter = prefilter_rejection(pod, options.setup.filters) or ""

    def failed(post_filter: str = "") -> str:
        return fit_error(len(states), first, post_filter, pre_filter=pre_filter)

    if pre_filter and "DynamicResources" in plugins:
        msg = failed(DRA_NO_STATE)
        return Prediction(me, True, statuses, nominated_node=me.nominated_node or None,
                          not_eligible_reason=NO_DRA_STATE, message=msg, event_message=truncate_event(msg))
    if "DefaultPreemption" not in plugins:
        msg = failed(post_filter_tail(plugins, None))
        return Prediction(me, True, statuses, nominated_node=me.nominated_node or None,
                          not_eligible_reason="DefaultPreemption is not enabled in this profile",
                          message=msg, event_message=truncate_event(msg))
    reason = None
    if me.preemption_policy == "Never":
        reason = NOT_ELIGIBLE_NEVER
    elif me.nominated_node:
        own = statuses.get(me.nominated_node)
        if own is not None and own.code == UNSCHEDULABLE and _terminating_victim(me, states[me.nominated_node]):
            reason = NOT_ELIGIBLE_TERMINATING
    if reason is not None:
        msg = failed(post_filter_tail(plugins, reason))
        return Prediction(me, True, statuses, eligible=False, not_eligible_reason=reason,
                          nominated_node=me.nominated_node or None,
                          possible_nodes=(me.nominated_node,) if me.nominated_node else (),
                          message=msg, event_message=truncate_event(msg))
    budgets: list[Budget] = [budget_of(p) for p in pdbs]
    potential = [name for name, s in statuses.items() if s.code == UNSCHEDULABLE]
    candidates: list[NodeVictims] = []
    failures: dict[str, Status] = {}
    for name in potential:
        result = select_victims(me, options.setup, states[name], nominated.get(name, ()), budgets)
        if isinstance(result, NodeVictims):
            candidates.append(result)
        else:
            failures[name] = result
    sample = num_candidates(len(potential), options.args)
    if sample == 0:
        # n = 0 (minCandidateNodesAbsolute 0, P·percentage < 100): DryRunPreemption's candidate lists hold
        # nothing, so every candidate is dropped; a node that succeeded records no status, so it then
        # counts as not helpful in the message
        candidates = []
    not_helpful = tuple(n for n in states if n not in (failures if not candidates else set(potential)))
    common: dict[str, Any] = dict(candidates=tuple(candidates), dry_run_failures=failures, not_helpful=not_helpful,
                                  potential_nodes=len(potential), sample_size=sample, eligible=True)
    if not candidates:
        inner = fit_error(len(states), [*(f.reasons for f in failures.values()),
                                        *([NOT_HELPFUL] for _ in not_helpful)])
        msg = failed(post_filter_tail(plugins, inner))
        return Prediction(me, True, statuses, message=msg, event_message=truncate_event(msg), **common)
    allowance = OrderBudget()  # handed out in node-name order, as the webhook's twin does
    outcomes = {c.node: node_outcomes(me, options.setup, states[c.node], nominated.get(c.node, ()), budgets, c,
                                      allowance) for c in sorted(candidates, key=lambda c: c.node)}
    choice = choose(candidates, len(potential), options.args,
                    {name: (o.best, o.worst) for name, o in outcomes.items() if o.best != o.worst or not o.exhaustive})
    msg = failed()  # DefaultPreemption succeeded: its empty message replaces the tail
    chosen = choice.nodes[0] if len(choice.nodes) == 1 else None
    by_node = {c.node: c for c in candidates}
    keys = {c.node: selection_key(c) for c in candidates}
    random = [*choice.random, *order_notes(choice.nodes, outcomes, keys, {x: outcomes[x].best for x in choice.nodes})]
    victims = by_node[chosen].victims if chosen else ()
    cleared = tuple(p.key for p in nominated.get(chosen or "", ()) if p.priority < me.priority)
    return Prediction(me, True, statuses, nominated_node=chosen, possible_nodes=choice.nodes, victims=victims,
                      choice=choice, random=tuple(random), message=msg, event_message=truncate_event(msg),
                      cleared_nominations=cleared, **common)
