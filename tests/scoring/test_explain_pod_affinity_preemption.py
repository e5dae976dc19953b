"""``binpack-lint explain``'s preemption section with InterPodAffinity's Filter in the dry runs.

Nodes n1 (zone a) and n2 (zone b), 4 cpu each; the pending pod p has priority 100 and asks 1 cpu. Every
expected value is worked out by hand from kube-scheduler 1.36 (interpodaffinity/filtering.go: Filter's
codes, updateWithPod with multiplier -1 for RemovePod and +1 for AddPod, a pair down to 0 deleted).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from .preemption.build import node, pod

HOST, ZONE = "kubernetes.io/hostname", "topology.kubernetes.io/zone"
Obj = dict[str, Any]
EARLY = "2025-01-01T00:00:00Z"  # more important than a pod of equal priority started at build.T0


def _nodes() -> list[Obj]:
    return [node("n1", labels={HOST: "n1", ZONE: "a"}), node("n2", labels={HOST: "n2", ZONE: "b"})]


def _required(kind: str, app: str, key: str = ZONE) -> Obj:
    return {kind: {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": app}}, "topologyKey": key}]}}


def _with_affinity(obj: Obj, affinity: Obj) -> Obj:
    obj["spec"]["affinity"] = affinity
    return obj


def _doc(tmp_path: Path, items: list[Obj], pending: Obj) -> dict[str, Any]:
    listing = {"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", **obj} for obj in items]}
    state, pod_file = tmp_path / "state.yaml", tmp_path / "pod.yaml"
    state.write_text(yaml.safe_dump(listing))
    pod_file.write_text(yaml.safe_dump({"apiVersion": "v1", **pending}))
    proc = subprocess.run([sys.executable, "-m", "linter", "explain", "--cluster", str(state), "--pod",
                           str(pod_file), "-f", "json"], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def _pending(affinity: Obj, labels: dict[str, str]) -> Obj:
    return _with_affinity(pod("p", None, 100, labels=labels), affinity)


def test_the_pods_own_anti_affinity_picks_the_matching_victim(tmp_path: Path) -> None:
    """p is anti-affine to app=web per zone. n1 (zone a) holds web w1 and db d1 (priority 0, d1 earlier),
    n2 a web pod of priority 1000: both nodes fail with anti-affinity (Unschedulable, candidates). On n1,
    with both off nothing is counted; d1 back still fits (reprieved), w1 back counts zone a: the victim. n2
    has no pod below 100."""
    items = [*_nodes(), pod("w1", "n1", 0, labels={"app": "web"}),
             pod("d1", "n1", 0, start=EARLY, labels={"app": "db"}), pod("w2", "n2", 1000, labels={"app": "web"})]
    doc = _doc(tmp_path, items, _pending(_required("podAntiAffinity", "web"), {"app": "web"}))
    assert {n["name"]: n["reasons"] for n in doc["nodes"]} == {
        "n1": ["node(s) didn't match pod anti-affinity rules"], "n2": ["node(s) didn't match pod anti-affinity rules"]}
    section = doc["preemption"]
    assert (section["nominatedNode"], section["victims"]) == ("n1", [{"namespace": "default", "name": "w1"}])
    assert [p["name"] for p in section["candidates"][0]["reprieved"]] == ["d1"]
    assert section["nodesWithoutVictims"] == ["n2"]
    assert doc["preemptionLeavesOut"] == []


def test_an_existing_pods_anti_affinity_goes_with_the_pod(tmp_path: Path) -> None:
    """Bound guards anti-affine to app=web per host keep p (app=web) off both nodes; the one on n1 has
    priority 0 and is the victim, the one on n2 (priority 1000) cannot be evicted."""
    guard = _required("podAntiAffinity", "web", HOST)
    items = [*_nodes(), _with_affinity(pod("g1", "n1", 0, labels={"app": "guard"}), guard),
             _with_affinity(pod("g2", "n2", 1000, labels={"app": "guard"}), guard),
             pod("d1", "n1", 0, labels={"app": "db"})]
    doc = _doc(tmp_path, items, pod("p", None, 100, labels={"app": "web"}))
    assert {r for n in doc["nodes"] for r in n["reasons"]} == {
        "node(s) didn't satisfy existing pods anti-affinity rules"}
    section = doc["preemption"]
    assert (section["nominatedNode"], [v["name"] for v in section["victims"]]) == ("n1", ["g1"])
    assert [p["name"] for p in section["candidates"][0]["reprieved"]] == ["d1"]


def test_unmet_affinity_makes_no_node_a_candidate(tmp_path: Path) -> None:
    """No db pod anywhere and p does not select itself: UnschedulableAndUnresolvable on both nodes."""
    items = [*_nodes(), pod("low", "n1", 0, labels={"app": "web"})]
    doc = _doc(tmp_path, items, _pending(_required("podAffinity", "db"), {"app": "web"}))
    section = doc["preemption"]
    assert (section["potentialNodes"], section["notHelpfulNodes"], section["nominatedNode"]) == (
        0, ["n1", "n2"], None)


def _crowded_n1(tmp_path: Path, app: str) -> dict[str, Any]:
    """n1 holds db d1 (1 cpu, earlier) and filler f1 (3 cpu), both priority 0: p (1 cpu) lacks cpu there;
    n2 (zone b) has no db pod, so p's required affinity to app=db per zone fails there (unresolvable)."""
    items = [*_nodes(), pod("d1", "n1", 0, "1", EARLY, labels={"app": "db"}), pod("f1", "n1", 0, "3")]
    return _doc(tmp_path, items, _pending(_required("podAffinity", "db"), {"app": app}))


def test_removing_every_lower_pod_can_take_the_affinity_away(tmp_path: Path) -> None:
    """SelectVictimsOnNode first takes off both pods: zone a's db count drops to 0 and p (app=web) does not
    select itself, so the affinity fails and n1 is no candidate after all."""
    doc = _crowded_n1(tmp_path, "web")
    by_name = {n["name"]: n for n in doc["nodes"]}
    assert by_name["n1"]["rejectedByPlugin"] == "NodeResourcesFit"
    assert by_name["n2"]["reasons"] == ["node(s) didn't match pod affinity rules"]
    section = doc["preemption"]
    assert section["candidates"] == [] and section["nominatedNode"] is None
    assert section["noPreemptionReasons"] == {"node(s) didn't match pod affinity rules": 1,
                                              "Preemption is not helpful for scheduling": 1}


def test_a_pair_down_to_zero_is_dropped_so_a_self_selecting_pod_passes(tmp_path: Path) -> None:
    """p labelled app=db selects itself: with both pods off no affinity pair is left (the pair at 0 is
    deleted), so the Filter lets the first pod of the group through; d1 back counts again and fits (1 + 1
    cpu), f1 back overflows the cpu: the victim."""
    section = _crowded_n1(tmp_path, "db")["preemption"]
    assert (section["nominatedNode"], [v["name"] for v in section["victims"]]) == ("n1", ["f1"])
    assert [p["name"] for p in section["candidates"][0]["reprieved"]] == ["d1"]
