"""``binpack-lint explain``'s preemption section with PodTopologySpread's Filter in the dry runs.

Nodes (4 cpu, 8Gi): a1 in zone a, b1 in zone b, c1 without a zone label. The pending pod (app=web, priority
100, 100m) has one DoNotSchedule constraint: zone, maxSkew 2, minDomains 3, selector app=web. Only two
zones are eligible (c1 has no zone label), fewer than minDomains, so the global minimum is 0.

Bound: a1 holds web-low1 (priority 5) and web-low2 (priority 1); b1 holds web-high1 and web-high2 (priority
1000); c1 holds db-low (priority 1). Zone a counts 2, zone b 2: a1 and b1 fail with skew 2 + 1 - 0 = 3 > 2
(Unschedulable), c1 with the missing label (UnschedulableAndUnresolvable). Every node fails.

Dry runs: c1 is no candidate (unresolvable). b1 has no pod below priority 100: no victims. a1: both web pods
off, zone a counts 0 and skew 1 fits; web-low1 (more important) back: 1 + 1 = 2 fits, reprieved; web-low2
back: 3 > 2, a victim. So a1 is nominated with the one victim web-low2.
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
WEB = {"app": "web"}
SKEW = "node(s) didn't match pod topology spread constraints"


def _node(name: str, zone: str | None) -> dict[str, Any]:
    labels = {HOST: name, **({ZONE: zone} if zone else {})}
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels},
            "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}


def _pod(name: str, node: str | None, labels: dict[str, str], priority: int, namespace: str = "default",
         start: str = "2026-01-01T00:00:00Z") -> dict[str, Any]:
    spec: dict[str, Any] = {"priority": priority, "containers": [{"name": "c", "image": "x", "resources": {
        "requests": {"cpu": "100m", "memory": "100Mi"}}}]}
    if node:
        spec["nodeName"] = node
    status: dict[str, Any] = {"phase": "Running", "startTime": start} if node else {"phase": "Pending"}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": namespace, "labels": labels},
            "spec": spec, "status": status}


def _pending(max_skew: int = 2) -> dict[str, Any]:
    pod = _pod("web-new", None, WEB, 100)
    pod["spec"]["topologySpreadConstraints"] = [
        {"maxSkew": max_skew, "topologyKey": ZONE, "whenUnsatisfiable": "DoNotSchedule", "minDomains": 3,
         "labelSelector": {"matchLabels": WEB}}]
    return pod


def _cluster(a1_pods: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [_node("a1", "a"), _node("b1", "b"), _node("c1", None), *a1_pods,
            _pod("web-high1", "b1", WEB, 1000), _pod("web-high2", "b1", WEB, 1000),
            _pod("db-low", "c1", {"app": "db"}, 1)]


A1 = [_pod("web-low1", "a1", WEB, 5), _pod("web-low2", "a1", WEB, 1)]


def _explain(tmp: Path, items: list[dict[str, Any]], pending: dict[str, Any], fmt: str = "json") -> str:
    cluster, pod = tmp / "cluster.yaml", tmp / "pod.yaml"
    cluster.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": items}))
    pod.write_text(yaml.safe_dump(pending))
    proc = subprocess.run([*EXPLAIN, "--cluster", str(cluster), "--pod", str(pod), "-f", fmt],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _doc(tmp: Path, items: list[dict[str, Any]], pending: dict[str, Any]) -> dict[str, Any]:
    return json.loads(_explain(tmp, items, pending))  # type: ignore[no-any-return]


def test_evicting_a_matching_pod_in_the_crowded_zone_fixes_the_skew(tmp_path: Path) -> None:
    doc = _doc(tmp_path, _cluster(A1), _pending())
    assert {n["name"]: n["reasons"] for n in doc["nodes"]} == {
        "a1": [SKEW], "b1": [SKEW], "c1": [SKEW + " (missing required label)"]}
    section = doc["preemption"]
    assert section["nominatedNode"] == "a1"
    assert section["victims"] == [{"namespace": "default", "name": "web-low2"}]
    (candidate,) = section["candidates"]
    assert [p["name"] for p in candidate["reprieved"]] == ["web-low1"]
    assert candidate["lowerPriorityPods"] == 2
    assert section["potentialNodes"] == 2  # a1 and b1; c1's missing label is unresolvable
    assert section["nodesWithoutVictims"] == ["b1"]
    assert doc["preemptionLeavesOut"] == []
    assert "leave out PodTopologySpread" not in _explain(tmp_path, _cluster(A1), _pending(), "text")


def test_every_reprieve_reruns_the_filter_with_the_pod_added_back(tmp_path: Path) -> None:
    """maxSkew 1: zone a must drop to 0, so neither web pod can come back; the db pod does not count."""
    a1 = [*A1, _pod("db-low2", "a1", {"app": "db"}, 1, start="2025-01-01T00:00:00Z")]
    section = _doc(tmp_path, _cluster(a1), _pending(max_skew=1))["preemption"]
    assert section["nominatedNode"] == "a1"
    assert [v["name"] for v in section["victims"]] == ["web-low1", "web-low2"]
    assert [p["name"] for p in section["candidates"][0]["reprieved"]] == ["db-low2"]


def test_pods_of_other_namespaces_are_not_taken_off_the_counts(tmp_path: Path) -> None:
    """A web pod of another namespace never counted, so evicting it cannot help: web-low1 (counted) must go,
    and the other namespace's pod, though less important, is put back."""
    a1 = [_pod("web-low1", "a1", WEB, 5), _pod("web-low3", "a1", WEB, 5, start="2026-02-01T00:00:00Z"),
          _pod("web-other", "a1", WEB, 1, "other")]
    section = _doc(tmp_path, _cluster(a1), _pending(max_skew=2))["preemption"]
    # zone a counts 2 (web-other is not in the pod's namespace); both off, then web-low1 back (1 + 1 fits),
    # web-low3 back (3 > 2: a victim), web-other back (it does not count: reprieved)
    assert [v["name"] for v in section["victims"]] == ["web-low3"]
    assert {p["name"] for p in section["candidates"][0]["reprieved"]} == {"web-low1", "web-other"}


def test_a_pod_nominated_to_the_node_counts_in_the_dry_runs(tmp_path: Path) -> None:
    """A pending web pod of priority 200 nominated to a1 counts in zone a (AddPod) while a1 is filtered: with
    both web pods off, 0 + 1 + 1 = 2 fits; web-low1 back makes 3 > 2, so both web pods are victims."""
    nominee = _pod("web-nominated", None, WEB, 200)
    nominee["status"]["nominatedNodeName"] = "a1"
    section = _doc(tmp_path, [*_cluster(A1), nominee], _pending())["preemption"]
    assert section["nominatedNode"] == "a1"
    assert [v["name"] for v in section["victims"]] == ["web-low1", "web-low2"]
    assert section["candidates"][0]["reprieved"] == []
