"""``simple_pod_amounts`` (one pass over a plain-container pod) equals the three scalar request functions."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from linter.scoring.cluster.requests import counted_resource, simple_pod_amounts
from linter.scoring.cluster.state import ClusterState
from linter.scoring.requests import actual_request, fit_node_contribution, volcano_request

from .test_cluster_property import SETTINGS, pod_spec

NAMES = ["cpu", "memory", "ephemeral-storage", "pods", "nvidia.com/gpu", "example.com/foo", "hugepages-2Mi",
         "foo", "requests.example.com/x", "attachable-volumes-aws-ebs"]
QUANTITIES = st.one_of(
    st.sampled_from(["0", "1", "100m", "250m", "0.5", "1.0005", "2500u", "1Gi", "200Mi", "3", "1e3", "7k"]),
    st.integers(0, 5),
    st.sampled_from([0.25, 1.5]),
)
REQUESTS = st.dictionaries(st.sampled_from(NAMES), QUANTITIES, max_size=4)
CONTAINER = st.fixed_dictionaries(
    {"name": st.just("c")},
    optional={"resources": st.one_of(st.none(), st.fixed_dictionaries({}, optional={"requests": REQUESTS}))},
)


@st.composite
def plain_pod(draw: st.DrawFn) -> dict[str, Any]:
    spec: dict[str, Any] = {"nodeName": "n"}
    if draw(st.integers(0, 9)):
        spec["containers"] = draw(st.lists(CONTAINER, max_size=3))
    if draw(st.booleans()):
        spec["initContainers"] = []
    return {"metadata": {"name": "p", "namespace": "ns"}, "spec": spec}


def scalar_amounts(pod: dict[str, Any]) -> tuple[dict[str, int], dict[str, int], dict[str, float]]:
    actual = {k: v for k, v in actual_request(pod).items() if counted_resource(k)}
    return fit_node_contribution(pod), actual, volcano_request(pod)


@SETTINGS
@given(pod=plain_pod())
def test_plain_pods_match_the_scalar_functions(pod: dict[str, Any]) -> None:
    assert simple_pod_amounts(pod) == scalar_amounts(pod)


@SETTINGS
@given(spec=pod_spec())
def test_any_pod_either_matches_or_falls_back(spec: dict[str, Any]) -> None:
    pod = {"metadata": {"name": "p", "namespace": "ns"}, "spec": {**spec, "nodeName": "n"}}
    got = simple_pod_amounts(pod)
    if got is not None:
        assert got == scalar_amounts(pod)
    elif not spec.get("initContainers") and "resources" not in spec and "overhead" not in spec:
        raise AssertionError(f"a plain pod fell back: {spec!r}")


def test_malformed_pods_fall_back_to_the_scalar_errors() -> None:
    bad = {"metadata": {"name": "p", "namespace": "ns"},
           "spec": {"nodeName": "n", "containers": [{"name": "c", "resources": {"requests": {"cpu": "lots"}}}]}}
    assert simple_pod_amounts(bad) is None
    state = ClusterState()
    try:
        state.apply_pod(bad)
    except ValueError as exc:
        assert "spec.containers[0].resources.requests.cpu" in str(exc)
    else:
        raise AssertionError("a bad quantity was accepted")
    assert state.pod_count == 0


def test_volcano_contribution_rounds_each_container() -> None:
    plain = {"spec": {"containers": [{"resources": {"requests": {"cpu": "1.0005"}}}] * 2}}
    amounts = simple_pod_amounts(plain)
    assert amounts is not None
    assert amounts[2]["cpu"] == 2002.0 == volcano_request(plain)["cpu"]
    assert amounts[1]["cpu"] == 2001
