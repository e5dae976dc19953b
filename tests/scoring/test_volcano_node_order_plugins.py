"""Volcano adds the node-order scores of every enabled plugin that registers one (Session.NodeOrderFn,
ed72c7c) to binpack's. explain models binpack only, so it must name the others and leave them out visibly:
nodeorder's default leastrequested.weight 1 pulls against binpack, and its mostrequested.weight pulls with it."""

from __future__ import annotations

from typing import Any

from linter.explain import explain
from linter.explain.render_text import render_text
from linter.formats.volcano.handler import analyze
from linter.model import VolcanoModel
from linter.source import parse_documents

CONF = """actions: "enqueue, allocate, backfill"
tiers:
- plugins:
  - name: priority
  - name: gang
- plugins:
  - name: predicates
    enableNodeOrder: false
  - name: nodeorder
    arguments:
      mostrequested.weight: 2
      leastrequested.weight: "0"
  - name: binpack
  - name: task-topology
  - name: magic
"""


def _model(text: str) -> VolcanoModel:
    model = analyze(parse_documents(text, "volcano-scheduler.conf")[0]).model
    assert isinstance(model, VolcanoModel)
    return model


def _explained(text: str) -> dict[str, Any]:
    node = {"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi"}}}
    pod: dict[str, Any] = {"metadata": {"name": "p", "namespace": "default"}, "spec": {
        "schedulerName": "volcano", "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}
    return explain(_model(text), [node], [], pod)


def test_enabled_node_order_plugins_are_named_with_nodeorders_effective_weights() -> None:
    doc = _explained(CONF)
    # predicates has node ordering off; priority, gang and the unknown "magic" register no node-order function;
    # a quoted "0" is not a Go int, so leastrequested keeps its default 1.
    assert doc["notModelledNodeOrderPlugins"] == [
        {"name": "nodeorder", "weights": {"nodeaffinity": 2, "podaffinity": 2, "leastrequested": 1,
                                          "mostrequested": 2, "balancedresource": 1, "tainttoleration": 3,
                                          "imagelocality": 1, "podtopologyspread": 2}},
        {"name": "task-topology", "weights": None},
    ]
    assert ("  not modelled, left out of every total: the node-order scores Volcano adds to binpack's from "
            "nodeorder (nodeaffinity 2, podaffinity 2, leastrequested 1, mostrequested 2, balancedresource 1, "
            "tainttoleration 3, imagelocality 1, podtopologyspread 2), task-topology\n") in render_text(doc)


def test_a_conf_with_binpack_alone_names_nothing() -> None:
    doc = _explained('actions: "allocate"\ntiers:\n- plugins:\n  - name: binpack\n')
    assert doc["notModelledNodeOrderPlugins"] == []
    assert "not modelled" not in render_text(doc)
