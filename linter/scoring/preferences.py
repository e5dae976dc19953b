"""kube-scheduler 1.36's TaintToleration and NodeAffinity scores, one node at a time.

Both plugins score what the pod prefers rather than what it needs, and both normalise over the nodes
the framework scores (``RunScorePlugins``: the feasible nodes), so a node's score depends on the others:

* TaintToleration: the raw score is the number of the node's ``PreferNoSchedule`` taints that none of the
  pod's tolerations with effect ``PreferNoSchedule`` or empty tolerates (``countIntolerableTaintsPreferNoSchedule``
  over ``getAllTolerationPreferNoSchedule``). Normalised in reverse: ``100 - floor(100 * raw / max)``, and
  100 everywhere when no scored node has such a taint. Its PreScore never skips.
* NodeAffinity: the raw score is the sum of the weights of the pod's preferred terms
  (``preferredDuringSchedulingIgnoredDuringExecution``) that match the node, plus those of the profile's
  ``addedAffinity`` preferred terms; a term of weight 0 or without requirements counts for nothing.
  Normalised ``floor(100 * raw / max)``, 0 everywhere when the most is 0. PreScore returns Skip (the plugin
  adds nothing) when the pod has no preferred terms and the profile none added.

The weights come from the profile (:attr:`~linter.model.Profile.taint_toleration_weight`,
:attr:`~linter.model.Profile.node_affinity_weight`). NOT modelled: a preferred term kube-scheduler cannot
parse makes its PreScore fail (the pod is not scheduled at all); here such a term matches no node.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from linter.model import Profile
from linter.scoring.feasibility import term_matches, tolerates
from linter.scoring.gomath import go_div
from linter.scoring.strategies import MAX_NODE_SCORE

__all__ = [
    "PREFER_NO_SCHEDULE",
    "PreferredTerms",
    "node_affinity_raw",
    "normalize",
    "prefer_no_schedule_tolerations",
    "preferred_terms",
    "untolerated_prefer_no_schedule",
]

PREFER_NO_SCHEDULE = "PreferNoSchedule"

# (weight, preference) of every term that can count: weight other than 0 and some requirement
PreferredTerms = tuple[tuple[int, Mapping[str, Any]], ...]


def prefer_no_schedule_tolerations(pod: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The pod's tolerations that can tolerate a PreferNoSchedule taint: effect empty or PreferNoSchedule."""
    spec = pod.get("spec")
    raw = spec.get("tolerations") if isinstance(spec, Mapping) else None
    return [t for t in raw if isinstance(t, Mapping) and (t.get("effect") or "") in ("", PREFER_NO_SCHEDULE)] \
        if isinstance(raw, list) else []


def untolerated_prefer_no_schedule(tolerations: Sequence[Mapping[str, Any]],
                                   taints: Iterable[tuple[str, str, str]]) -> int:
    """TaintToleration's raw score: PreferNoSchedule taints ``(key, value, effect)`` no toleration tolerates."""
    return sum(1 for key, value, effect in taints
               if effect == PREFER_NO_SCHEDULE and not any(tolerates(t, key, value, effect) for t in tolerations))


def _terms(raw: object) -> list[tuple[int, Mapping[str, Any]]]:
    out: list[tuple[int, Mapping[str, Any]]] = []
    for term in raw if isinstance(raw, list) else ():
        if not isinstance(term, Mapping):
            continue
        weight, preference = term.get("weight"), term.get("preference")
        if not isinstance(weight, int) or isinstance(weight, bool) or weight == 0:
            continue  # NewPreferredSchedulingTerms skips a term of weight 0
        if isinstance(preference, Mapping) and (preference.get("matchExpressions") or preference.get("matchFields")):
            out.append((weight, preference))
    return out


def preferred_terms(pod: Mapping[str, Any], profile: Profile) -> PreferredTerms | None:
    """The terms NodeAffinity's Score adds up for ``pod`` (the profile's added ones first), or None when its
    PreScore skips the pod. An empty list in the pod counts as none: the API server does not store it."""
    spec = pod.get("spec")
    affinity = spec.get("affinity") if isinstance(spec, Mapping) else None
    node_affinity = affinity.get("nodeAffinity") if isinstance(affinity, Mapping) else None
    own = node_affinity.get("preferredDuringSchedulingIgnoredDuringExecution") \
        if isinstance(node_affinity, Mapping) else None
    if not own and not profile.added_preferred_terms:
        return None
    return (*_terms(list(profile.added_preferred_terms)), *_terms(own))


def node_affinity_raw(terms: PreferredTerms, labels: Mapping[str, str], name: str) -> int:
    """NodeAffinity's raw score on a node: the weights of the matching terms."""
    fields = {"metadata.name": name}
    return sum(weight for weight, term in terms if term_matches(term, labels, fields))


def normalize(raw: Sequence[int], reverse: bool) -> list[int]:
    """``DefaultNormalizeScore(100, reverse, scores)`` over the scored nodes' raw scores."""
    most = max([0, *raw])
    if most == 0:
        return [MAX_NODE_SCORE] * len(raw) if reverse else list(raw)
    scaled = [go_div(MAX_NODE_SCORE * r, most) for r in raw]
    return [MAX_NODE_SCORE - s for s in scaled] if reverse else scaled
