"""``binpack-lint explain`` refuses a Node or Pod field of a type the apiserver could never hold.

Such a field used to be read leniently (labels that are a list as no labels, taints that are a
mapping as no taints), so explain described another object. Now it is one line naming the file,
the object and the field, exit 2, as a bad quantity is.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from linter.cli import main
from linter.explain.dump import DumpBuilder
from linter.explain.fieldtypes import PORT_TYPES, port_problem, type_problem
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


PORTS = "  - name: app\n    ports: [{containerPort: 80, hostPort: 80}]\n"


@pytest.mark.parametrize(("old", "new", "problem"), [
    ("hostPort: 80", "hostPort: '80'", "spec.containers[0].ports[0].hostPort must be an integer (got a string)"),
    ("hostPort: 80", "hostPort: 80.5", "spec.containers[0].ports[0].hostPort must be an integer (got a number)"),
    ("containerPort: 80", "containerPort: true",
     "spec.containers[0].ports[0].containerPort must be an integer (got a boolean)"),
    ("hostPort: 80", "hostPort: 80, hostIP: 10", "spec.containers[0].ports[0].hostIP must be a string (got a number)"),
    ("hostPort: 80", "hostPort: 80, protocol: [UDP]",
     "spec.containers[0].ports[0].protocol must be a string (got a list)"),
    ("ports: [{containerPort: 80, hostPort: 80}]", "ports: {containerPort: 80, hostPort: 80}",
     "spec.containers[0].ports must be a list (got a mapping)"),
    ("ports: [{containerPort: 80, hostPort: 80}]", "ports: [null]",
     "spec.containers[0].ports[0] must be a mapping (got null)"),
    ("", "  initContainers: [{name: s, restartPolicy: 1}]\n",
     "spec.initContainers[0].restartPolicy must be a string (got a number)"),
    ("", "  initContainers: [{name: s, ports: [{hostPort: '80'}]}]\n",
     "spec.initContainers[0].ports[0].hostPort must be an integer (got a string)"),
    ("", "  hostNetwork: 'true'\n", "spec.hostNetwork must be a boolean (got a string)"),
])
def test_a_wrongly_typed_host_port_field_is_named(tmp_path: Path, old: str, new: str, problem: str) -> None:
    """NodePorts reads these: a string port used to be no port at all, so the pod fitted a node whose port
    it wants (the API server could never hold such a pod)."""
    text = POD.replace("  - name: app\n", PORTS)
    text = text.replace(old, new) if old else text + new  # "": a spec field added at the end
    pod = tmp_path / "pod.yaml"
    assert explain(tmp_path, NODE, text) == (
        2, "", f"binpack-lint explain: error: POD {pod}: Pod default/incoming: {problem}\n")


@pytest.mark.parametrize("layout", ["kubectl-yaml", "json", "stream"])
def test_a_state_pod_with_a_wrongly_typed_host_port_is_named(tmp_path: Path, layout: str) -> None:
    # the second holder repeats the first's text but for the port's type: the kubectl YAML reader must not
    # reuse the first one's reading for it
    def holder(name: str, host_port: object) -> dict[str, object]:
        return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"},
                "spec": {"nodeName": "n1", "containers": [
                    {"name": "app", "ports": [{"containerPort": 80, "hostPort": host_port}]}]},
                "status": {"phase": "Running"}}
    items: list[Any] = [yaml.safe_load(NODE), holder("a", 81), holder("b", "80")]
    state = tmp_path / "state.yaml"
    if layout == "kubectl-yaml":
        state.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": items}, sort_keys=False))
    elif layout == "json":
        state.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}, indent=4))
    else:
        state.write_text("".join("---\n" + yaml.safe_dump(o, sort_keys=False) for o in items))
    (tmp_path / "pod.yaml").write_text(POD)
    out, err = io.StringIO(), io.StringIO()
    code = main(["explain", "--cluster", str(state), "--pod", str(tmp_path / "pod.yaml")], out=out, err=err)
    assert (code, out.getvalue(), err.getvalue()) == (
        2, "", f"binpack-lint explain: error: STATE {state}: Pod default/b: "
        "spec.containers[0].ports[0].hostPort must be an integer (got a string)\n")


def test_the_direct_port_check_agrees_with_the_general_walk() -> None:
    values: list[Any] = [None, 80, True, 80.0, "80", "", [], {}, [None], [80], 2**31, -(2**31) - 1, -(2**31)]
    port_fields = ("containerPort", "hostPort", "hostIP", "protocol")
    rng = random.Random(7)
    for _ in range(3000):
        def container(init: bool) -> Any:
            if rng.random() < 0.05:
                return rng.choice(values)
            made: dict[str, Any] = {"name": "c"}
            if init and rng.random() < 0.3:
                made["restartPolicy"] = rng.choice(["Always", 1, None])
            if rng.random() < 0.7:
                made["ports"] = rng.choice([None, "x", {}, [
                    rng.choice([None, 1, {f: rng.choice(values) if rng.random() < 0.2 else 80 if f.endswith("Port")
                                          else "TCP" for f in rng.sample(port_fields, rng.randint(0, 4))}])
                    for _ in range(rng.randint(0, 2))]])
            return made
        spec: dict[str, Any] = {"containers": [container(False) for _ in range(rng.randint(0, 2))]}
        if rng.random() < 0.3:
            spec["initContainers"] = rng.choice([None, "x", [container(True) for _ in range(rng.randint(0, 2))]])
        if rng.random() < 0.2:
            spec["hostNetwork"] = rng.choice([True, False, None, 1, "true"])
        pod = {"spec": spec}
        assert port_problem(pod) == type_problem(pod, PORT_TYPES), pod
