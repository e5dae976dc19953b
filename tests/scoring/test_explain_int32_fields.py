"""explain refuses a number no int32 field of a stored object could hold.

The API server decodes a Pod's ``spec.priority``, its containers' ``containerPort``/``hostPort``, a
topology spread constraint's ``maxSkew``/``minDomains`` and a preferred node affinity term's ``weight`` into Go
``int32`` fields (k8s.io/api/core/v1), a PriorityClass's ``value`` (scheduling/v1) and a PodDisruptionBudget's
``status.disruptionsAllowed`` (policy/v1) too; its JSON decoder refuses a number outside int32 for them. Such
a number used to pass as "an integer" (a STATE pod with ``hostPort: 4294967377`` was explained): it is one
line naming the object and field, exit 2, from every reader of STATE, for POD and for the webhook's
``--cluster-file``. The API validation ranges (ports 1-65535) are another matter (explain's warning line).
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from linter.cli import main
from linter.explain.fieldtypes import PLACEMENT_TYPES, placement_problem, type_problem
from linter.explain.inputs import ExplainInputError, load_cluster_objects

OUT_OF_RANGE = "is out of the 32-bit integer range the API server stores"
LAYOUTS = ("kubectl-yaml", "json", "stream")  # the fast YAML reader, the JSON stream reader, the general reader

NODE: dict[str, Any] = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}, "spec": {},
                        "status": {"allocatable": {"cpu": "4", "memory": "4Gi", "pods": "110"}}}
POD: dict[str, Any] = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "incoming", "namespace": "default"},
                       "spec": {"containers": [{"name": "app", "resources": {"requests": {"cpu": "1"}}}]}}


def bound(name: str, spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"},
            "spec": {"nodeName": "n1", "containers": [{"name": "app"}], **spec}, "status": {"phase": "Running"}}


def write_state(path: Path, items: list[Any], layout: str) -> None:
    if layout == "kubectl-yaml":
        path.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": items}, sort_keys=False))
    elif layout == "json":
        path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}, indent=4))
    else:
        path.write_text("".join("---\n" + yaml.safe_dump(o, sort_keys=False) for o in items))


def explain(tmp_path: Path, items: list[Any], layout: str, pod: dict[str, Any] = POD) -> tuple[int, str, str]:
    state, pod_file = tmp_path / "state.txt", tmp_path / "pod.yaml"
    write_state(state, items, layout)
    pod_file.write_text(yaml.safe_dump(pod))
    out, err = io.StringIO(), io.StringIO()
    code = main(["explain", "--cluster", str(state), "--pod", str(pod_file)], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def _ports(field: str, value: int) -> dict[str, Any]:
    port = {"containerPort": 80, "hostPort": 80, field: value}
    return {"containers": [{"name": "app", "ports": [port]}]}


def _init_ports(value: int) -> dict[str, Any]:
    return {"initContainers": [{"name": "s", "ports": [{"containerPort": 80, "hostPort": value}]}]}


# (the pod's spec for a value, a value outside int32, the field the error names)
STATE_POD_FIELDS: list[tuple[Callable[[int], dict[str, Any]], int, str]] = [
    (lambda v: _ports("hostPort", v), 2**32 + 81, "spec.containers[0].ports[0].hostPort"),
    (lambda v: _ports("containerPort", v), 2**31, "spec.containers[0].ports[0].containerPort"),
    (_init_ports, -(2**31) - 1, "spec.initContainers[0].ports[0].hostPort"),
    (lambda v: {"priority": v}, 3_000_000_000, "spec.priority"),
    # WeightedPodAffinityTerm.weight (InterPodAffinity's score): an int32 too
    (lambda v: {"affinity": {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": v, "podAffinityTerm": {"topologyKey": "zone"}}]}}}, 2**31,
     "spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight"),
]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(("spec", "value", "field"), STATE_POD_FIELDS, ids=[f for _, _, f in STATE_POD_FIELDS])
def test_a_state_pod_int32_field_out_of_range_is_one_line(tmp_path: Path, layout: str,
                                                          spec: Callable[[int], dict[str, Any]], value: int,
                                                          field: str) -> None:
    # a first pod the same but for the value: the kubectl YAML reader must not reuse its reading
    code, out, err = explain(tmp_path, [NODE, bound("a", spec(81)), bound("b", spec(value))], layout)
    assert (code, out, err) == (2, "", f"binpack-lint explain: error: STATE {tmp_path / 'state.txt'}: "
                                       f"Pod default/b: {field} {OUT_OF_RANGE}\n")


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_int32_bounds_are_explained(tmp_path: Path, layout: str) -> None:
    items = [NODE, bound("lo", {"priority": -(2**31), **_ports("hostPort", 2**31 - 1)}),
             bound("hi", {"priority": 2**31 - 1, **_ports("containerPort", -(2**31))})]
    code, out, err = explain(tmp_path, items, layout)
    assert (code, err) == (0, "") and "n1" in out


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(("obj", "field"), [
    ({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "big"}, "value": 2**31},
     "PriorityClass big: value"),
    ({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "web", "namespace": "default"},
      "spec": {"selector": {"matchLabels": {"app": "web"}}}, "status": {"disruptionsAllowed": -(2**31) - 1}},
     "PodDisruptionBudget default/web: status.disruptionsAllowed"),
])
def test_a_priority_class_or_pdb_int32_out_of_range_is_one_line(tmp_path: Path, layout: str, obj: dict[str, Any],
                                                                 field: str) -> None:
    # these were checked before the int32 type in linter.explain.fieldtypes: the same words, every reader
    code, out, err = explain(tmp_path, [NODE, obj], layout)
    assert (code, out, err) == (2, "", f"binpack-lint explain: error: STATE {tmp_path / 'state.txt'}: "
                                       f"{field} {OUT_OF_RANGE}\n")


def _with(path: str, value: int) -> dict[str, Any]:
    pod = json.loads(json.dumps(POD))
    spec = pod["spec"]
    if path == "spec.priority":
        spec["priority"] = value
    elif path.startswith("spec.containers"):
        spec["containers"][0]["ports"] = [{"containerPort": 80, "hostPort": 80, path.rsplit(".", 1)[1]: value}]
    elif path.startswith("spec.topologySpreadConstraints"):
        spec["topologySpreadConstraints"] = [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
                                              "minDomains": 1, path.rsplit(".", 1)[1]: value}]
    else:
        spec["affinity"] = {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": value, "preference": {"matchExpressions": [{"key": "zone", "operator": "Exists"}]}}]}}
    return pod


POD_FIELDS = [
    "spec.priority", "spec.containers[0].ports[0].hostPort", "spec.containers[0].ports[0].containerPort",
    "spec.topologySpreadConstraints[0].maxSkew", "spec.topologySpreadConstraints[0].minDomains",
    "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight",
]


@pytest.mark.parametrize("field", POD_FIELDS)
def test_a_pod_int32_field_out_of_range_is_one_line(tmp_path: Path, field: str) -> None:
    code, out, err = explain(tmp_path, [NODE], "kubectl-yaml", _with(field, 2**31))
    assert (code, out, err) == (2, "", f"binpack-lint explain: error: POD {tmp_path / 'pod.yaml'}: "
                                       f"Pod default/incoming: {field} {OUT_OF_RANGE}\n")


def test_a_preferred_weight_of_the_wrong_type_is_named(tmp_path: Path) -> None:
    # NodeAffinity's score used to skip the term as if it had no weight
    field = POD_FIELDS[-1]
    pod = _with(field, 5)
    pod["spec"]["affinity"]["nodeAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"][0]["weight"] = "5"
    code, out, err = explain(tmp_path, [NODE], "kubectl-yaml", pod)
    assert (code, out, err) == (2, "", f"binpack-lint explain: error: POD {tmp_path / 'pod.yaml'}: "
                                       f"Pod default/incoming: {field} must be an integer (got a string)\n")


def test_the_objects_read_for_preemption_and_the_webhook_refuses_them_too(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    for spec, value, field in STATE_POD_FIELDS:
        write_state(state, [NODE, bound("b", spec(value))], "json")
        with pytest.raises(ExplainInputError) as raised:
            load_cluster_objects(str(state))
        assert str(raised.value) == f"STATE {state}: Pod default/b: {field} {OUT_OF_RANGE}"


def test_the_direct_placement_check_agrees_with_the_general_walk() -> None:
    values: list[Any] = [None, 0, 2**31 - 1, 2**31, -(2**31), -(2**31) - 1, True, 1.0, "1", [], {}, "n1"]
    rng = random.Random(11)
    for _ in range(3000):
        pod: dict[str, Any] = {}
        for part, fields in PLACEMENT_TYPES.items():
            if rng.random() < 0.05:
                pod[part] = rng.choice(values)
            elif rng.random() < 0.9:
                pod[part] = {f: rng.choice([*values, {"a": "b"}]) for f in fields if rng.random() < 0.6}
        assert placement_problem(pod) == type_problem(pod, PLACEMENT_TYPES), pod
