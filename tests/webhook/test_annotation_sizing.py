"""Annotation sizing measures each score once: the result equals encoding every candidate count."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from linter.scoring.cluster.rank import Ranking
from webhook.admission.decide import pods
from webhook.admission.decide.pods import PREDICTION_ANNOTATION, SCORES_ANNOTATION, fit_annotations
from webhook.admission.patch import compact_json


def _reference(pod: dict[str, Any], ranking: Ranking, top: int, extra: dict[str, Any] | None = None) -> dict[str, str]:
    """The former algorithm: bisection that encodes both annotations for every candidate count."""
    room = pods.TOTAL_ANNOTATION_SIZE_LIMIT - pods._existing_size(pod)

    def build(count: int, truncated: bool) -> dict[str, str]:
        prediction = {**pods._prediction("default-scheduler", ranking, top, count, truncated), **(extra or {})}
        return {SCORES_ANNOTATION: compact_json(dict(ranking.scores[:count])),
                PREDICTION_ANNOTATION: compact_json(prediction)}

    if pods._size(build(len(ranking.scores), False)) <= room:
        return build(len(ranking.scores), False)
    low, high = 0, len(ranking.scores) - 1
    if pods._size(build(0, True)) > room:
        return {}
    while low < high:
        middle = (low + high + 1) // 2
        if pods._size(build(middle, True)) <= room:
            low = middle
        else:
            high = middle - 1
    return build(low, True)


names = st.text(alphabet=st.sampled_from('abz-.019"\\é名\n'), min_size=1, max_size=40)
scores = st.one_of(st.integers(0, 100), st.floats(0, 1000, allow_nan=False))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(names, scores), max_size=300), st.integers(0, 260_000))
def test_linear_sizing_equals_encoding_every_candidate(entries: list[tuple[str, float]], filler: int) -> None:
    ranking = Ranking("k8s-fit", "default-scheduler", "MostAllocated", 1, len(entries) + 3, len(entries),
                      tuple(entries), best_node=entries[0][0] if entries else None)
    pod = {"metadata": {"annotations": {"filler": "f" * filler}}}
    assert fit_annotations(pod, "default-scheduler", ranking, 0) == _reference(pod, ranking, 0)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(names, scores), max_size=100), st.integers(200_000, 262_000),
       st.lists(names, max_size=30))
def test_preemption_and_unmodelled_plugins_count_towards_the_limit(
    entries: list[tuple[str, float]], filler: int, victims: list[str]
) -> None:
    ranking = Ranking("k8s-fit", "default-scheduler", "MostAllocated", 1, len(entries) + 3, len(entries),
                      tuple(entries), best_node=entries[0][0] if entries else None)
    pod = {"metadata": {"annotations": {"filler": "f" * filler}}}
    preemption = {"eligible": True, "victims": victims, "message": "é" * len(victims)}
    unmodelled = {"Coscheduling": 3}
    extra = {"preemption": preemption, "notModelledScorePlugins": unmodelled}
    assert fit_annotations(pod, "default-scheduler", ranking, 0, preemption, unmodelled) == \
        _reference(pod, ranking, 0, extra)


def test_a_large_ranking_is_cut_to_the_limit() -> None:
    entries = tuple((f"node-{i:05d}", i % 101) for i in range(65_000))
    ranking = Ranking("k8s-fit", "default-scheduler", "MostAllocated", 1, 65_000, 65_000, entries)
    got = fit_annotations({}, "default-scheduler", ranking, 0)
    assert got == _reference({}, ranking, 0)
    assert sum(len(k) + len(v.encode()) for k, v in got.items()) <= pods.TOTAL_ANNOTATION_SIZE_LIMIT
    assert "65000" in json.loads(got[PREDICTION_ANNOTATION])["truncated"]
