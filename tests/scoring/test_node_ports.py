"""kube-scheduler 1.36's NodePorts filter in the scalar model, explain and the scalar preemption model.

Texts and rules from the Go source: nodeports.ErrReason, util.GetHostPorts (sidecar init containers and
containers, hostPort > 0), HostPortInfo.CheckConflict/sanitize (0.0.0.0 and TCP defaults), the plugin's
Unschedulable code, NodeInfo.UsedPorts as a set (a removed pod deletes its entries).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from linter.explain import explain
from linter.model import default_kube_scheduler_model
from linter.scoring.feasibility import DEFAULT_FILTERS, check_node
from linter.scoring.hostports import REASON_NODE_PORTS, host_ports, ports_conflict
from linter.scoring.preemption import predict_preemption

from .preemption.build import node, pod
from .test_explain_nominated import LAYOUTS, run

Obj = dict[str, Any]
P = 1000


def port(host: int, protocol: str | None = None, ip: str | None = None, container: int = 8080) -> Obj:
    out: Obj = {"containerPort": container, "hostPort": host}
    if protocol is not None:
        out["protocol"] = protocol
    if ip is not None:
        out["hostIP"] = ip
    return out


def with_ports(p: Obj, *ports: Obj, init: list[Obj] | None = None, **spec: Any) -> Obj:
    p["spec"]["containers"][0]["ports"] = list(ports)
    if init is not None:
        p["spec"]["initContainers"] = init
    p["spec"].update(spec)
    return p


def test_host_ports_of_a_pod() -> None:
    sidecar = {"name": "s", "restartPolicy": "Always", "ports": [port(90, "UDP", "10.0.0.1")]}
    plain_init = {"name": "i", "ports": [port(91)]}
    p = with_ports(pod("p", None, 0), port(80), port(0), port(81, "SCTP", ""), init=[plain_init, sidecar],
                   ephemeralContainers=[{"name": "e", "ports": [port(92)]}])
    assert host_ports(p) == (("10.0.0.1", "UDP", 90), ("0.0.0.0", "TCP", 80), ("0.0.0.0", "SCTP", 81))
    # the API server makes a hostNetwork pod's containerPort its hostPort
    net = with_ports(pod("n", None, 0), {"containerPort": 53, "protocol": "UDP"}, hostNetwork=True)
    assert host_ports(net) == (("0.0.0.0", "UDP", 53),)
    assert host_ports(with_ports(pod("n", None, 0), {"containerPort": 53})) == ()


@pytest.mark.parametrize(("wanted", "used", "conflict"), [
    (("0.0.0.0", "TCP", 80), {("10.0.0.1", "TCP", 80)}, True),  # a wildcard wants every IP
    (("10.0.0.1", "TCP", 80), {("0.0.0.0", "TCP", 80)}, True),  # the wildcard holds every IP
    (("10.0.0.1", "TCP", 80), {("10.0.0.2", "TCP", 80)}, False),
    (("10.0.0.1", "TCP", 80), {("10.0.0.1", "TCP", 80)}, True),
    (("0.0.0.0", "UDP", 80), {("0.0.0.0", "TCP", 80)}, False),
    (("0.0.0.0", "TCP", 81), {("0.0.0.0", "TCP", 80)}, False),
    (("::", "TCP", 80), {("10.0.0.1", "TCP", 80)}, False),  # only 0.0.0.0 is the wildcard
])
def test_conflict_rules(wanted: tuple[str, str, int], used: set[tuple[str, str, int]], conflict: bool) -> None:
    assert ports_conflict([wanted], used) is conflict


def test_the_filter_runs_after_node_affinity_and_before_fit() -> None:
    assert DEFAULT_FILTERS.index("NodeAffinity") < DEFAULT_FILTERS.index("NodePorts") < \
        DEFAULT_FILTERS.index("NodeResourcesFit")
    p = with_ports(pod("p", None, 0, "8"), port(80))
    got = check_node(p, node("n1"), pod_request={"cpu": 8000}, pod_count=1, node_requested={},
                     node_allocatable={"cpu": 4000, "pods": 110}, used_ports={("0.0.0.0", "TCP", 80)})
    assert (got.feasible, got.plugin, got.reasons) == (False, "NodePorts", (REASON_NODE_PORTS,))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_explain_rejects_the_node_that_holds_the_port(tmp_path: Path, layout: str) -> None:
    # two bound pods with the same text but one port each: the kubectl YAML reader must not share them
    objs = [node("n1"), node("n2"), node("n3"),
            with_ports(pod("a", "n1", 0), port(80)), with_ports(pod("b", "n2", 0), port(81)),
            with_ports(pod("c", "n3", 0), port(80, "UDP"))]
    doc = run(tmp_path, objs, with_ports(pod("p", None, 0), port(80, ip="10.0.0.1")), layout)
    by_name = {n["name"]: n for n in doc["nodes"]}
    assert by_name["n1"]["reasons"] == [REASON_NODE_PORTS]
    assert by_name["n1"]["rejectedByPlugin"] == "NodePorts"
    assert by_name["n2"]["feasible"] and by_name["n3"]["feasible"]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_nominated_pods_port_counts(tmp_path: Path, layout: str) -> None:
    objs = [node("n1"), with_ports(pod("nom", None, 5000, nominated="n1"), port(80))]
    doc = run(tmp_path, objs, with_ports(pod("p", None, 0), port(80)), layout)
    assert doc["nodes"][0]["reasons"] == [REASON_NODE_PORTS]
    assert doc["nodes"][0]["nominatedPods"] == ["default/nom"]


def test_a_profile_without_node_ports_does_not_filter_ports(tmp_path: Path) -> None:
    config = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
              "profiles": [{"schedulerName": "default-scheduler",
                            "plugins": {"filter": {"disabled": [{"name": "NodePorts"}]}}}]}
    objs = [node("n1"), with_ports(pod("a", "n1", 0), port(80))]
    doc = run(tmp_path, objs, with_ports(pod("p", None, 0), port(80)), "json", config)
    assert doc["nodes"][0]["feasible"]


def test_a_sidecar_port_conflicts_and_a_plain_init_port_does_not() -> None:
    sidecar = {"name": "s", "restartPolicy": "Always", "ports": [port(80)]}
    plain = {"name": "i", "ports": [port(81)]}
    bound = pod("a", "n1", 0)
    bound["spec"]["initContainers"] = [sidecar, plain]
    model = default_kube_scheduler_model()
    for wanted, feasible in ((80, False), (81, True)):
        doc = explain(model, [node("n1")], [bound], with_ports(pod("p", None, 0), port(wanted)))
        assert doc["nodes"][0]["feasible"] is feasible


def test_preemption_evicts_the_lower_priority_holder() -> None:
    pods = [with_ports(pod("low", "n1", 0, "0"), port(80)), pod("other", "n1", 0, "0")]
    got = predict_preemption(with_ports(pod("p", None, P, "1"), port(80)), [node("n1")], pods)
    assert got.nominated_node == "n1"
    assert [v.key for v in got.victims] == ["default/low"]
    assert [p.key for p in got.candidates[0].reprieved] == ["default/other"]
    assert got.message == "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports."


def test_a_higher_priority_holder_leaves_no_candidate() -> None:
    pods = [with_ports(pod("high", "n1", 5000, "0"), port(80)), pod("low", "n1", 0, "0")]
    got = predict_preemption(with_ports(pod("p", None, P, "1"), port(80)), [node("n1")], pods)
    assert got.nominated_node is None and not got.candidates
    assert got.dry_run_failures["n1"].reasons == (REASON_NODE_PORTS,)
    text = "1 node(s) didn't have free ports for the requested pod ports."
    assert got.message == (f"0/1 nodes are available: {text} no new claims to deallocate, preemption: "
                           f"0/1 nodes are available: {text}")


def test_removing_a_victim_frees_a_port_another_pod_also_holds() -> None:
    # UsedPorts is a set: taking the low pod off deletes the entry the high pod holds too, so kube-scheduler
    # finds the node a candidate (and evicts the low pod)
    pods = [with_ports(pod("high", "n1", 5000, "0"), port(80)), with_ports(pod("low", "n1", 0, "0"), port(80))]
    got = predict_preemption(with_ports(pod("p", None, P, "1"), port(80)), [node("n1")], pods)
    assert [v.key for v in got.victims] == ["default/low"]


def test_equally_important_pods_differ_by_holding_the_port() -> None:
    # same priority, start and requests: only the holder of port 80 is a victim, whatever their order, so the
    # scheduler's random order among them changes nothing
    pods = [with_ports(pod("a", "n1", 0, "1"), port(80)), pod("b", "n1", 0, "1")]
    got = predict_preemption(with_ports(pod("p", None, P, "1"), port(80)), [node("n1", cpu="3")], pods)
    assert [v.key for v in got.victims] == ["default/a"]
    assert got.random == ()
