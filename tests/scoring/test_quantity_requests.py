"""Quantities and pod requests against the rules and examples of reference/scoring.md §2, §4 and §8.2."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from linter.scoring.gomath import go_div, go_round
from linter.scoring.quantity import QuantityError, parse_quantity, to_scheduler_int
from linter.scoring.requests import (
    DEFAULT_MEMORY_REQUEST,
    actual_request,
    fit_node_contribution,
    fit_score_request,
    is_scalar_resource,
    volcano_request,
)

MI = 1024 * 1024
GI = 1024 * MI


@pytest.mark.parametrize(("text", "resource", "value"), [
    ("1.0005", "cpu", 1001),  # §2.1: finer fractions round up
    ("100.5", "memory", 101),
    ("256M", "memory", 256_000_000),
    ("1Gi", "memory", 2**30),
    ("0.5", "cpu", 500),
    ("1e3", "memory", 1000),
    ("1E", "memory", 10**18),  # E alone is exa, not an exponent
    ("2.5E-3", "cpu", 3),
])
def test_reference_quantities(text: str, resource: str, value: int) -> None:
    assert to_scheduler_int(resource, parse_quantity(text)) == value


@pytest.mark.parametrize("bad", ["", "1x", "1KB", "1ki", " 1", "1 ", "1e", "1e+", "1e3.5", "--1", "1..0", "1Ki5",
                                 "8Ei", "1e10000"])
def test_invalid_quantities_are_refused_with_the_text(bad: str) -> None:
    with pytest.raises(QuantityError) as info:
        parse_quantity(bad)
    assert repr(bad) in str(info.value) or bad == ""


@pytest.mark.parametrize("text", ["Mi", "-", ".", "e3", "+k"])
def test_missing_digits_read_as_zero_like_go(text: str) -> None:
    """Go's parseQuantityString lets the digits be absent (the value is then 0); so do we."""
    assert parse_quantity(text) == 0


decimals = st.decimals(min_value=Decimal("0"), max_value=Decimal("1e12"), places=6, allow_nan=False)


small_decimals = st.decimals(min_value=Decimal("0"), max_value=Decimal("1e6"), places=6, allow_nan=False)


@given(small_decimals, st.sampled_from(["Ki", "Mi", "Gi", "Ti", "k", "M", "G", "m", "u", "n"]))
def test_suffix_scales_exactly(number: Decimal, suffix: str) -> None:
    scales: dict[str, Fraction] = {
        "Ki": Fraction(2**10), "Mi": Fraction(2**20), "Gi": Fraction(2**30), "Ti": Fraction(2**40),
        "k": Fraction(10**3), "M": Fraction(10**6), "G": Fraction(10**9),
        "m": Fraction(1, 10**3), "u": Fraction(1, 10**6), "n": Fraction(1, 10**9)}
    scale = scales[suffix]
    assert parse_quantity(f"{number}{suffix}") == Fraction(number) * scale


@given(decimals)
def test_integer_conversion_rounds_up(number: Decimal) -> None:
    exact = Fraction(number)
    for resource, factor in (("cpu", 1000), ("memory", 1)):
        got = to_scheduler_int(resource, parse_quantity(str(number)))
        assert exact * factor <= got < exact * factor + 1


def test_go_division_and_rounding() -> None:
    assert go_div((30 - 100) * 10, 30) == -23  # §5: Go truncates toward zero; Python // gives -24
    assert (30 - 100) * 10 // 30 == -24
    assert [go_round(x) for x in (0.5, 1.5, 2.5, -2.5, 59.56, 69.44)] == [1, 2, 3, -3, 60, 69]


def pod(containers: list[dict[str, Any]], init: list[dict[str, Any]] | None = None, **spec: Any) -> dict[str, Any]:
    def c(req: dict[str, str], policy: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"name": "c", "resources": {"requests": req}}
        if policy:
            out["restartPolicy"] = policy
        return out
    return {"kind": "Pod", "metadata": {"name": "p"},
            "spec": {"containers": [c(x) for x in containers],
                     "initContainers": [c(x.get("req", {}), x.get("policy")) for x in init or []], **spec}}


