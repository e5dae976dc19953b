"""``binpack-lint explain`` run as a real process on vector cases and on bad input.

Each vector case is turned into the files a user would have: a cluster dump (``v1/List`` of
Nodes and bound Pods), the pending Pod and, when the case has non-default args, a scheduler
config. The JSON output must carry the vector's numbers.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from .vectorfiles import cases

EXPLAIN = [sys.executable, "-m", "linter", "explain"]  # the real entry point: linter.cli dispatches to explain


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*EXPLAIN, *map(str, args)], capture_output=True, text=True, timeout=120, check=False)


VOLCANO_PROBE = "actions: allocate\ntiers:\n- plugins:\n  - name: binpack\n"


def _engine_ready(text: str) -> bool:
    """True once linter.engine.load_scheduler_model builds a model for this kind (written in parallel)."""
    try:
        from linter.engine import load_scheduler_model
    except ImportError:
        return False
    model, _ = load_scheduler_model(text, "probe.yaml")
    return model is not None


KUBE_READY = _engine_ready(cases("oracle-scoring.json")[0]["schedulerConfig"]["text"])
VOLCANO_READY = _engine_ready(VOLCANO_PROBE)


def _with_engine(case: dict[str, Any]) -> Any:
    ready = VOLCANO_READY if case["engine"] == "volcano-binpack" else KUBE_READY
    mark = pytest.mark.skipif(not ready, reason="linter.engine.load_scheduler_model cannot load this kind yet")
    return pytest.param(case, id=case["id"], marks=mark)


def write_case(tmp: Path, case: dict[str, Any]) -> tuple[Path, Path]:
    items: list[dict[str, Any]] = []
    for node in case["nodes"]:
        items.append({"apiVersion": "v1", "kind": "Node", "metadata": {"name": node["name"]},
                      "status": {"allocatable": node["allocatable"]}})
        for i, pod in enumerate(node.get("pods", [])):
            bound = json.loads(json.dumps(pod))
            bound["metadata"] = {"name": f"{node['name']}-pod-{i}", "namespace": "default"}
            bound["spec"]["nodeName"] = node["name"]
            bound["status"] = {"phase": "Running"}
            items.append(bound)
    state, pod_file = tmp / "state.json", tmp / "pod.yaml"
    state.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}))
    pod_file.write_text(yaml.safe_dump(case["pod"]))
    return state, pod_file


def kube_config(case: dict[str, Any]) -> str:
    profile: dict[str, Any] = {"schedulerName": "default-scheduler"}
    name = "NodeResourcesFit" if case["engine"] == "k8s-fit" else "NodeResourcesBalancedAllocation"
    profile["pluginConfig"] = [{"name": name, "args": case["args"]}]
    if "pluginWeight" in case:
        profile["plugins"] = {"score": {"enabled": [{"name": "NodeResourcesFit", "weight": case["pluginWeight"]}]}}
    return yaml.safe_dump({"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
                           "profiles": [profile]})


def check_fit(doc: dict[str, Any], case: dict[str, Any]) -> None:
    by_name = {n["name"]: n for n in doc["nodes"]}
    for name, want in case["expected"].items():
        got = by_name[name]
        assert got["score"] == want["score"]
        assert got["weightedScore"] == want["weightedScore"]
        keys = ("name", "weight", "podRequest", "requested", "allocatable")
        assert [{k: r[k] for k in keys} for r in got["resources"]] == want["resources"]


DEFAULT_ARGS_FIT = [c for c in cases("scoring.json", "k8s-fit") if not c["args"] and "pluginWeight" not in c]


@pytest.mark.slow
@pytest.mark.parametrize("case", DEFAULT_ARGS_FIT, ids=[c["id"] for c in DEFAULT_ARGS_FIT])
def test_default_scheduler_cases_without_config(tmp_path: Path, case: dict[str, Any]) -> None:
    state, pod = write_case(tmp_path, case)
    proc = run("--cluster", state, "--pod", pod, "-f", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["engine"] == "k8s-fit" and doc["strategy"] == "LeastAllocated" and doc["pluginWeight"] == 1
    check_fit(doc, case)


CONFIGURED = [c for c in cases("scoring.json") if c["engine"] != "k8s-fit" or c["args"] or "pluginWeight" in c]


@pytest.mark.slow
@pytest.mark.parametrize("case", [_with_engine(c) for c in CONFIGURED])
def test_configured_cases(tmp_path: Path, case: dict[str, Any]) -> None:
    state, pod = write_case(tmp_path, case)
    config = tmp_path / "sched.yaml"
    if case["engine"] == "volcano-binpack":
        args = yaml.safe_load(case["argumentsYaml"]) or {}
        config.write_text(yaml.safe_dump({"actions": "enqueue, allocate", "tiers": [
            {"plugins": [{"name": "binpack", "arguments": args}]}]}))
    else:
        config.write_text(kube_config(case))
    proc = run("--config", config, "--cluster", state, "--pod", pod, "-f", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    by_name = {n["name"]: n for n in doc["nodes"]}
    if case["engine"] == "k8s-fit":
        check_fit(doc, case)
    elif case["engine"] == "k8s-balanced":
        for name, want in case["expected"].items():
            assert by_name[name]["balancedSkipped"] == want["skipped"]
            assert (by_name[name]["balancedScore"] or 0) == want["score"]
    else:
        for name, want in case["expected"].items():
            got = by_name[name]
            assert abs(got["score"] - want["score"]) <= 1e-9 * max(1.0, abs(want["score"]))
            assert got["weightSum"] == want["weightSum"] and got["rejectedBy"] == want["rejectedBy"]
        assert doc["effectiveWeights"] == case["expected"][next(iter(case["expected"]))]["effectiveWeights"]


def test_text_output_writes_the_arithmetic(tmp_path: Path) -> None:
    case = DEFAULT_ARGS_FIT[0]
    state, pod = write_case(tmp_path, case)
    proc = run("--cluster", state, "--pod", pod, "--plot")
    assert proc.returncode == 0, proc.stderr
    for name, want in case["expected"].items():
        assert f"  {name}: " in proc.stdout
        assert f"= {want['score']}; * weight 1 = {want['weightedScore']}" in proc.stdout
    assert "LeastAllocated: score = 100 - utilization" in proc.stdout


def _one_line_error(proc: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    for needle in needles:
        assert needle in lines[0]


def test_bad_quantity_in_pod_names_the_field(tmp_path: Path) -> None:
    state, pod = write_case(tmp_path, DEFAULT_ARGS_FIT[0])
    pod.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
                   "  - name: a\n    resources: {requests: {cpu: 2x}}\n")
    _one_line_error(run("--cluster", state, "--pod", pod), "spec.containers[0].resources.requests.cpu", "2x")


def test_not_a_pod(tmp_path: Path) -> None:
    state, pod = write_case(tmp_path, DEFAULT_ARGS_FIT[0])
    pod.write_text("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n")
    _one_line_error(run("--cluster", state, "--pod", pod), "not a Pod", "Deployment")


def test_state_problems(tmp_path: Path) -> None:
    _, pod = write_case(tmp_path, DEFAULT_ARGS_FIT[0])
    empty = tmp_path / "empty.yaml"
    empty.write_text("apiVersion: v1\nkind: List\nitems: []\n")
    _one_line_error(run("--cluster", empty, "--pod", pod), "no Node objects")
    broken = tmp_path / "broken.yaml"
    broken.write_text("items: [\n")
    _one_line_error(run("--cluster", broken, "--pod", pod), "not valid YAML/JSON")
    bad_node = tmp_path / "badnode.yaml"
    bad_node.write_text("kind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {memory: 12XB}}\n")
    _one_line_error(run("--cluster", bad_node, "--pod", pod), "n1", "status.allocatable.memory", "12XB")
    _one_line_error(run("--cluster", tmp_path / "missing.yaml", "--pod", pod), "missing.yaml", "cannot read")


def test_unknown_profile_and_usage(tmp_path: Path) -> None:
    state, pod = write_case(tmp_path, DEFAULT_ARGS_FIT[0])
    _one_line_error(run("--cluster", state, "--pod", pod, "--profile", "nope"), "nope", "default-scheduler")
    _one_line_error(run("--cluster", state), "--pod")


def test_invalid_scheduler_config_exits_1_without_scoring(tmp_path: Path) -> None:
    state, pod = write_case(tmp_path, DEFAULT_ARGS_FIT[0])
    config = tmp_path / "sched.yaml"
    config.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
                      "profiles:\n- schedulerName: a\n  pluginConfig:\n  - name: NodeResourcesFit\n"
                      "    args: {scoringStrategy: {type: Bogus}}\n")
    proc = run("--config", config, "--cluster", state, "--pod", pod, "-f", "json")
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert f"{config}:" in proc.stderr


ORACLE = cases("oracle-scoring.json")


@pytest.mark.slow
@pytest.mark.skipif(not KUBE_READY, reason="linter.engine.load_scheduler_model cannot load kube configs yet")
@pytest.mark.parametrize("case", ORACLE, ids=[c["id"] for c in ORACLE])
def test_oracle_case_with_the_config_the_scheduler_ran(tmp_path: Path, case: dict[str, Any]) -> None:
    """The exact config file of the measured run, the stored pods, and the logged scores."""
    config = tmp_path / "scheduler.yaml"
    config.write_text(case["schedulerConfig"]["text"])
    items: list[dict[str, Any]] = [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": n["name"]},
                                    "status": {"allocatable": n["allocatable"]}} for n in case["nodes"]]
    for bound in case["boundPods"].values():
        items += [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": b["name"], "namespace": "default"},
                   "spec": b["stored"], "status": {"phase": "Running"}} for b in bound]
    state, pod = tmp_path / "state.yaml", tmp_path / "pod.json"
    state.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": items}))
    pod.write_text(json.dumps({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": case["pendingPod"]["name"]},
                               "spec": case["pendingPod"]["stored"]}))
    proc = run("--config", config, "--cluster", state, "--pod", pod, "-f", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    outcome = case["outcome"]
    assert doc["pluginWeight"] == case["schedulerConfig"]["fitPluginWeightEffective"]
    assert sorted(n["name"] for n in doc["nodes"] if not n["feasible"]) == sorted(outcome["infeasibleNodes"])
    for node in doc["nodes"]:
        if node["feasible"]:
            assert node["weightedScore"] == outcome["fitScore"][node["name"]]
            assert node["balancedScore"] == outcome["balancedScore"][node["name"]]


@pytest.mark.slow
def test_legacy_policy_reproduces_the_docs(tmp_path: Path) -> None:
    case = next(c for c in cases("scoring.json") if c["id"] == "docs-rtcr-binary-units")
    claimed = {m[0]: int(m[1]) for m in re.findall(r"(node\d)=(\d+)", case["description"])}
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"kind": "Policy", "apiVersion": "v1", "priorities": [{
        "name": "RequestedToCapacityRatioPriority", "weight": 1, "argument": {"requestedToCapacityRatioArguments": {
            "shape": case["args"]["scoringStrategy"]["requestedToCapacityRatio"]["shape"],
            "resources": case["args"]["scoringStrategy"]["resources"]}}}]}))
    state, pod = write_case(tmp_path, case)
    proc = run("--config", policy, "--cluster", state, "--pod", pod, "-f", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["engine"] == "legacy-rtcr"
    assert {n["name"]: n["score"] for n in doc["nodes"]} == claimed
    assert "[BPL300]" in proc.stderr  # the removal is still said, as a warning


@pytest.mark.parametrize(("text", "lines"), [
    ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n",
     ["{config}:1:1: error [BPL004] expected exactly one scheduler configuration, found 0"]),
    ("", ["{config}:1:1: warning [BPL003] file is empty: nothing to check",
          "{config}:1:1: error [BPL004] expected exactly one scheduler configuration, found 0"]),
])
def test_config_that_holds_no_scheduler_config_is_an_error_line_exit_1(tmp_path: Path, text: str,
                                                                      lines: list[str]) -> None:
    state, pod = write_case(tmp_path, DEFAULT_ARGS_FIT[0])
    config = tmp_path / "sched.yaml"
    config.write_text(text)
    proc = run("--config", config, "--cluster", state, "--pod", pod)
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr.splitlines() == [line.format(config=config) for line in lines]


def test_a_name_that_is_not_a_string_is_named_as_such_not_as_missing(tmp_path: Path) -> None:
    _, pod = write_case(tmp_path, DEFAULT_ARGS_FIT[0])
    state = tmp_path / "state.yaml"
    state.write_text("kind: Node\nmetadata: {name: 5}\nstatus: {allocatable: {cpu: '4'}}\n")
    proc = run("--cluster", state, "--pod", pod)
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        2, "", f"binpack-lint explain: error: STATE {state}: Node at document 1: metadata.name must be a string, "
        "not 5\n")


def test_the_pod_is_checked_before_the_cluster_dump_is_read(tmp_path: Path) -> None:
    # STATE may be a 150,000-pod dump: a typo in POD must not wait for it (nor hide behind its errors)
    pod = tmp_path / "pod.yaml"
    pod.write_text("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n")
    proc = run("--cluster", tmp_path / "missing.yaml", "--pod", pod)
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        2, "", f"binpack-lint explain: error: POD {pod}: not a Pod (kind: 'Deployment'); give the pending Pod object\n")


def test_an_unknown_priority_class_is_refused_for_a_volcano_pod_too(tmp_path: Path) -> None:
    # the API server's Priority plugin rejects the pod whatever its scheduler, as the webhook does (403)
    examples = Path(__file__).resolve().parents[2] / "examples" / "explain"
    pod = tmp_path / "pod.yaml"
    text = (examples / "cce-pod.yaml").read_text()
    pod.write_text(text.replace("spec:\n", "spec:\n  priorityClassName: no-such\n", 1))
    proc = run("--config", examples / "cce-volcano-scheduler.conf", "--cluster", examples / "cce-cluster.yaml",
               "--pod", pod, "-f", "json")
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr.splitlines()[-1] == (f"binpack-lint explain: error: POD {pod}: spec.priorityClassName: no "
                                            "PriorityClass with name no-such was found (the API server would reject "
                                            "this pod)")
