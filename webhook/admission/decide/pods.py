"""Pod CREATE: Priority-plugin resolution, then the predicted bin-packing scores as annotations.

A subresource (whatever its kind: pods/binding sends a Binding) is allowed untouched, as the plugin
ignores them; the chart's rules (``pods``) do not send any. UPDATE gets the plugin's carry-over only
(``spec.priority`` and ``spec.preemptionPolicy`` the new object omits come back from ``oldObject``).
CREATE needs a synced, fresh cluster view (else ``ViewNotReady``: HTTP 503, the webhook's failurePolicy
decides); the priority is resolved first (``webhook.admission.decide.priority``; a denial there ends the
decision). A pod not yet bound is then ranked on every node with the model of its ``spec.schedulerName``: a
kube-scheduler profile (NodeResourcesFit) or, for the configured Volcano scheduler
name, Volcano's binpack. Results go into two annotations:

* ``binpack-guard.io/scores``: compact JSON ``{"<node>": <score>}``, top K feasible nodes,
  best first (kube-scheduler: by Fit and BalancedAllocation after their weights, as explain's total),
  plugin score before the profile weight;
* ``binpack-guard.io/prediction``: JSON describing how the scores were made; for a pod that fits on no
  node (kube-scheduler profiles), also ``preemption``: the predicted nomination, the victim count and the
  first few victims, PDB violations, what is random, and the FailedScheduling event text; for a pod
  with ``spec.schedulingGates``, also ``gated``: the scheduler leaves such a pod alone until every gate
  is removed (kube-scheduler's SchedulingGates PreEnqueue plugin, Volcano's allocate action), so the
  prediction is for the cluster as it is now, as if the gates were removed now, and says so; for a
  kube-scheduler profile, also ``notModelledForPod`` when in-tree plugins the model leaves out act on this
  pod (``linter.scoring.unmodelled``: pod affinity, topology spreading, volumes, resource claims), since
  ``bestNode`` and ``feasibleNodes`` can then be wrong.

Annotations never push the object past the API server's 256 KiB total-annotations
limit: K shrinks until they fit, and the prediction says so; when not even the prediction fits, neither is
written. Our annotations a new answer leaves out (stale from an earlier invocation) are removed. Dry-run
requests get the same answer (nothing here has side effects).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Mapping, Sequence
from itertools import accumulate
from typing import Any

from linter.model import DEFAULT_SCHEDULER_NAME, KubeSchedulerModel, VolcanoModel
from linter.scoring.cluster.preemption import FastPreemption
from linter.scoring.cluster.rank import ENGINE_VOLCANO
from linter.scoring.cluster.state import Ranking
from linter.scoring.sampling import sampled_note
from linter.scoring.unmodelled import plugins_for_pod
from linter.scoring.volcano_feasibility import fit_errors_message
from webhook.admission.decide import priority
from webhook.admission.decide.k8serrors import bad_request
from webhook.admission.decode import AdmissionRequest
from webhook.admission.encode import Decision
from webhook.admission.patch import PatchOp, compact_json, pointer, set_members
from webhook.admission.ports import ClusterView, require_ready
from webhook.admission.scheduler_models import SchedulerModels
from webhook.errors import one_line
from webhook.settings import Settings

SCORES_ANNOTATION = "binpack-guard.io/scores"
PREDICTION_ANNOTATION = "binpack-guard.io/prediction"
PREEMPTION_NAMES_SHOWN = 5  # victims / possible nodes / gates named in the prediction (the counts are always given)
TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024  # apimachinery TotalAnnotationSizeLimitB: sum of len(key)+len(value)
GATED_NOTE = (
    "the scheduler does not try to place this pod until all of its spec.schedulingGates are removed; this "
    "prediction is for the cluster as it is at admission, as if they were removed then"
)


def decide(
    request: AdmissionRequest, view: ClusterView, settings: Settings, models: SchedulerModels,
    until: float | None = None,
) -> Decision:
    """``until``: the review's deadline (``time.monotonic()``), the most a live PriorityClass read may wait."""
    if request.sub_resource:  # first: pods/binding and pods/eviction carry a Binding or an Eviction, not a Pod
        return Decision.allow()
    if request.kind.group != "" or request.kind.kind != "Pod":
        return bad_request(f"expected a v1 Pod, got kind {request.kind.kind!r}")
    if request.operation not in ("CREATE", "UPDATE"):
        return Decision.allow()
    pod = request.object
    if pod is None:
        return bad_request(f"request.object: missing on {request.operation}")
    if request.operation == "UPDATE":
        return Decision.allow(patch=priority.carry_over(pod, request.old_object))
    require_ready(view)
    outcome = priority.resolve(pod, view.priority_classes(), lambda name: view.read_priority_class(name, until=until))
    if outcome.denial is not None:
        return outcome.denial
    warnings = [outcome.warning] if outcome.warning else []
    admitted = _with_priority(pod, outcome.resolution)
    return Decision.allow(patch=[*outcome.ops, *annotation_ops(pod, view, settings, models, admitted)],
                          warnings=warnings)