def test_aggregation_examples_of_section_2_3() -> None:
    assert actual_request(pod([{"cpu": "500m"}], [{"req": {"cpu": "2"}}]))["cpu"] == 2000
    sidecar = pod([{"cpu": "1"}], [{"req": {"cpu": "500m"}, "policy": "Always"}, {"req": {"cpu": "1200m"}}])
    assert actual_request(sidecar)["cpu"] == 1700
    ordered = pod([{"cpu": "1"}], [{"req": {"cpu": "3"}}, {"req": {"cpu": "1"}, "policy": "Always"},
                                   {"req": {"cpu": "2.5"}}])
    assert actual_request(ordered)["cpu"] == 3500


def _c(requests: dict[str, str] | None = None, policy: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"name": "c"}
    if requests is not None:
        out["resources"] = {"requests": requests}
    if policy is not None:
        out["restartPolicy"] = policy
    return out


SIDE = "Always"


# PodRequests by hand: containers summed, each sidecar added to the sum and to the sidecars started
# so far, each init container needing its own requests plus those sidecars; the largest need wins
# where it exceeds the sum. Keys in the order they are first met (containers first).
@pytest.mark.parametrize(("spec", "expected"), [
    pytest.param({"containers": [_c({"cpu": "1"})],
                  "initContainers": [_c({"cpu": "1200m"}), _c({"cpu": "500m"}, SIDE)]},
                 {"cpu": 1500}, id="sidecar-after-init"),  # the init ran before the sidecar: max(1.5, 1.2)
    pytest.param({"containers": [_c({"cpu": "1", "memory": "1Gi"}), _c({"cpu": "500m"})],
                  "initContainers": [_c({"cpu": "2", "nvidia.com/gpu": "1"})]},
                 {"cpu": 2000, "memory": GI, "nvidia.com/gpu": 1}, id="init-larger-than-sum"),
    pytest.param({"containers": [_c({"cpu": "1"})],
                  "initContainers": [_c({"cpu": "500m"}, SIDE), _c({"cpu": "2"}), _c({"cpu": "250m"}, SIDE),
                                     _c({"cpu": "1"})]},
                 {"cpu": 2500}, id="inits-between-sidecars"),  # 2 + 0.5 beats 1.75 and 1 + 0.75
    pytest.param({"containers": [_c({"cpu": "1", "nvidia.com/gpu": "1"})],
                  "initContainers": [_c({"memory": "1Gi"}, SIDE)],
                  "resources": {"requests": {"cpu": "3"}}, "overhead": {"cpu": "100m", "memory": "10Mi"}},
                 {"cpu": 3100, "nvidia.com/gpu": 1, "memory": GI + 10 * MI}, id="pod-level-and-overhead"),
    pytest.param({"containers": [_c(), None], "initContainers": [_c(policy=SIDE), _c({})]}, {},
                 id="missing-fields"),
])
def test_init_containers_and_sidecars(spec: dict[str, Any], expected: dict[str, int]) -> None:
    got = actual_request({"spec": spec})
    assert got == expected
    assert list(got) == list(expected)


def test_sidecars_get_the_non_zero_defaults_too() -> None:
    spec = {"containers": [_c()], "initContainers": [_c(policy=SIDE), _c({"cpu": "150m"})]}
    # sum 2 x 100m and 2 x 200Mi; the init container needs 150m + the sidecar's 100m
    assert fit_score_request({"spec": spec}) == {"cpu": 250, "memory": 400 * MI}


@pytest.mark.parametrize(("spec", "message"), [
    ({"initContainers": "x"}, "spec.initContainers: expected a list, got str"),
    ({"initContainers": [3]}, "spec.initContainers[0]: expected a mapping, got int"),
    ({"containers": [{"resources": []}]}, "spec.containers[0].resources: expected a mapping, got list"),
    ({"initContainers": [{"resources": {"requests": "1"}}]},
     "spec.initContainers[0].resources.requests: expected a mapping, got str"),
    # every container is read before the init container list is looked at
    ({"containers": [_c({"cpu": "bad"})], "initContainers": "x"}, "spec.containers[0].resources.requests.cpu: "),
])
def test_bad_container_types_are_errors_naming_the_field(spec: dict[str, Any], message: str) -> None:
    for view in (actual_request, fit_score_request, volcano_request, fit_node_contribution):
        with pytest.raises(QuantityError) as info:
            view({"spec": spec})
        assert str(info.value).startswith(message), view


