"""``binpack-lint explain`` reads Volcano's oversubscription annotations from a kubectl-style dump (the fast YAML
reader and the JSON reader), writes the NaN and infinite amounts they can make as Go's strings, and refuses an
annotation value that is not a string."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

EXPLAIN = [sys.executable, "-m", "linter", "explain"]
CONF = "actions: allocate\ntiers:\n- plugins:\n  - name: predicates\n  - name: binpack\n"
STATE = """\
apiVersion: v1
items:
- apiVersion: v1
  kind: Node
  metadata:
    annotations:
      node.alpha.kubernetes.io/ttl: "0"
      volcano.sh/oversubscription-cpu: "2000"
      volcano.sh/oversubscription-memory: "1073741824"
    name: over
  spec: {}
  status:
    allocatable:
      cpu: "4"
      memory: 8Gi
      pods: "110"
- apiVersion: v1
  kind: Node
  metadata:
    annotations:
      volcano.sh/oversubscription-cpu: NaN
    name: nan
  spec: {}
  status:
    allocatable:
      cpu: "8"
      memory: 8Gi
      pods: "110"
- apiVersion: v1
  kind: Node
  metadata:
    annotations:
      volcano.sh/oversubscription-memory: "1e400"
    name: inf
  spec: {}
  status:
    allocatable:
      cpu: "8"
      memory: 8Gi
      pods: "110"
kind: List
metadata:
  resourceVersion: ""
"""
POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "in", "namespace": "ns"},
       "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "5", "memory": "1Gi"}}}]}}


def _run(tmp: Path, state: str, suffix: str, *extra: str) -> subprocess.CompletedProcess[str]:
    (tmp / "v.conf").write_text(CONF)
    (tmp / f"state.{suffix}").write_text(state)
    (tmp / "pod.yaml").write_text(yaml.safe_dump(POD))
    return subprocess.run([*EXPLAIN, "--config", str(tmp / "v.conf"), "--cluster", str(tmp / f"state.{suffix}"),
                           "--pod", str(tmp / "pod.yaml"), *extra], capture_output=True, text=True, timeout=120,
                          check=False)


def _strict(text: str) -> Any:
    def refuse(token: str) -> None:
        raise AssertionError(f"not JSON: {token}")
    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("layout", ["yaml", "json"])
def test_json_output_carries_the_annotations_and_stays_json(tmp_path: Path, layout: str) -> None:
    state = STATE if layout == "yaml" else json.dumps(yaml.safe_load(STATE), indent=4)
    proc = _run(tmp_path, state, layout, "-f", "json")
    assert proc.returncode == 0, proc.stderr
    nodes = {n["name"]: n for n in _strict(proc.stdout)["nodes"]}
    assert nodes["over"]["feasible"] and nodes["over"]["oversubscription"] == {"cpu": 2000.0, "memory": 2.0**30}
    assert nodes["over"]["score"] == (5000 / 6000 + 1 / 9) / 2 * 100
    assert (nodes["nan"]["feasible"], nodes["nan"]["reasons"]) == (False, ["Insufficient cpu"])
    assert nodes["nan"]["score"] == "NaN" and nodes["nan"]["resources"][0]["allocatable"] == "NaN"
    assert nodes["inf"]["oversubscription"] == {"memory": "+Inf"}
    assert nodes["inf"]["score"] == (5000 / 8000 + 0.0) / 2 * 100
    assert [n["name"] for n in _strict(proc.stdout)["nodes"]] == ["over", "inf", "nan"]


def test_text_output_names_the_annotations(tmp_path: Path) -> None:
    proc = _run(tmp_path, STATE, "yaml", "--plot")
    assert proc.returncode == 0, proc.stderr
    assert "  over: feasible (allocatable plus its oversubscription annotations: cpu 2000m, memory 1Gi)\n" \
        in proc.stdout
    assert "  nan: infeasible: Insufficient cpu (allocatable plus its oversubscription annotations: cpu NaN)\n" \
        in proc.stdout
    assert "1Gi / +Inf" in proc.stdout


def test_a_number_as_annotation_value_is_refused(tmp_path: Path) -> None:
    proc = _run(tmp_path, STATE.replace('oversubscription-cpu: "2000"', "oversubscription-cpu: 2000"), "yaml")
    assert proc.returncode == 2
    assert proc.stderr.endswith("Node over: metadata.annotations.volcano.sh/oversubscription-cpu must be a string "
                                "(got a number)\n")
