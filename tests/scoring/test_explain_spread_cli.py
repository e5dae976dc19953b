"""``binpack-lint explain`` as a real process: PodTopologySpread's filter and score, JSON keys and text lines.

Cluster (4 cpu, 8Gi each): a1 and a2 in zone a, b1 in zone b. ReplicaSet web-rs selects app=web; two of its
pods (100m, 100Mi) run on a1, other pods hold 1 cpu / 512Mi on a2 and 2 cpu / 1Gi on b1.

The pending pod, owned by web-rs, gets the System default constraints (hostname maxSkew 3, zone maxSkew 5):
zone a counts 2, zone b 0; 3 feasible nodes (hostname weight ln 5), 2 zones (weight ln 4):
raw a1 = round(2 ln5 + 2 + 2 ln4 + 4) = 12, a2 = round(0 + 2 + 2 ln4 + 4) = 9, b1 = 0 + 2 + 0 + 4 = 6;
normalised 100 * (12 + 6 - raw) / 12: a1 50, a2 75, b1 100 (x2: 100, 150, 200). Fit alone ranks a1 first
(the emptiest); with spreading b1 wins.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

EXPLAIN = [sys.executable, "-m", "linter", "explain"]
ZONE, HOST = "topology.kubernetes.io/zone", "kubernetes.io/hostname"
OWNER = [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-rs", "uid": "u", "controller": True}]


def _node(name: str, zone: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": {HOST: name, ZONE: zone}},
            "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}


def _pod(name: str, node: str | None, labels: dict[str, str], cpu: str, memory: str, **meta: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "c", "image": "x", "resources": {
        "requests": {"cpu": cpu, "memory": memory}}}]}
    if node:
        spec["nodeName"] = node
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default", "labels": labels,
                                                            **meta},
            "spec": spec, "status": {"phase": "Running" if node else "Pending"}}


WEB = {"app": "web"}
RS = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "web-rs", "namespace": "default"},
      "spec": {"selector": {"matchLabels": WEB}}}


def _files(tmp: Path, pending: dict[str, Any], *, with_rs: bool = True, json_state: bool = False) -> tuple[Path, Path]:
    items = [_node("a1", "a"), _node("a2", "a"), _node("b1", "b"),
             _pod("web-1", "a1", WEB, "100m", "100Mi", ownerReferences=OWNER),
             _pod("web-2", "a1", WEB, "100m", "100Mi", ownerReferences=OWNER),
             _pod("other-1", "a2", {"app": "db"}, "1", "512Mi"), _pod("other-2", "b1", {"app": "db"}, "2", "1Gi")]
    if with_rs:
        items.append(RS)
    cluster = tmp / ("cluster.json" if json_state else "cluster.yaml")
    doc = {"apiVersion": "v1", "kind": "List", "items": items}
    cluster.write_text(json.dumps(doc) if json_state else yaml.safe_dump(doc))
    pod = tmp / "pod.yaml"
    pod.write_text(yaml.safe_dump(pending))
    return cluster, pod


def _run(*args: str | Path) -> str:
    proc = subprocess.run([*EXPLAIN, *map(str, args)], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _json(tmp: Path, pending: dict[str, Any], **kw: Any) -> dict[str, Any]:
    cluster, pod = _files(tmp, pending, **kw)
    return json.loads(_run("--cluster", cluster, "--pod", pod, "-f", "json"))  # type: ignore[no-any-return]


OWNED = _pod("web-3", None, WEB, "100m", "100Mi", ownerReferences=OWNER)


def test_default_spreading_moves_the_best_node(tmp_path: Path) -> None:
    for json_state in (False, True):  # both STATE readers
        doc = _json(tmp_path, OWNED, json_state=json_state)
        assert (doc["podTopologySpreadWeight"], doc["podTopologySpreadSkipped"]) == (2, False)
        got = {n["name"]: (n["podTopologySpreadRaw"], n["podTopologySpreadScore"]) for n in doc["nodes"]}
        assert got == {"a1": (12, 50), "a2": (9, 75), "b1": (6, 100)}
        assert doc["nodes"][0]["name"] == "b1"
        assert doc["podTopologySpreadDefaulted"] is True and doc["podTopologySpreadNote"] is None
        assert [c["topologyKey"] for c in doc["podTopologySpreadConstraints"]] == [HOST, ZONE]
        assert "PodTopologySpread" not in json.dumps(doc["notModelledForPod"])


def test_without_an_owner_nothing_spreads_and_fit_decides(tmp_path: Path) -> None:
    doc = _json(tmp_path, _pod("web-3", None, WEB, "100m", "100Mi"))
    assert doc["podTopologySpreadSkipped"] is True
    assert {n["podTopologySpreadScore"] for n in doc["nodes"]} == {None}
    assert doc["nodes"][0]["name"] == "a1"


def test_missing_owner_in_state_is_said_plainly(tmp_path: Path) -> None:
    doc = _json(tmp_path, OWNED, with_rs=False)
    assert "ReplicaSet web-rs is not in STATE" in doc["podTopologySpreadNote"]
    assert doc["podTopologySpreadSkipped"] is True
    cluster, pod = _files(tmp_path, OWNED, with_rs=False)
    assert "note: the pod's controller owner ReplicaSet web-rs is not in STATE" in _run("--cluster", cluster,
                                                                                      "--pod", pod)


def test_do_not_schedule_constraint_rejects_the_crowded_zone(tmp_path: Path) -> None:
    hard = {**OWNED, "spec": {**OWNED["spec"], "topologySpreadConstraints": [
        {"maxSkew": 1, "topologyKey": ZONE, "whenUnsatisfiable": "DoNotSchedule",
         "labelSelector": {"matchLabels": WEB}}]}}
    doc = _json(tmp_path, hard)
    by_name = {n["name"]: n for n in doc["nodes"]}
    assert by_name["a1"]["reasons"] == ["node(s) didn't match pod topology spread constraints"]
    assert by_name["a1"]["rejectedByPlugin"] == "PodTopologySpread" and not by_name["a2"]["feasible"]
    assert by_name["b1"]["feasible"] and doc["podTopologySpreadSkipped"] is True  # no ScheduleAnyway constraint


def test_text_shows_the_constraints_column_and_lines(tmp_path: Path) -> None:
    cluster, pod = _files(tmp_path, OWNED)
    text = _run("--cluster", cluster, "--pod", pod)
    assert ("PodTopologySpread (the profile's default constraints, with the pod's default selector): "
            f"{HOST} maxSkew 3 ScheduleAnyway; {ZONE} maxSkew 5 ScheduleAnyway") in text
    assert "PodTopologySpread, weight 2: raw = round(" in text
    assert "    PodTopologySpread: raw 12 -> 50; * weight 2" in text
    header = next(line.split() for line in text.splitlines() if line.strip().startswith("#"))
    assert header[-2:] == ["spread", "total"]


def test_a_nominated_pod_counts_in_its_nodes_zone_for_the_filter() -> None:
    from linter.explain import explain
    from linter.model import default_kube_scheduler_model

    hard = {**OWNED, "spec": {**OWNED["spec"], "topologySpreadConstraints": [
        {"maxSkew": 1, "topologyKey": ZONE, "whenUnsatisfiable": "DoNotSchedule",
         "labelSelector": {"matchLabels": WEB}}]}}
    nodes = [_node("a1", "a"), _node("b1", "b")]
    bound = [_pod("web-1", "a1", WEB, "100m", "100Mi")]  # zone a 1, zone b 0: b1 passes (0 + 1 - 0)
    nominee = _pod("web-9", None, WEB, "100m", "100Mi")
    nominee["status"]["nominatedNodeName"] = "b1"  # priority 0 >= the pod's 0: counts in zone b while b1 is filtered
    without = explain(default_kube_scheduler_model(), nodes, bound, hard)
    assert {n["name"]: n["feasible"] for n in without["nodes"]} == {"a1": False, "b1": True}
    with_it = explain(default_kube_scheduler_model(), nodes, [*bound, nominee], hard)
    by_name = {n["name"]: n for n in with_it["nodes"]}
    assert by_name["b1"]["feasible"]  # 1 + 1 - 1: the minimum rises with it
    second = _pod("web-8", None, WEB, "100m", "100Mi")
    second["status"]["nominatedNodeName"] = "b1"
    two = explain(default_kube_scheduler_model(), nodes, [*bound, nominee, second], hard)
    # two web pods nominated to b1: zone b 2, zone a 1 -> 2 + 1 - 1 = 2 > 1
    assert {n["name"]: n["reasons"] for n in two["nodes"]}["b1"] == [
        "node(s) didn't match pod topology spread constraints"]


def _refused(tmp: Path, items: list[dict[str, Any]], json_state: bool) -> str:
    cluster = tmp / ("bad.json" if json_state else "bad.yaml")
    doc = {"apiVersion": "v1", "kind": "List", "items": [_node("a1", "a"), *items]}
    cluster.write_text(json.dumps(doc) if json_state else yaml.safe_dump(doc))
    pod = tmp / "pod.yaml"
    pod.write_text(yaml.safe_dump(OWNED))
    proc = subprocess.run([*EXPLAIN, "--cluster", str(cluster), "--pod", str(pod)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    return proc.stderr.strip()


def test_labels_and_selectors_of_the_wrong_type_are_refused_in_one_line(tmp_path: Path) -> None:
    bad_pod = _pod("web-1", "a1", WEB, "100m", "100Mi")
    bad_pod["metadata"]["labels"] = ["app=web"]
    bad_rs = {**RS, "spec": {"selector": {"matchLabels": ["app"]}}}
    for json_state in (False, True):
        assert _refused(tmp_path, [bad_pod], json_state).endswith(
            "Pod default/web-1: metadata.labels must be a mapping (got a list)")
        assert _refused(tmp_path, [bad_rs], json_state).endswith(
            "ReplicaSet web-rs: spec.selector.matchLabels must be a mapping (got a list)")


def test_a_selector_the_scheduler_cannot_parse_is_refused_before_state_is_read(tmp_path: Path) -> None:
    bad = {**OWNED, "spec": {**OWNED["spec"], "topologySpreadConstraints": [
        {"maxSkew": 1, "topologyKey": ZONE, "whenUnsatisfiable": "ScheduleAnyway", "labelSelector": {}},
        {"maxSkew": 1, "topologyKey": ZONE, "whenUnsatisfiable": "DoNotSchedule",
         "labelSelector": {"matchExpressions": [{"key": "app", "operator": "In", "values": ["a b"]}]}}]}}
    pod = tmp_path / "pod.yaml"
    pod.write_text(yaml.safe_dump(bad))
    missing = tmp_path / "no-such-state.yaml"  # never opened: the pod is refused first
    proc = subprocess.run([*EXPLAIN, "--cluster", str(missing), "--pod", str(pod)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr.startswith(f"binpack-lint explain: error: POD {pod}: Pod default/web-3: "
                                  "spec.topologySpreadConstraints[1].labelSelector: values[0][app]: Invalid value: "
                                  '"a b": a valid label must be')
    assert proc.stderr.count("\n") == 1


def test_a_missing_topology_label_makes_no_node_a_preemption_candidate(tmp_path: Path) -> None:
    """The missing label is UnschedulableAndUnresolvable: the preemption section (which runs the filter)
    finds no candidate, and says nothing is left out."""
    hard = {**OWNED, "spec": {**OWNED["spec"], "topologySpreadConstraints": [
        {"maxSkew": 1, "topologyKey": "rack", "whenUnsatisfiable": "DoNotSchedule",
         "labelSelector": {"matchLabels": WEB}}]}}
    doc = _json(tmp_path, hard)  # no node has a rack label: every node is rejected
    assert {n["reasons"][0] for n in doc["nodes"]} == {
        "node(s) didn't match pod topology spread constraints (missing required label)"}
    assert doc["preemptionLeavesOut"] == []
    section = doc["preemption"]
    assert (section["potentialNodes"], section["notHelpfulNodes"]) == (0, ["a1", "a2", "b1"])
    assert section["message"].endswith("preemption: 0/3 nodes are available: 3 Preemption is not helpful for "
                                       "scheduling.")
    cluster, pod = _files(tmp_path, hard)
    assert "leave out" not in _run("--cluster", cluster, "--pod", pod)
    assert _json(tmp_path, OWNED)["preemptionLeavesOut"] == []
