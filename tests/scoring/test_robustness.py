"""Arbitrary JSON where a pod or node field is expected never crashes the model: it is either
judged (feasibility) or refused with QuantityError (quantities)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linter.cli import main
from linter.scoring.feasibility import check_node
from linter.scoring.quantity import QuantityError
from linter.scoring.requests import actual_request, fit_node_contribution, fit_score_request, volcano_request

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", "In", "Exists", "Gt", "metadata.name", "n1", "1", "NoSchedule", "Always", "2Gi", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["key", "operator", "values", "effect", "value", "matchFields", "matchExpressions",
                         "nodeSelectorTerms", "requests", "resources", "cpu", "memory", "restartPolicy"]),
        inner, max_size=4),
    max_leaves=12,
)


@given(st.dictionaries(st.sampled_from(["nodeSelector", "tolerations", "affinity", "nodeName", "containers",
                                        "initContainers", "overhead", "resources"]), json_values, max_size=5),
       st.dictionaries(st.sampled_from(["unschedulable", "taints"]), json_values, max_size=2),
       st.one_of(st.none(), st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=3)))
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_any_shape_is_judged_or_refused(spec: dict[str, Any], node_spec: dict[str, Any], labels: Any) -> None:
    pod = {"metadata": {"name": "p"}, "spec": spec}
    node = {"metadata": {"name": "n1", "labels": labels}, "spec": node_spec}
    request: dict[str, int] = {}
    try:
        request = actual_request(pod)
        fit_score_request(pod), fit_node_contribution(pod), volcano_request(pod)
    except QuantityError as exc:
        assert str(exc)
    verdict = check_node(pod, node, pod_request=request, pod_count=0, node_requested={},
                         node_allocatable={"pods": 1})
    assert verdict.feasible == (not verdict.reasons)


@given(json_values)
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
def test_explain_never_raises_on_odd_documents(tmp_path: Path, doc: Any) -> None:
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"kind": "List", "items": [
        {"kind": "Node", "metadata": {"name": "n1"}, "spec": doc, "status": {"allocatable": {"pods": "3"}}},
        {"kind": "Pod", "metadata": {"name": "q"}, "spec": {"nodeName": "n1", "containers": [{"resources": doc}]}},
    ]}))
    pod = tmp_path / "pod.json"
    pod.write_text(json.dumps({"kind": "Pod", "metadata": {"name": "p"},
                               "spec": {"containers": [{"name": "c"}], "affinity": doc, "tolerations": doc}}))
    out, err = io.StringIO(), io.StringIO()
    code = main(["explain", "--cluster", str(state), "--pod", str(pod), "-f", "json"], out=out, err=err)
    assert code in (0, 2)
    if code == 2:
        assert len(err.getvalue().strip().splitlines()) == 1
    else:
        assert json.loads(out.getvalue())["nodes"][0]["name"] == "n1"


requirement = st.dictionaries(st.sampled_from(["key", "operator", "values"]), json_values | st.sampled_from(
    ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "metadata.name", "zone"]), max_size=3)
term = st.dictionaries(st.sampled_from(["matchExpressions", "matchFields"]),
                       st.lists(requirement, max_size=3) | json_values, max_size=2)
toleration = st.dictionaries(st.sampled_from(["key", "operator", "value", "effect"]), json_values, max_size=4)
taint = st.dictionaries(st.sampled_from(["key", "value", "effect"]), json_values | st.just("NoSchedule"), max_size=3)


@given(st.lists(term, max_size=3) | json_values, st.lists(toleration, max_size=3) | json_values,
       st.lists(taint, max_size=3) | json_values)
@settings(max_examples=400)
def test_affinity_and_taints_of_any_shape(terms: Any, tolerations: Any, taints: Any) -> None:
    pod = {"metadata": {"name": "p"}, "spec": {"tolerations": tolerations, "affinity": {"nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}}}
    node = {"metadata": {"name": "n1", "labels": {"zone": "a", "n": "3"}}, "spec": {"taints": taints}}
    verdict = check_node(pod, node, pod_request={}, pod_count=0, node_requested={}, node_allocatable={"pods": 1})
    assert verdict.feasible == (not verdict.reasons)


_KUBECTL_STATE = """apiVersion: v1
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: n1
  status:
    allocatable:
      cpu: {cpu}
      pods: '110'
