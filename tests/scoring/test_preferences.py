"""TaintToleration's and NodeAffinity's scores (linter.scoring.preferences), hand-built from kube-scheduler 1.36:

* tainttoleration: ``getAllTolerationPreferNoSchedule`` keeps the tolerations with effect PreferNoSchedule or
  empty; ``countIntolerableTaintsPreferNoSchedule`` counts the node's PreferNoSchedule taints none of them
  tolerates (``ToleratesTaint``); ``NormalizeScore`` is ``DefaultNormalizeScore(100, reverse=true)``;
  ``PreScore`` never skips.
* nodeaffinity: ``PreScore`` returns Skip when ``getPodPreferredNodeAffinity`` is nil and no ``addedAffinity``
  preferred terms exist; ``Score`` adds the weights of the matching terms (``PreferredSchedulingTerms.Score``,
  terms of weight 0 or without requirements dropped by ``NewPreferredSchedulingTerms``); ``NormalizeScore``
  is ``DefaultNormalizeScore(100, reverse=false)``.
* helper.DefaultNormalizeScore: max over the scored nodes starting at 0; max 0 -> reverse: all 100, else
  unchanged; otherwise ``100 * s / max`` (int64 division), reversed ``100 - that``.
"""

from __future__ import annotations

from typing import Any

import pytest

from linter.model import Profile
from linter.scoring.preferences import (
    node_affinity_raw,
    normalize,
    prefer_no_schedule_tolerations,
    preferred_terms,
    untolerated_prefer_no_schedule,
)

PROFILE = Profile("default-scheduler")
SPOT = {"matchExpressions": [{"key": "pool", "operator": "In", "values": ["spot"]}]}


def _pod(**spec: Any) -> dict[str, Any]:
    return {"spec": {"containers": [{"name": "c"}], **spec}}


def _preferring(*terms: dict[str, Any]) -> dict[str, Any]:
    return _pod(affinity={"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": list(terms)}})


def _count(tolerations: list[dict[str, Any]], *taints: tuple[str, str, str]) -> int:
    return untolerated_prefer_no_schedule(prefer_no_schedule_tolerations(_pod(tolerations=tolerations)), taints)


def test_only_prefer_no_schedule_taints_count() -> None:
    taints = (("a", "", "PreferNoSchedule"), ("b", "", "NoSchedule"), ("c", "", "NoExecute"))
    assert _count([], *taints) == 1


def test_a_no_schedule_toleration_does_not_tolerate_a_prefer_no_schedule_taint() -> None:
    taint = ("a", "", "PreferNoSchedule")
    assert _count([{"key": "a", "operator": "Exists", "effect": "NoSchedule"}], taint) == 1
    assert _count([{"key": "a", "operator": "Exists", "effect": "PreferNoSchedule"}], taint) == 0
    assert _count([{"key": "a", "operator": "Exists"}], taint) == 0  # empty effect: every effect


def test_toleration_matching_is_tolerates_taint() -> None:
    taint = ("a", "x", "PreferNoSchedule")
    assert _count([{"key": "a", "value": "x"}], taint) == 0  # operator "" is Equal
    assert _count([{"key": "a", "operator": "Equal", "value": "y"}], taint) == 1
    assert _count([{"operator": "Exists"}], taint, ("b", "", "PreferNoSchedule")) == 0  # empty key + Exists
    assert _count([{"key": "b", "operator": "Exists"}], taint, ("b", "", "PreferNoSchedule")) == 1


@pytest.mark.parametrize(("raw", "reverse", "want"), [
    ([0, 0, 0], True, [100, 100, 100]),  # maxCount 0, reversed: MaxNodeScore everywhere
    ([0, 0], False, [0, 0]),  # maxCount 0: scores left as they are
    ([0, 1, 3], True, [100, 67, 0]),  # 100 - 100*1/3 = 100 - 33
    ([0, 1, 3], False, [0, 33, 100]),
    ([30, 50, 20], False, [60, 100, 40]),
    ([2, 3], True, [34, 0]),  # 100 - 66
])
def test_default_normalize_score(raw: list[int], reverse: bool, want: list[int]) -> None:
    assert normalize(raw, reverse) == want


def test_node_affinity_skips_a_pod_without_preferred_terms() -> None:
    assert preferred_terms(_pod(), PROFILE) is None
    assert preferred_terms(_preferring(), PROFILE) is None  # [] is not stored: the scheduler sees nil
    # required terms and a nodeSelector are the filter's business, not the score's
    required = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [SPOT]}}}
    assert preferred_terms(_pod(affinity=required, nodeSelector={"pool": "spot"}), PROFILE) is None


def test_added_preferred_terms_score_every_pod() -> None:
    profile = Profile("p", added_preferred_terms=({"weight": 5, "preference": SPOT},))
    terms = preferred_terms(_pod(), profile)
    assert terms is not None
    assert node_affinity_raw(terms, {"pool": "spot"}, "n") == 5
    both = preferred_terms(_preferring({"weight": 7, "preference": SPOT}), profile)
    assert both is not None and node_affinity_raw(both, {"pool": "spot"}, "n") == 12


def test_terms_of_weight_zero_or_without_requirements_count_for_nothing() -> None:
    terms = preferred_terms(_preferring({"weight": 0, "preference": SPOT}, {"weight": 9, "preference": {}},
                                        {"weight": 4, "preference": SPOT}), PROFILE)
    assert terms is not None  # not skipped: the pod has preferred terms
    assert node_affinity_raw(terms, {"pool": "spot"}, "n") == 4
    only_empty = preferred_terms(_preferring({"weight": 9, "preference": {}}), PROFILE)
    assert only_empty == ()  # scored, 0 everywhere


def test_matching_terms_add_their_weights() -> None:
    terms = preferred_terms(_preferring(
        {"weight": 30, "preference": SPOT},
        {"weight": 20, "preference": {"matchExpressions": [{"key": "pool", "operator": "Exists"}]}},
        {"weight": 1, "preference": {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n2"]}]}},
        {"weight": 2, "preference": {"matchExpressions": [{"key": "gen", "operator": "Gt", "values": ["3"]}],
                                     "matchFields": [{"key": "metadata.name", "operator": "NotIn",
                                                      "values": ["n1"]}]}}), PROFILE)
    assert terms is not None
    assert node_affinity_raw(terms, {"pool": "spot", "gen": "4"}, "n1") == 50
    assert node_affinity_raw(terms, {"pool": "od", "gen": "4"}, "n2") == 23
    assert node_affinity_raw(terms, {}, "n3") == 0
