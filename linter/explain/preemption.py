"""The preemption section of an explanation (issue 10): what kube-scheduler 1.36 does when the
pod fits on no node -- the node it is nominated to, each victim and why, the PDBs violated, or
why no preemption helps -- as a JSON-ready dict.

The keys ``eligible``, ``nominatedNode``, ``victims`` ([{namespace, name}]) and ``message`` (the
complete FailedScheduling text) are read by checks outside the test suite: keep them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from linter.model import Profile
from linter.scoring.nodes import is_counted_pod
from linter.scoring.nominated import DEFAULT_SCHEDULER_NAMES
from linter.scoring.preemption import (
    CRITERIA,
    FilterSetup,
    NodeVictims,
    PodFacts,
    Prediction,
    PreemptionOptions,
    pod_facts,
    predict_preemption,
    selection_key,
)
from linter.scoring.preemption.filters import AffinitySetup, SpreadSetup, node_state
from linter.scoring.preemption.victims import NO_VICTIMS
from linter.scoring.requests import is_scalar_resource

__all__ = ["admitted_pod", "preemption_section"]

Json = dict[str, Any]
Obj = Mapping[str, Any]


def admitted_pod(pod: Obj, priority: int, policy: str) -> Obj:
    """The pending pod with the ``spec.priority``/``preemptionPolicy`` admission gives it."""
    spec = dict(pod.get("spec") or {})
    spec["priority"], spec["preemptionPolicy"] = priority, policy
    return {**pod, "spec": spec}


def _options(profile: Profile | None, filters: tuple[str, ...], scheduler_names: frozenset[str],
             spread: SpreadSetup | None, affinity: AffinitySetup | None) -> PreemptionOptions:
    if profile is None:
        return PreemptionOptions(FilterSetup(filters, spread=spread, affinity=affinity),
                                 scheduler_names=scheduler_names)
    fit = profile.built_fit
    setup = FilterSetup(filters, fit.ignored_resources if fit else (), fit.ignored_resource_groups if fit else (),
                        spread, affinity)
    return PreemptionOptions(setup, profile.preemption, profile.post_filter_plugins, scheduler_names)


def _victim(pod: PodFacts, c: NodeVictims, preemptor: int) -> Json:
    why = [f"priority {pod.priority} < {preemptor}"]
    pdbs = c.violated_pdbs.get(pod.key, [])
    if pdbs:
        why.append("violates " + ", ".join(pdbs) + " (put back first, but the pod still did not fit with it)")
    else:
        why.append("putting it back (most important first) left the pod unable to fit")
    return {"namespace": pod.namespace, "name": pod.name, "priority": pod.priority,
            "startTime": pod.start.isoformat() + "Z" if pod.start else None, "violatesPdbs": pdbs,
            "why": "; ".join(why)}


def _candidate(c: NodeVictims, preemptor: int) -> Json:
    key = selection_key(c)
    return {
        "node": c.node,
        "victims": [_victim(v, c, preemptor) for v in c.victims],
        "pdbViolations": c.violations,
        "highestVictimPriority": key[1] if c.victims else None,
        "prioritySum": key[2] if c.victims else 0,
        "lowerPriorityPods": c.potential,
        "reprieved": [{"namespace": p.namespace, "name": p.name, "priority": p.priority} for p in c.reprieved],
    }


def _resources(nodes: Sequence[Obj], pods: Sequence[Obj], p: Prediction) -> list[Json]:
    """For the nominated node, per resource: requested now, after the evictions with the pod, allocatable."""
    node = next((n for n in nodes if n.get("metadata", {}).get("name") == p.nominated_node), None)
    if node is None:
        return []
    state = node_state(node)
    me = (p.preemptor.namespace, p.preemptor.name)
    bound = [f for f in map(pod_facts, (x for x in pods if is_counted_pod(x)))
             if f.node_name == state.name and (f.namespace, f.name) != me]
    before: Counter[str] = Counter()
    freed: Counter[str] = Counter()
    for f in bound:
        before.update(f.request)
    for v in p.victims:
        freed.update(v.request)
    names = [n for n in ("cpu", "memory", "ephemeral-storage") if n in state.allocatable or n in p.preemptor.request]
    names += sorted(n for n in {*state.allocatable, *p.preemptor.request}
                    if n not in names and n != "pods" and is_scalar_resource(n))
    rows = [{"name": n, "allocatable": state.allocatable.get(n, 0), "requestedBefore": before[n],
             "freedByVictims": freed[n], "podRequest": p.preemptor.request.get(n, 0),
             "requestedAfter": before[n] - freed[n] + p.preemptor.request.get(n, 0)} for n in names]
    rows.append({"name": "pods", "allocatable": state.allocatable.get("pods", 0), "requestedBefore": len(bound),
                 "freedByVictims": len(p.victims), "podRequest": 1,
                 "requestedAfter": len(bound) - len(p.victims) + 1})
    return rows


def _no_help(prediction: Prediction) -> Json:
    """Per-node reasons the dry run saw, counted as the scheduler reports them."""
    counts: Counter[str] = Counter()
    for status in prediction.dry_run_failures.values():
        counts.update(status.reasons)
    counts.update({"Preemption is not helpful for scheduling": len(prediction.not_helpful)} if prediction.not_helpful
                  else {})
    return dict(sorted(counts.items()))


def preemption_section(
    pod: Obj, nodes: Sequence[Obj], pods: Sequence[Obj], pdbs: Sequence[Obj], profile: Profile | None,
    filters: tuple[str, ...], scheduler_names: frozenset[str] = DEFAULT_SCHEDULER_NAMES,
    spread: SpreadSetup | None = None, affinity: AffinitySetup | None = None,
) -> Json | None:
    """None when some node passes the filters; otherwise the section (``pod`` carries its priority).
    ``scheduler_names``: the profile names of the scheduler config, whose pods' nominations count;
    ``spread``/``affinity``: PodTopologySpread's/InterPodAffinity's PreFilter state when its Filter acts on
    the pod."""
    p = predict_preemption(pod, nodes, pods, pdbs, _options(profile, filters, scheduler_names, spread, affinity))
    if not p.needed:
        return None
    me = p.preemptor
    by_node = {c.node: c for c in p.candidates}
    chosen = by_node.get(p.nominated_node or "")
    classless = sum(1 for x in pods if isinstance(x.get("spec"), Mapping) and x["spec"].get("priorityClassName")
                    and x["spec"].get("priority") is None)
    return {
        "eligible": p.eligible,
        "nominatedNode": p.nominated_node,
        "victims": [{"namespace": v.namespace, "name": v.name} for v in p.victims],
        "message": p.message,
        "eventMessage": p.event_message,
        "preemptorPriority": me.priority,
        "preemptionPolicy": me.preemption_policy,
        "notEligibleReason": p.not_eligible_reason,
        "nominatedNodeBefore": me.nominated_node or None,
        "possibleNodes": list(p.possible_nodes),
        "decidedBy": p.choice.decided_by if p.choice else None,
        "criteria": list(CRITERIA),
        "random": list(p.random),
        "victimDetails": _candidate(chosen, me.priority)["victims"] if chosen else [],
        "pdbsViolated": sorted({b for v in p.victims for b in (chosen.violated_pdbs.get(v.key, []) if chosen else [])}),
        "candidates": [_candidate(c, me.priority) for c in sorted(p.candidates, key=selection_key)],
        "potentialNodes": p.potential_nodes,
        "candidatesTried": p.sample_size,
        "noPreemptionReasons": _no_help(p) if p.eligible and not p.candidates else {},
        "nodesWithoutVictims": sorted(n for n, s in p.dry_run_failures.items() if s.reasons == (NO_VICTIMS,)),
        "notHelpfulNodes": list(p.not_helpful),
        "clearedNominations": list(p.cleared_nominations),
        "podsPriorityUnset": classless,
        "nominatedNodeResources": _resources(nodes, pods, p),
    }