def test_quantities_are_summed_exactly_before_rounding() -> None:
    two_halves = pod([{"cpu": "0.0005"}, {"cpu": "0.0005"}])
    assert actual_request(two_halves)["cpu"] == 1  # 0.001 exactly, not 1m + 1m


def test_non_zero_defaults_per_container() -> None:
    got = fit_score_request(pod([{}, {"cpu": "0"}, {"memory": "1Gi"}]))
    assert got["cpu"] == 100 + 0 + 100
    assert got["memory"] == 2 * DEFAULT_MEMORY_REQUEST + 2**30
    assert DEFAULT_MEMORY_REQUEST == 200 * MI
    assert actual_request(pod([{}])) == {}


def test_pod_level_requests() -> None:
    level: dict[str, Any] = {"resources": {"requests": {"cpu": "2", "memory": "4Gi"}}, "overhead": {"cpu": "250m"}}
    p = pod([{"cpu": "200m"}, {}], **level)
    assert fit_score_request(p) == {"cpu": 200 + 100 + 250, "memory": 2 * 200 * MI}  # 1.36 quirk: ignored
    assert actual_request(p) == {"cpu": 2250, "memory": 4 * 2**30}
    assert fit_node_contribution(p)["cpu"] == 2250


def test_bound_pod_with_pod_level_cpu_gets_no_memory_default_if_a_container_names_memory() -> None:
    p = pod([{"memory": "1Gi"}, {}], resources={"requests": {"cpu": "1"}})
    assert fit_node_contribution(p)["memory"] == 2**30  # §4: just that memory
    assert fit_score_request(p)["memory"] == 2**30 + 200 * MI  # the incoming pod gets the default
    only_cpu = pod([{}], resources={"requests": {"cpu": "1"}})
    assert fit_node_contribution(only_cpu)["memory"] == 200 * MI  # absent everywhere: default


def test_scalar_resource_names() -> None:
    for name in ("nvidia.com/gpu", "example.com/foo", "hugepages-2Mi", "attachable-volumes-aws-ebs",
                 "kubernetes.io/batch-cpu"):
        assert is_scalar_resource(name), name
    for name in ("cpu", "memory", "ephemeral-storage", "pods", "foo", "requests.example.com/x"):
        assert not is_scalar_resource(name), name


def test_volcano_units() -> None:
    p = pod([{"cpu": "1500m", "memory": "1Gi", "nvidia.com/gpu": "2", "ephemeral-storage": "1", "foo": "3"}])
    assert volcano_request(p) == {"cpu": 1500.0, "memory": float(2**30), "nvidia.com/gpu": 2000.0,
                                  "ephemeral-storage": 1000.0, "pods": 1.0}
    assert volcano_request(pod([{}])) == {"pods": 1.0}


def test_bad_quantity_names_the_field() -> None:
    with pytest.raises(QuantityError, match=r"spec.initContainers\[0\].resources.requests.memory"):
        actual_request(pod([{}], [{"req": {"memory": "lots"}}]))


def test_volcano_rounds_each_container_and_the_overhead_on_its_own() -> None:
    # api.NewResource converts every container's requests (and the overhead) with MilliValue(), rounding
    # 1.0005 cpu up to 1001m each time, and adds the float64 results; kube-scheduler sums exactly first.
    two = pod([{"cpu": "1.0005"}, {"cpu": "1.0005"}])
    assert volcano_request(two)["cpu"] == 2002.0
    assert actual_request(two)["cpu"] == 2001
    assert volcano_request(pod([{"cpu": "1.0005"}], overhead={"cpu": "1.0005"}))["cpu"] == 2002.0
    sidecars = pod([{"example.com/foo": "0.0005"}],
                   [{"req": {"example.com/foo": "0.0005"}, "policy": "Always"},
                    {"req": {"example.com/foo": "0.0015"}}])
    assert volcano_request(sidecars)["example.com/foo"] == 3.0  # max(1 + 1, 1 + 2) in milli-units
    assert actual_request(sidecars)["example.com/foo"] == 1  # exact: max(0.001, 0.002) = 0.002 -> 1


def test_volcano_drops_count_quota_names() -> None:
    # NewResource skips IsCountQuota names ("count/..."), though they pass as extended resource names.
    assert is_scalar_resource("count/example.com")
    assert "count/example.com" not in volcano_request(pod([{"count/example.com": "2"}]))