kind: List
"""
_POD = "apiVersion: {version}\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n"


@pytest.mark.parametrize(("tagged", "problem"), [
    # PyYAML's constructors raise KeyError, IndexError and AttributeError on these, not a YAMLError
    ("!!bool v1", "'v1' is not a valid !!bool"),
    ('!!int ""', "'' is not a valid !!int"),
    ('!!float ""', "'' is not a valid !!float"),
    ("!!timestamp v1", "'v1' is not a valid !!timestamp"),
])
def test_a_tagged_scalar_that_is_no_such_value_is_one_line(tmp_path: Path, tagged: str, problem: str) -> None:
    state, pod = tmp_path / "state.yaml", tmp_path / "pod.yaml"
    state.write_text(_KUBECTL_STATE.format(cpu=tagged))  # kubectl's layout: the fast reader, then the general one
    pod.write_text(_POD.format(version="v1"))
    out, err = io.StringIO(), io.StringIO()
    code = main(["explain", "--cluster", str(state), "--pod", str(pod)], out=out, err=err)
    assert (code, err.getvalue()) == (2, f"binpack-lint explain: error: STATE {state}: not valid YAML/JSON "
                                         f"(line 9, column 12): {problem}\n")
    state.write_text(_KUBECTL_STATE.replace("apiVersion: v1\nitems", f"apiVersion: {tagged}\nitems").format(cpu="'8'"))
    out, err = io.StringIO(), io.StringIO()  # a top-level key: the fast reader's check of the List's own keys
    code = main(["explain", "--cluster", str(state), "--pod", str(pod)], out=out, err=err)
    assert (code, err.getvalue()) == (2, f"binpack-lint explain: error: STATE {state}: not valid YAML/JSON "
                                         f"(line 1, column 13): {problem}\n")
    state.write_text(_KUBECTL_STATE.format(cpu="'8'"))
    pod.write_text(_POD.format(version=tagged))
    out, err = io.StringIO(), io.StringIO()
    code = main(["explain", "--cluster", str(state), "--pod", str(pod)], out=out, err=err)
    assert (code, err.getvalue()) == (2, f"binpack-lint explain: error: POD {pod}: not valid YAML/JSON "
                                         f"(line 1, column 13): {problem}\n")


_STATE_WITH_POD = """apiVersion: v1
kind: List{comment}
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: {name}
  spec:
    nodeName: n1
    containers: [{{name: c}}]
"""


@pytest.mark.parametrize("depth", [196, 197, 3000])
def test_the_kubectl_layout_reader_refuses_deep_nesting_where_the_general_reader_does(tmp_path: Path,
                                                                                      depth: int) -> None:
    # the name is kept, so the fast reader parses it (with libyaml, no depth limit); a tab sends the same
    # text to the general reader; both must give the same answer, never a RecursionError (depth 3000 did)
    name = "[" * depth + "]" * depth
    pod = tmp_path / "pod.yaml"
    pod.write_text(_POD.format(version="v1"))
    errors = []
    for comment in ("", " #\t"):
        state = tmp_path / "state.yaml"
        state.write_text(_STATE_WITH_POD.format(comment=comment, name=name))
        out, err = io.StringIO(), io.StringIO()
        assert main(["explain", "--cluster", str(state), "--pod", str(pod)], out=out, err=err) == 2
        errors.append(err.getvalue())
    assert errors[0] == errors[1] and errors[0].count("\n") == 1
    if depth == 196:  # 4 + 196 levels: within the limit, refused for what it is
        assert f"STATE {state}: Pod at document 1.items[0]: metadata.name must be a string" in errors[0]
    else:
        assert errors[0] == (f"binpack-lint explain: error: STATE {state}: not valid YAML/JSON (line 7, column 207): "
                             "nested deeper than 200 levels\n")
