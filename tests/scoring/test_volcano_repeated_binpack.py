"""binpack listed twice (Volcano ed72c7c): each occurrence with a non-zero binpack.weight registers the
node-order function under the plugin's name, the last one winning; the scoring loop then calls that one
function once for every occurrence whose enableNodeOrder is not false, whatever that occurrence's own
weight. So an occurrence with weight 0 still counts once more with the other one's arguments."""

from __future__ import annotations

from typing import Any

from linter.explain import explain
from linter.formats.volcano.handler import analyze
from linter.model import VolcanoModel
from linter.scoring.cluster.state import ClusterState
from linter.source import parse_documents

HEAD = 'actions: "enqueue, allocate"\ntiers:\n- plugins:\n  - name: binpack\n    arguments: {binpack.weight: 5}\n'


def _model(text: str) -> VolcanoModel:
    model = analyze(parse_documents(text, "volcano-scheduler.conf")[0]).model
    assert isinstance(model, VolcanoModel)
    return model


def _score(text: str) -> float:
    state = ClusterState()
    state.apply_node({"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi"}}})
    pod: dict[str, Any] = {"metadata": {"name": "p", "namespace": "default"}, "spec": {
        "schedulerName": "volcano", "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}
    ((_, score),) = state.rank(pod, _model(text), top=0, filters=False).scores
    return float(score)


def test_an_occurrence_with_weight_zero_still_calls_the_function_another_one_registered() -> None:
    once = _score(HEAD)
    assert once > 0
    second = "- plugins:\n  - name: binpack\n    arguments: {binpack.weight: 0}\n"
    assert _score(HEAD + second) == 2 * once


def test_an_occurrence_with_node_ordering_off_adds_nothing() -> None:
    second = "- plugins:\n  - name: binpack\n    enableNodeOrder: false\n    arguments: {binpack.weight: 0}\n"
    assert _score(HEAD + second) == _score(HEAD)


def test_no_occurrence_with_a_weight_registers_nothing() -> None:
    only_zero = HEAD.replace("binpack.weight: 5", "binpack.weight: 0")
    assert _score(only_zero) == 0


def _explained(text: str) -> dict[str, Any]:
    node = {"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi"}}}
    pod: dict[str, Any] = {"metadata": {"name": "p", "namespace": "default"}, "spec": {
        "schedulerName": "volcano", "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}
    ((explained,),) = [explain(_model(text), [node], [], pod)["nodes"]]
    return explained


def test_explain_scores_the_registered_function_once_per_enabled_entry_as_the_webhook_does() -> None:
    # The weight-0 entry comes first: explaining it alone would say binpack adds nothing.
    text = HEAD.replace("binpack.weight: 5", "binpack.weight: 0") + HEAD.split("tiers:\n")[1]
    node = _explained(text)
    assert node["nodeOrderRegistered"] is True
    assert node["binpackScore"] == 125.0  # cpu 1/4 alone, * 100 * 5
    assert node["score"] == 250.0 == _score(text)
