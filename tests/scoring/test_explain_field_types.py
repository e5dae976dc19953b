"""``binpack-lint explain`` refuses a Node or Pod field of a type the apiserver could never hold.

Such a field used to be read leniently (labels that are a list as no labels, taints that are a
mapping as no taints), so explain described another object. Now it is one line naming the file,
the object and the field, exit 2, as a bad quantity is.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from linter.cli import main
from linter.explain.dump import DumpBuilder
from linter.explain.inputs import ExplainInputError, load_cluster_objects

NODE = """apiVersion: v1
kind: Node
metadata:
  name: n1
  labels: {zone: a}
spec: {}
status:
  allocatable: {cpu: '4', memory: 4Gi, pods: '110'}
"""
POD = """apiVersion: v1
kind: Pod
metadata: {name: incoming, namespace: default}
spec:
  containers:
  - name: app
    resources: {requests: {cpu: '1'}}
"""


def explain(tmp_path: Path, state: str, pod: str) -> tuple[int, str, str]:
    (tmp_path / "state.yaml").write_text(state)
    (tmp_path / "pod.yaml").write_text(pod)
    out, err = io.StringIO(), io.StringIO()
    code = main(["explain", "--cluster", str(tmp_path / "state.yaml"),
                 "--pod", str(tmp_path / "pod.yaml")], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_the_valid_pair_is_explained(tmp_path: Path) -> None:
    code, out, err = explain(tmp_path, NODE, POD)
    assert (code, err) == (0, "") and "n1" in out


@pytest.mark.parametrize(("old", "new", "problem"), [
    ("labels: {zone: a}", "labels: [zone, a]", "metadata.labels must be a mapping (got a list)"),
    ("labels: {zone: a}", "labels: {zone: 1}", "metadata.labels.zone must be a string (got a number)"),
    ("spec: {}", "spec: {taints: {key: k, effect: NoSchedule}}", "spec.taints must be a list (got a mapping)"),
    ("spec: {}", "spec: {taints: [NoSchedule]}", "spec.taints[0] must be a mapping (got a string)"),
    ("spec: {}", "spec: {taints: [{key: k, effect: 5}]}", "spec.taints[0].effect must be a string (got a number)"),
    ("spec: {}", "spec: {unschedulable: 'true'}", "spec.unschedulable must be a boolean (got a string)"),
    ("allocatable: {cpu: '4', memory: 4Gi, pods: '110'}", "allocatable: [cpu]",
     "status.allocatable must be a mapping (got a list)"),
])
def test_a_wrongly_typed_node_field_is_named(tmp_path: Path, old: str, new: str, problem: str) -> None:
    state = tmp_path / "state.yaml"
    assert explain(tmp_path, NODE.replace(old, new), POD) == (
        2, "", f"binpack-lint explain: error: STATE {state}: Node n1: {problem}\n")


@pytest.mark.parametrize(("field", "problem"), [
    ("  tolerations: {key: k}\n", "spec.tolerations must be a list (got a mapping)"),
    ("  tolerations: [{key: k, operator: 1}]\n", "spec.tolerations[0].operator must be a string (got a number)"),
    ("  nodeSelector: [zone]\n", "spec.nodeSelector must be a mapping (got a list)"),
    ("  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
     "[{matchExpressions: [{key: zone, operator: In, values: a}]}]}}}\n",
     "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
     ".matchExpressions[0].values must be a list (got a string)"),
    ("  nodeName: 5\n", "spec.nodeName must be a string (got a number)"),
    ("  schedulerName: [a]\n", "spec.schedulerName must be a string (got a list)"),
    ("  priorityClassName: 7\n", "spec.priorityClassName must be a string (got a number)"),
])
def test_a_wrongly_typed_pod_field_is_named(tmp_path: Path, field: str, problem: str) -> None:
    pod = tmp_path / "pod.yaml"
    assert explain(tmp_path, NODE, POD + field) == (
        2, "", f"binpack-lint explain: error: POD {pod}: Pod default/incoming: {problem}\n")


def test_a_pod_label_list_is_named(tmp_path: Path) -> None:
    pod = tmp_path / "pod.yaml"
    text = POD.replace("namespace: default}", "namespace: default, labels: [app]}")
    assert explain(tmp_path, NODE, text) == (
        2, "", f"binpack-lint explain: error: POD {pod}: Pod default/incoming: "
        "metadata.labels must be a mapping (got a list)\n")


def test_a_bound_pod_whose_node_name_is_no_string_is_named(tmp_path: Path) -> None:
    state = tmp_path / "state.yaml"
    bound = "---\n" + POD.replace("name: incoming", "name: bound") + "  nodeName: [n1]\n"
    assert explain(tmp_path, NODE + bound, POD) == (
        2, "", f"binpack-lint explain: error: STATE {state}: Pod default/bound: "
        "spec.nodeName must be a string (got a list)\n")


def test_the_fast_path_for_known_request_shapes_leaves_a_bad_node_name_to_add() -> None:
    builder = DumpBuilder("state.yaml")
    builder.add({"kind": "Pod", "metadata": {"name": "a"},
                 "spec": {"nodeName": "n1", "containers": [{"name": "c"}]}}, "document 1", shape_key="k")
    assert builder.add_known_pod("b", "n1", "Running", "k")
    assert not builder.add_known_pod("c", 5, "Running", "k")
    assert not builder.add_known_pod("c", "n1", ["Running"], "k")


def test_the_objects_read_for_preemption_and_the_webhook_names_a_bad_pod_label_set(tmp_path: Path) -> None:
    state = tmp_path / "state.yaml"
    state.write_text(NODE + "---\n" + POD.replace("namespace: default}", "namespace: default, labels: [app]}")
                     + "  nodeName: n1\n")
    with pytest.raises(ExplainInputError) as raised:
        load_cluster_objects(str(state))
    assert str(raised.value) == (f"STATE {state}: Pod default/incoming: "
                                 "metadata.labels must be a mapping (got a list)")
