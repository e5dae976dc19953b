"""Every oracle-preemption.json case through ``binpack-lint explain -f json`` (a real process), and
again in-process with the pod as the user sent it (no ``spec.priority``): the priority then comes
from the dump's PriorityClasses, as admission would set it."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from linter.cli import main as cli_main

from .oracle import ORACLE, cluster, priority_class_object

EXPLAIN = [sys.executable, "-m", "linter", "explain"]


def main(argv: list[str], *, out: io.StringIO, err: io.StringIO) -> int:
    """``binpack-lint explain ARGV`` in-process."""
    return cli_main(["explain", *argv], out=out, err=err)


def write_case(tmp: Path, case: dict[str, Any], *, as_sent: bool) -> tuple[Path, Path]:
    nodes, pods, pdbs, pending = cluster(case)
    classes = [priority_class_object(pc) for pc in case["priorityClasses"]]
    if as_sent:
        spec = {k: v for k, v in case["pendingPod"]["sent"].items() if k != "schedulingGates"}
        pending = {**pending, "spec": spec}
    state, pod = tmp / "cluster.yaml", tmp / "pod.yaml"
    state.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": [*nodes, *pods, *classes, *pdbs]}))
    pod.write_text(yaml.safe_dump(pending))
    return state, pod


def check(doc: dict[str, Any], case: dict[str, Any]) -> None:
    want = case["outcome"]
    sec = doc["preemption"]
    if not want["preemptionNeeded"]:
        assert sec is None
        return
    assert {"eligible", "nominatedNode", "victims", "message"} <= set(sec)
    assert sec["eligible"] == want["eligible"]
    assert sec["nominatedNode"] == want["nominatedNode"]
    assert sorted(f"{v['namespace']}/{v['name']}" for v in sec["victims"]) == want["victims"]
    assert sec["message"] == want["message"]


@pytest.mark.parametrize("case", ORACLE, ids=[c["id"] for c in ORACLE])
def test_oracle_case_through_cli(case: dict[str, Any], tmp_path: Path) -> None:
    state, pod = write_case(tmp_path, case, as_sent=False)
    proc = subprocess.run([*EXPLAIN, "--cluster", str(state), "--pod", str(pod), "-f", "json"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    check(json.loads(proc.stdout), case)


@pytest.mark.parametrize("case", ORACLE, ids=[c["id"] for c in ORACLE])
def test_oracle_case_priority_from_classes(case: dict[str, Any], tmp_path: Path) -> None:
    state, pod = write_case(tmp_path, case, as_sent=True)
    out, err = io.StringIO(), io.StringIO()
    assert main(["--cluster", str(state), "--pod", str(pod), "-f", "json"], out=out, err=err) == 0, err.getvalue()
    check(json.loads(out.getvalue()), case)


def test_text_and_plot_name_node_victims_and_message(tmp_path: Path) -> None:
    case = next(c for c in ORACLE if c["id"] == "pdb-violation-count-decides")
    state, pod = write_case(tmp_path, case, as_sent=False)
    out = io.StringIO()
    assert main(["--cluster", str(state), "--pod", str(pod), "--plot"], out=out, err=io.StringIO()) == 0
    text = out.getvalue()
    assert "nominated node: n2" in text and "decided by: fewest PDB violations" in text
    assert "default/b1  priority 500" in text and "violates default/api" in text
    assert "PodDisruptionBudgets violated: default/api" in text
    assert "FailedScheduling: 0/2 nodes are available: 2 Insufficient cpu." in text
    assert "n2: requested before (#) and after the evictions" in text
    assert "4000m / 4000m  (-4000m victims, +4000m pod)" in text


def test_no_preemption_help_lists_reason_counts(tmp_path: Path) -> None:
    case = next(c for c in ORACLE if c["id"] == "nowhere-mixed-statuses")
    state, pod = write_case(tmp_path, case, as_sent=False)
    out = io.StringIO()
    assert main(["--cluster", str(state), "--pod", str(pod)], out=out, err=io.StringIO()) == 0
    text = out.getvalue()
    assert "no preemption can help" in text
    for line in ("2 x Insufficient cpu", "1 x Insufficient memory", "1 x No preemption victims found for incoming pod",
                 "1 x Preemption is not helpful for scheduling"):
        assert line in text


def test_unknown_priority_class_is_one_line_error(tmp_path: Path) -> None:
    case = ORACLE[0]
    state, pod = write_case(tmp_path, case, as_sent=True)
    pod.write_text(pod.read_text().replace("prio-1000", "no-such-class"))
    err = io.StringIO()
    assert main(["--cluster", str(state), "--pod", str(pod)], out=io.StringIO(), err=err) == 2
    assert err.getvalue() == (f"binpack-lint explain: error: POD {pod}: spec.priorityClassName: no PriorityClass with "
                              "name no-such-class was found (the API server would reject this pod)\n")


def test_bad_pdb_status_is_one_line_error(tmp_path: Path) -> None:
    case = next(c for c in ORACLE if c["id"] == "pdb-disrupted-pods-not-counted")
    state, pod = write_case(tmp_path, case, as_sent=False)
    state.write_text(state.read_text().replace("disruptionsAllowed: 0", "disruptionsAllowed: many"))
    err = io.StringIO()
    assert main(["--cluster", str(state), "--pod", str(pod)], out=io.StringIO(), err=err) == 2
    assert err.getvalue() == (f"binpack-lint explain: error: STATE {state}: PodDisruptionBudget default/web: "
                              "status.disruptionsAllowed must be an integer\n")