def _with_priority(pod: Mapping[str, Any], resolution: priority.Resolution | None) -> Mapping[str, Any]:
    """The pod as the scheduler will see it: with the priority and policy admission gives it."""
    spec = pod.get("spec")
    if resolution is None or not isinstance(spec, Mapping):
        return pod
    filled = {"priority": resolution.priority, "preemptionPolicy": resolution.preemption_policy, **spec}
    return {**pod, "spec": filled}


def annotation_ops(
    pod: Mapping[str, Any], view: ClusterView, settings: Settings, models: SchedulerModels,
    admitted: Mapping[str, Any] | None = None,
) -> list[PatchOp]:
    """The patch that sets the score and prediction annotations (empty for a bound pod); ``admitted`` is the
    pod with its resolved priority, for the preemption prediction."""
    spec = pod.get("spec")
    if not isinstance(spec, Mapping) or spec.get("nodeName"):
        return []
    scheduler = spec.get("schedulerName")
    scheduler = scheduler if isinstance(scheduler, str) and scheduler else DEFAULT_SCHEDULER_NAME
    kube, volcano = models.current()
    target, why_not = _pick_model(scheduler, kube, volcano, settings)
    if target is None:
        return _unscored(pod, scheduler, why_not)
    model, profile = target
    preemption: dict[str, Any] | None = None
    for_pod: dict[str, dict[str, str]] = {}
    try:
        with view.scheduling_state() as state:
            # the filters compare priorities with nominated pods': the pod as admission stores it
            ranking = state.rank(admitted or pod, model, profile, top=settings.top)
            kube_profile = model.profile(profile) if isinstance(model, KubeSchedulerModel) and profile else None
            if kube_profile is not None:
                for_pod = plugins_for_pod(pod, kube_profile, state.affinity_counts,
                                          scored=ranking.feasible_nodes > 1)
            if ranking.feasible_nodes == 0 and kube_profile is not None:
                preemption = preemption_summary(state.preempt(admitted or pod, kube_profile,
                                                              scheduler_names=kube.scheduler_names))
    except ValueError as exc:  # e.g. a quantity the scorer cannot read
        reason = f"cannot score this pod: {one_line(exc, 300)}"
        return _unscored(pod, scheduler, reason)
    chosen = model.profile(profile) if isinstance(model, KubeSchedulerModel) and profile is not None else None
    not_modelled = chosen.unmodelled_scores if chosen is not None else {}
    node_order = [p.name for p in model.other_node_order] if isinstance(model, VolcanoModel) else []
    predicates = list(model.other_predicates) if isinstance(model, VolcanoModel) else []
    return _ops(pod, fit_annotations(pod, scheduler, ranking, settings.top, preemption, not_modelled, node_order,
                                     predicates, for_pod))


def preemption_summary(fast: FastPreemption) -> dict[str, Any] | None:
    """The prediction annotation's ``preemption`` part: bounded, whatever the number of victims/nodes."""
    if not fast.needed:
        return None
    return {
        "eligible": fast.eligible,
        "nominatedNode": fast.nominated_node,
        "possibleNodes": list(fast.possible_nodes[:PREEMPTION_NAMES_SHOWN]),
        "possibleNodeCount": len(fast.possible_nodes),
        "victimCount": len(fast.victims),
        "victims": list(fast.victims[:PREEMPTION_NAMES_SHOWN]),
        "pdbViolations": fast.pdb_violations,
        "decidedBy": fast.decided_by,
        "random": [note[:300] for note in fast.random[:PREEMPTION_NAMES_SHOWN]],
        "notEligibleReason": fast.not_eligible_reason,
        "message": fast.event_message,  # at most 1024 bytes, as the scheduler's event
    }


