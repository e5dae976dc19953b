"""The shipped KubeSchedulerConfiguration schema: loader, positions of its errors, and agreement
with the scheduler (it never rejects a file kube-scheduler accepts)."""

from __future__ import annotations

import json

import pytest
from paths import SHARED

import schemas
from linter import schema
from linter.source import parse_documents
from linter.unwrap import embedded_documents

VECTORS = SHARED / "vectors"
NAME = "kubescheduler-config-v1"
H = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"


def _accepted_texts() -> list[tuple[str, str]]:
    out = []
    for c in json.loads((VECTORS / "config.json").read_text())["cases"]:
        if c["kind"] == "kube-scheduler" and c["expected"]["accepted"]:
            out.append((c["id"], c["text"]))
    for c in json.loads((VECTORS / "oracle-configs.json").read_text())["cases"]:
        if c["verdict"] == "valid":
            out.append((c["id"], c["text"]))
    return out


def test_loader_caches_and_refuses_unknown_names() -> None:
    assert schemas.load(NAME) is schemas.load(NAME)
    assert NAME in schemas.names()
    with pytest.raises(schemas.NoSuchSchemaError):
        schemas.load("no-such-schema")
    with pytest.raises(schemas.NoSuchSchemaError):
        schemas.load("../pyproject")


@pytest.mark.parametrize(("case_id", "text"), _accepted_texts(), ids=[c[0] for c in _accepted_texts()])
def test_schema_accepts_what_the_scheduler_accepts(case_id: str, text: str) -> None:
    docs = parse_documents(text, "x.yaml")
    if docs[0].data.get("kind") == "ConfigMap":
        docs, _ = embedded_documents(docs[0])
    assert schema.validate(docs[0], NAME) == []


@pytest.mark.parametrize(("snippet", "pointer", "line", "column", "key"), [
    ("percentageOfNodesToScor: 5\n", ("percentageOfNodesToScor",), 3, 1, True),
    ("profiles:\n- plugins:\n    score:\n      enabled:\n      - name: X\n        weigth: 1\n",
     ("profiles", 0, "plugins", "score", "enabled", 0, "weigth"), 8, 9, True),
    ("parallelism: 0\n", ("parallelism",), 3, 14, False),
    ("profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
     "        type: MostAllocated\n        resources:\n        - name: cpu\n          weight: 101\n",
     ("profiles", 0, "pluginConfig", 0, "args", "scoringStrategy", "resources", 0, "weight"), 11, 19, False),
    ("profiles:\n- pluginConfig:\n  - name: InterPodAffinity\n    args:\n      hardPodAffinityWeight: -1\n",
     ("profiles", 0, "pluginConfig", 0, "args", "hardPodAffinityWeight"), 7, 30, False),
])
def test_errors_are_positioned(snippet: str, pointer: tuple[object, ...], line: int, column: int, key: bool) -> None:
    (error,) = schema.validate(parse_documents(H + snippet, "x.yaml")[0], NAME)
    assert (error.pointer, error.line, error.column, error.key) == (pointer, line, column, key)
    assert schema.dotted(pointer) in error.message


def test_fit_ranges_do_not_apply_when_the_plugin_is_disabled() -> None:
    snippet = ("profiles:\n- plugins:\n    multiPoint:\n      disabled: [{name: NodeResourcesFit}]\n"
               "  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
               "        resources: [{name: cpu, weight: 500}]\n")
    assert schema.validate(parse_documents(H + snippet, "x.yaml")[0], NAME) == []


def test_positions_inside_a_configmap_are_file_positions() -> None:
    text = ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s}\ndata:\n  config.yaml: |\n"
            "    apiVersion: kubescheduler.config.k8s.io/v1\n    kind: KubeSchedulerConfiguration\n"
            "    parallelism: -3\n")
    inner, problems = embedded_documents(parse_documents(text, "cm.yaml")[0])
    assert problems == []
    (error,) = schema.validate(inner[0], NAME)
    assert (error.line, error.column) == (8, 18)


def test_errors_without_positions() -> None:
    assert schema.errors({"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
                          "parallelism": "x"}, NAME)[0][0] == ("parallelism",)
