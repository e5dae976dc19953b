"""NodeResourcesFit disabled at Score only is still built for its Filter: its ``ignoredResources`` still
apply there (and ``--write-config-to`` still prints its args, the effective model's ``built_fit``), in
explain, the webhook's ranking and preemption alike.

Node a has 1 example.com/foo; the pod asks for 2. Ignored, the resource does not count, so a fits.
"""

from __future__ import annotations

from linter.engine import load_scheduler_model
from linter.explain import explain
from linter.model import KubeSchedulerModel

from .preemption.build import node, pod
from .test_cluster_nominated import state_of

CONFIG = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- plugins:
    score:
      disabled: [{name: NodeResourcesFit}, {name: NodeResourcesBalancedAllocation}]
  pluginConfig:
  - name: NodeResourcesFit
    args: {ignoredResources: [example.com/foo]}
"""
NODES = (node("a", allocatable={"example.com/foo": "1"}),)
POD = pod("p", None, 0, requests={"cpu": "1", "example.com/foo": "2"})


def _model(text: str = CONFIG) -> KubeSchedulerModel:
    model, findings = load_scheduler_model(text, "c.yaml")
    assert isinstance(model, KubeSchedulerModel), findings
    return model


def test_the_model_keeps_the_args_of_a_plugin_that_does_not_score() -> None:
    (profile,) = _model().profiles
    assert profile.fit is None and profile.balanced is None  # neither scores
    assert profile.built_fit is not None and profile.built_fit.ignored_resources == ("example.com/foo",)
    assert profile.built_balanced is not None  # still built for PreScore: its args are written out
    assert "NodeResourcesFit" not in profile.score_plugin_weights


def test_explain_filters_with_the_ignored_resources() -> None:
    (only,) = explain(_model(), list(NODES), [], POD)["nodes"]
    assert only["feasible"] is True, only
    assert only["score"] is None  # Fit does not score


def test_the_webhook_ranking_filters_with_the_ignored_resources() -> None:
    ranking = state_of(*NODES).rank(POD, _model(), top=0)
    assert ranking.feasible_nodes == 1, ranking.reason_counts


def test_without_the_ignored_resources_the_node_is_rejected() -> None:
    model = _model(CONFIG.replace("ignoredResources: [example.com/foo]", "ignoredResources: []"))
    (only,) = explain(model, list(NODES), [], POD)["nodes"]
    assert only["feasible"] is False
    assert state_of(*NODES).rank(POD, model, top=0).reason_counts == {"Insufficient example.com/foo": 1}