def fit_annotations(
    pod: Mapping[str, Any], scheduler: str, ranking: Ranking, requested_top: int,
    preemption: dict[str, Any] | None = None, not_modelled: Mapping[str, int] | None = None,
    not_modelled_node_order: Sequence[str] = (), not_modelled_predicates: Sequence[str] = (),
    not_modelled_for_pod: Mapping[str, Mapping[str, str]] | None = None,
) -> dict[str, str]:
    """Both annotations, with as many scores as the 256 KiB total-annotations limit allows.

    ``not_modelled``: out-of-tree score plugins (name -> weight) whose scores the ranking leaves out;
    ``not_modelled_node_order``: the Volcano plugins (one per entry) whose node-order scores it leaves out;
    ``not_modelled_predicates``: the Volcano plugins whose predicate functions its filters leave out;
    ``not_modelled_for_pod``: the in-tree plugins the model leaves out that act on this pod
    (:func:`~linter.scoring.unmodelled.plugins_for_pod`, at most a dozen short entries).
    Linear in the number of scored nodes: the annotations are built and measured once; only when they
    do not fit is each score's encoded size measured, and the largest count that fits found by
    bisection over those prefix sums, not by encoding every candidate.
    """
    room = TOTAL_ANNOTATION_SIZE_LIMIT - _existing_size(pod)

    gated = gated_summary(pod)

    def prediction_of(count: int, truncated: bool) -> dict[str, Any]:
        prediction = _prediction(scheduler, ranking, requested_top, count, truncated)
        if gated is not None:
            prediction["gated"] = gated
        if preemption is not None:
            prediction["preemption"] = preemption
        if not_modelled:
            prediction["notModelledScorePlugins"] = dict(not_modelled)
        if not_modelled_node_order:
            prediction["notModelledNodeOrderPlugins"] = list(not_modelled_node_order)
        if not_modelled_predicates:
            prediction["notModelledPredicatePlugins"] = list(not_modelled_predicates)
        if not_modelled_for_pod:
            prediction["notModelledForPod"] = {k: dict(v) for k, v in not_modelled_for_pod.items()}
        return prediction

    def build(count: int, truncated: bool) -> dict[str, str]:
        scores = {node: score for node, score in ranking.scores[:count]}
        prediction = compact_json(prediction_of(count, truncated))
        return {SCORES_ANNOTATION: compact_json(scores), PREDICTION_ANNOTATION: prediction}

    count = len(ranking.scores)
    full = build(count, False)
    if _size(full) <= room:  # the usual case: everything fits, and it is built once
        return full
    prefix = _score_prefix_sizes(ranking)
    fixed = len(SCORES_ANNOTATION) + len(PREDICTION_ANNOTATION)

    def size(count: int, truncated: bool) -> int:
        if prefix is None:
            return _size(build(count, truncated))
        scores = 2 + prefix[count] + 3 * count + max(count - 1, 0)  # braces, entries, quotes and colons, commas
        return fixed + scores + len(compact_json(prediction_of(count, truncated)).encode("utf-8"))

    low, high = 0, count - 1  # the largest count that fits, by bisection
    if size(0, True) > room:
        return {}
    while low < high:
        middle = (low + high + 1) // 2
        if size(middle, True) <= room:
            low = middle
        else:
            high = middle - 1
    return build(low, True)


def gated_summary(pod: Mapping[str, Any]) -> dict[str, Any] | None:
    """The prediction's ``gated`` part: the first gate names, their count and :data:`GATED_NOTE`; None
    for a pod without scheduling gates."""
    spec = pod.get("spec")
    gates = spec.get("schedulingGates") if isinstance(spec, Mapping) else None
    if not isinstance(gates, list) or not gates:
        return None
    names = [g.get("name") for g in gates if isinstance(g, Mapping) and isinstance(g.get("name"), str)]
    return {"gates": names[:PREEMPTION_NAMES_SHOWN], "gateCount": len(gates), "note": GATED_NOTE}


def _score_prefix_sizes(ranking: Ranking) -> list[int] | None:
    """prefix[i]: encoded bytes of the first i node names and scores, quotes and colons left out (None: repeats)."""
    names = [node for node, _ in ranking.scores]
    values = [score for _, score in ranking.scores]
    if len(set(names)) != len(names):
        return None  # the dict would drop repeats: measure the real encoding instead
    joined = "".join(names)
    if joined.isascii() and joined.isprintable() and '"' not in joined and "\\" not in joined:
        keys: Iterable[int] = map(len, names)  # plain ASCII node names: encoded as they are, in quotes
    else:
        keys = (len(compact_json(n).encode("utf-8")) - 2 for n in names)
    if set(map(type, values)) <= {int, float} and all(map(math.isfinite, values)):
        lengths: Iterable[int] = map(len, map(repr, values))  # json writes ints and finite floats as repr
    else:
        lengths = (len(compact_json(v).encode("utf-8")) for v in values)
    return [0, *accumulate(map(operator.add, keys, lengths))]


