"""``binpack-lint explain`` as a real process: TaintToleration and NodeAffinity columns, lines and JSON keys.

Cluster: spot (4 cpu, 8Gi; label pool=spot; PreferNoSchedule taint spot=true) and ondemand (4 cpu, 8Gi; no
label, no taint). Fit and BalancedAllocation tie. Pod tolerates nothing and prefers pool=spot with weight 40:
TaintToleration spot 0, ondemand 100 (x3: 0 / 300); NodeAffinity spot 100, ondemand 0 (x2: 200 / 0).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

EXPLAIN = [sys.executable, "-m", "linter", "explain"]


def _node(name: str, **extra: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": extra.get("labels", {})},
            "spec": {"taints": extra.get("taints", [])},
            "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}


def _files(tmp: Path, pod_spec: dict[str, Any]) -> tuple[Path, Path]:
    cluster = tmp / "cluster.yaml"
    cluster.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": [
        _node("spot", labels={"pool": "spot"}, taints=[{"key": "spot", "value": "true", "effect": "PreferNoSchedule"}]),
        _node("ondemand")]}))
    pod = tmp / "pod.yaml"
    pod.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
                                   "spec": {"containers": [{"name": "c", "image": "x", "resources": {
                                       "requests": {"cpu": "1", "memory": "1Gi"}}}], **pod_spec}}))
    return cluster, pod


def _run(*args: str | Path) -> str:
    proc = subprocess.run([*EXPLAIN, *map(str, args)], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


PREFERS_SPOT = {"affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
    {"weight": 40, "preference": {"matchExpressions": [{"key": "pool", "operator": "In", "values": ["spot"]}]}}]}}}


def test_json_has_the_scores_weights_and_totals(tmp_path: Path) -> None:
    cluster, pod = _files(tmp_path, PREFERS_SPOT)
    doc = json.loads(_run("--cluster", cluster, "--pod", pod, "-f", "json"))
    assert (doc["taintTolerationWeight"], doc["nodeAffinityWeight"], doc["nodeAffinitySkipped"]) == (3, 2, False)
    got = {n["name"]: (n["taintTolerationRaw"], n["taintTolerationScore"], n["nodeAffinityRaw"],
                       n["nodeAffinityScore"], n["total"] - n["weightedScore"] - n["balancedScore"])
           for n in doc["nodes"]}
    assert got == {"ondemand": (0, 100, 0, 0, 300), "spot": (1, 0, 40, 100, 200)}
    assert [n["name"] for n in doc["nodes"]] == ["ondemand", "spot"]


def test_text_shows_the_columns_and_the_arithmetic(tmp_path: Path) -> None:
    cluster, pod = _files(tmp_path, PREFERS_SPOT)
    out = _run("--cluster", cluster, "--pod", pod)
    assert "  TaintToleration, weight 3: 100 - floor(100 * untolerated PreferNoSchedule taints / 1)\n" in out
    assert "  NodeAffinity, weight 2: floor(100 * weights of the matching preferred terms / 40)\n" in out
    header = next(line for line in out.splitlines() if line.lstrip().startswith("#"))
    assert header.split() == ["#", "node", "feasible", "score", "weighted", "balanced", "taints", "affinity", "total"]
    assert "    TaintToleration = 100 - floor(100 * 1 / 1) = 0; * weight 3\n" in out
    assert "    NodeAffinity = floor(100 * 40 / 40) = 100; * weight 2\n" in out


def test_text_is_one_line_each_when_the_plugins_change_nothing(tmp_path: Path) -> None:
    """A pod tolerating every taint, without preferred affinity: TaintToleration gives 100 everywhere and
    NodeAffinity skips it; no per-node lines, no affinity column."""
    cluster, pod = _files(tmp_path, {"tolerations": [{"operator": "Exists"}]})
    out = _run("--cluster", cluster, "--pod", pod)
    assert ("  TaintToleration, weight 3: no feasible node has a PreferNoSchedule taint the pod does not "
            "tolerate -> 100 each\n") in out
    assert "  NodeAffinity, weight 2: skipped (no preferred node affinity in the pod or the profile)\n" in out
    assert "TaintToleration =" not in out and "NodeAffinity =" not in out
    header = next(line for line in out.splitlines() if line.lstrip().startswith("#"))
    assert header.split() == ["#", "node", "feasible", "score", "weighted", "balanced", "taints", "total"]
    doc = json.loads(_run("--cluster", cluster, "--pod", pod, "-f", "json"))
    assert all(n["nodeAffinityScore"] is None and n["nodeAffinityRaw"] is None for n in doc["nodes"])
    assert doc["nodeAffinitySkipped"] is True
