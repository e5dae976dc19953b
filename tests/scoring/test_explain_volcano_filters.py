"""``binpack-lint explain`` on a Volcano conf: the allocate action's verdicts, run as a real process.

The dump is kubectl's YAML layout, so its two identical terminating pods take the fast reader's path for a pod
text seen before; Volcano counts both as Releasing (``getTaskStatus``) and their room as free
(``NodeInfo.FutureIdle``), so the 3-cpu pod fits the node they are on.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

EXPLAIN = [sys.executable, "-m", "linter", "explain"]
WITH_PREDICATES = "actions: allocate\ntiers:\n- plugins:\n  - name: predicates\n  - name: usage\n  - name: binpack\n"
WITHOUT_PREDICATES = "actions: allocate\ntiers:\n- plugins:\n  - name: binpack\n"


def _node(name: str, cpu: str, **spec: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name}, "spec": spec,
            "status": {"allocatable": {"cpu": cpu, "memory": "8Gi", "pods": "110"}}}


def _terminating(name: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "ns", "deletionTimestamp": "2026-01-01T00:00:00Z"},
            "spec": {"nodeName": "n2", "containers": [{"name": "c", "resources": {"requests": {"cpu": "2"}}}]},
            "status": {"phase": "Running"}}


def _files(tmp: Path, conf: str, cpu: str) -> list[str]:
    items = [_node("n1", "4"), _node("n2", "4"), _terminating("t1"), _terminating("t2"),
             _node("n3", "4", unschedulable=True), _node("n4", "2")]
    state, pod, config = tmp / "state.yaml", tmp / "pod.yaml", tmp / "volcano.conf"
    state.write_text(yaml.safe_dump({"apiVersion": "v1", "items": items, "kind": "List"}))
    pod.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "in", "namespace": "ns"},
                                   "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": cpu}}}]}}))
    config.write_text(conf)
    return ["--config", str(config), "--cluster", str(state), "--pod", str(pod)]


def _explain(tmp: Path, conf: str, cpu: str, *extra: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([*EXPLAIN, *_files(tmp, conf, cpu), *extra], capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc


def _verdicts(doc: dict[str, Any]) -> dict[str, tuple[bool, list[str], str | None]]:
    return {n["name"]: (n["feasible"], n["reasons"], n["rejectedByPlugin"]) for n in doc["nodes"]}


def test_json_verdicts_with_the_predicates_plugin(tmp_path: Path) -> None:
    doc = json.loads(_explain(tmp_path, WITH_PREDICATES, "3", "-f", "json").stdout)
    assert _verdicts(doc) == {
        "n1": (True, [], None),
        "n2": (True, [], None),  # the two Releasing pods' 4 cpu count as free
        "n3": (False, ["node(s) were unschedulable"], "NodeUnschedulable"),
        "n4": (False, ["Insufficient cpu"], "allocate"),
    }
    assert doc["predicates"] == {"nodeAffinity": True, "nodePorts": True, "taintToleration": True}
    assert doc["notModelledPredicatePlugins"] == ["usage"]
    assert doc["message"] is None


def test_without_a_predicates_entry_only_resources_are_checked(tmp_path: Path) -> None:
    doc = json.loads(_explain(tmp_path, WITHOUT_PREDICATES, "3", "-f", "json").stdout)
    assert doc["predicates"] is None
    assert _verdicts(doc)["n3"] == (True, [], None)  # cordoned, but nothing checks it


def test_no_node_fits_gives_volcanos_message(tmp_path: Path) -> None:
    doc = json.loads(_explain(tmp_path, WITH_PREDICATES, "5", "-f", "json").stdout)
    assert doc["message"] == "0/4 nodes are unavailable: 4 Insufficient cpu."
    text = _explain(tmp_path, WITH_PREDICATES, "5").stdout
    assert "  Volcano: 0/4 nodes are unavailable: 4 Insufficient cpu.\n" in text
    assert "  not modelled: the predicate functions Volcano also calls of usage\n" in text
    assert "  n3: infeasible: Insufficient cpu\n" in text


def test_text_names_the_filters_left_out(tmp_path: Path) -> None:
    text = _explain(tmp_path, WITHOUT_PREDICATES, "3").stdout
    assert "  filters: only the allocate action's resource check (no predicates entry with enablePredicate on)\n" \
        in text
    conf = WITH_PREDICATES.replace("  - name: predicates\n", "  - name: predicates\n    arguments:\n"
                                   "      predicate.TaintTolerationEnable: false\n")
    assert "  filters: predicates with TaintToleration off\n" in _explain(tmp_path, conf, "3").stdout