def _pick_model(
    scheduler: str, kube: KubeSchedulerModel, volcano: VolcanoModel | None, settings: Settings
) -> tuple[tuple[KubeSchedulerModel | VolcanoModel, str | None] | None, str]:
    if scheduler == settings.volcano_scheduler_name:
        if volcano is None:
            return None, f"scheduler {scheduler!r} is Volcano, but no Volcano scheduler config is loaded"
        return (volcano, None), ""
    if kube.profile(scheduler) is None:
        known = ", ".join(p.scheduler_name for p in kube.profiles)
        return None, (
            f"unknown scheduler {scheduler!r}: not a profile of the kube-scheduler config ({known}) "
            f"and not the Volcano scheduler ({settings.volcano_scheduler_name!r})"
        )
    return (kube, scheduler), ""


def _prediction(scheduler: str, ranking: Ranking, requested_top: int, count: int, truncated: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "schedulerName": scheduler,
        "scored": True,
        "engine": ranking.engine,
        "profile": ranking.profile,
        "strategy": ranking.strategy,
        "pluginWeight": ranking.plugin_weight,
        "feasibleNodes": ranking.feasible_nodes,
        "totalNodes": ranking.total_nodes,
        "bestNode": ranking.best_node,
        "top": count,
    }
    if ranking.nodes_to_find is not None:
        out["feasibleNodesToFind"] = ranking.nodes_to_find
        if ranking.feasible_nodes > ranking.nodes_to_find:
            out["sampled"] = sampled_note(ranking.engine == ENGINE_VOLCANO, ranking.nodes_to_find,
                                          ranking.feasible_nodes, "bestNode")
    if ranking.feasible_nodes == 0:
        out["unschedulableReasons"] = dict(sorted(ranking.reason_counts.items()))
        if ranking.engine == ENGINE_VOLCANO and ranking.total_nodes and ranking.reason_counts:
            # the message Volcano puts on the pod's PodScheduled condition (FitErrors.Error)
            out["message"] = fit_errors_message(ranking.total_nodes, ranking.reason_counts)
    if truncated:
        out["truncated"] = (
            f"scores cut from {len(ranking.scores)} (top {requested_top}) to {count} nodes to stay within "
            f"the {TOTAL_ANNOTATION_SIZE_LIMIT}-byte total annotation size limit"
        )
    return out


def _unscored(pod: Mapping[str, Any], scheduler: str, reason: str) -> list[PatchOp]:
    unscored: dict[str, Any] = {"schedulerName": scheduler, "scored": False, "reason": reason}
    gated = gated_summary(pod)
    if gated is not None:
        unscored["gated"] = gated
    prediction = {PREDICTION_ANNOTATION: compact_json(unscored)}
    fits = _size(prediction) <= TOTAL_ANNOTATION_SIZE_LIMIT - _existing_size(pod)
    return _ops(pod, prediction if fits else {})


def _ops(pod: Mapping[str, Any], annotations: Mapping[str, str]) -> list[PatchOp]:
    """Set ``annotations``; remove ours that they leave out (an earlier invocation's, e.g. before a reinvocation):
    a stale one would contradict the new prediction and still count towards the size limit."""
    ops = set_members(pod, ["metadata", "annotations"], annotations)
    metadata = pod.get("metadata")
    existing = metadata.get("annotations") if isinstance(metadata, Mapping) else None
    if isinstance(existing, Mapping):
        ops += [PatchOp("remove", pointer(["metadata", "annotations", key]), None)
                for key in (SCORES_ANNOTATION, PREDICTION_ANNOTATION) if key in existing and key not in annotations]
    return ops


def _existing_size(pod: Mapping[str, Any]) -> int:
    metadata = pod.get("metadata")
    existing = metadata.get("annotations") if isinstance(metadata, Mapping) else None
    if not isinstance(existing, Mapping):
        return 0
    kept = {k: v for k, v in existing.items() if k not in (SCORES_ANNOTATION, PREDICTION_ANNOTATION)}
    return _size({str(k): v if isinstance(v, str) else "" for k, v in kept.items()})


def _size(annotations: Mapping[str, str]) -> int:
    return sum(len(k.encode("utf-8")) + len(v.encode("utf-8")) for k, v in annotations.items())
