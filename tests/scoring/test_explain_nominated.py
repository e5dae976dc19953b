"""explain's per-node filters count the pods nominated to a node (reference/preemption.md §9, §11.1).

A pending pod with ``status.nominatedNodeName`` and a priority >= the explained pod's reserves its
requests and one pod slot on that node (not the explained pod itself); a node that then fails is
infeasible, and when every node is, the preemption section follows. Scores never count them. Every
STATE reader (kubectl YAML, kubectl JSON, the general reader) must see them, and the kubectl YAML
reader also for a second nominated pod whose kept text repeats the first's.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from linter.cli import main as cli_main
from linter.explain import explain
from linter.model import default_kube_scheduler_model

from .preemption.build import node, pod

Obj = dict[str, Any]


def write(tmp: Path, objs: list[Obj], layout: str) -> Path:
    state = tmp / f"cluster-{layout}"
    if layout == "kubectl-yaml":  # apiVersion first and kind second, as kubectl writes them
        items = [{"apiVersion": "v1", **o} for o in objs]
        state.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": items}, sort_keys=False))
    elif layout == "json":
        state.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": objs}, indent=4))
    else:  # several documents: the general reader
        state.write_text("".join("---\n" + yaml.safe_dump(o, sort_keys=False) for o in objs))
    return state


def run(tmp: Path, objs: list[Obj], pending: Obj, layout: str = "kubectl-yaml", config: Obj | None = None) -> Obj:
    state, pod_file = write(tmp, objs, layout), tmp / "pod.yaml"
    pod_file.write_text(yaml.safe_dump(pending))
    extra: list[str] = []
    if config is not None:
        (tmp / "sched.yaml").write_text(yaml.safe_dump(config))
        extra = ["--config", str(tmp / "sched.yaml")]
    out, err = io.StringIO(), io.StringIO()
    code = cli_main(["explain", "--cluster", str(state), "--pod", str(pod_file), "-f", "json", *extra], out=out,
                    err=err)
    assert code == 0, err.getvalue()
    doc: Obj = json.loads(out.getvalue())
    return doc


LAYOUTS = ["kubectl-yaml", "json", "stream"]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_higher_priority_nomination_takes_the_cpu_and_preemption_runs(tmp_path: Path, layout: str) -> None:
    # 4 cpu: a (1) bound, nomhi (2, priority 2000) nominated; the pod (1000) asks 2: 1 + 2 + 2 > 4
    objs = [node("n1", cpu="4"), pod("a", "n1", 1, "1"), pod("nomhi", None, 2000, "2", nominated="n1")]
    doc = run(tmp_path, objs, pod("pre", None, 1000, "2"), layout)
    (n1,) = doc["nodes"]
    assert (n1["feasible"], n1["reasons"], n1["rejectedByPlugin"]) == (False, ["Insufficient cpu"], "NodeResourcesFit")
    assert n1["nominatedPods"] == ["default/nomhi"]
    sec = doc["preemption"]
    assert sec["nominatedNode"] == "n1" and sec["victims"] == [{"namespace": "default", "name": "a"}]
    assert sec["message"] == "0/1 nodes are available: 1 Insufficient cpu."
    # scores do not count nominated pods: cpu requested 1 (a) + 2 (the pod) of 4, LeastAllocated 25,
    # memory 97 (2 x 200Mi defaulted of 16Gi): floor((25 + 97) / 2) = 61
    assert (n1["resources"][0]["name"], n1["resources"][0]["requested"], n1["score"]) == ("cpu", 3000, 61)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_nomination_takes_the_last_pod_slot(tmp_path: Path, layout: str) -> None:
    objs = [node("n1", cpu="8", pods="2"), pod("a", "n1", 1, "1"), pod("nomhi", None, 2000, "1", nominated="n1")]
    doc = run(tmp_path, objs, pod("pre", None, 1000, "1"), layout)
    assert doc["nodes"][0]["reasons"] == ["Too many pods"]
    sec = doc["preemption"]
    assert sec["nominatedNode"] == "n1" and sec["victims"] == [{"namespace": "default", "name": "a"}]
    assert sec["message"] == "0/1 nodes are available: 1 Too many pods."


@pytest.mark.parametrize("layout", LAYOUTS)
def test_two_nominated_replicas_with_the_same_text_both_count(tmp_path: Path, layout: str) -> None:
    # one 1-cpu replica leaves room (1 + 1 + 2 = 4); the second, kept text equal to the first's, does not
    # (not last in the file: the last item's kept text ends differently)
    objs = [node("n1", cpu="4"), pod("r1", None, 2000, "1", nominated="n1"),
            pod("r2", None, 2000, "1", nominated="n1"), pod("a", "n1", 1, "1")]
    doc = run(tmp_path, objs, pod("pre", None, 1000, "2"), layout)
    assert doc["nodes"][0]["nominatedPods"] == ["default/r1", "default/r2"]
    assert doc["nodes"][0]["reasons"] == ["Insufficient cpu"]
    assert doc["preemption"]["nominatedNode"] == "n1"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_lower_priority_nomination_does_not_count(tmp_path: Path, layout: str) -> None:
    objs = [node("n1", cpu="4"), pod("a", "n1", 1, "1"), pod("nomlo", None, 999, "2", nominated="n1")]
    doc = run(tmp_path, objs, pod("pre", None, 1000, "2"), layout)
    assert doc["nodes"][0]["feasible"] and doc["nodes"][0]["nominatedPods"] == []
    assert doc["preemption"] is None


def test_an_equal_priority_nomination_counts(tmp_path: Path) -> None:
    objs = [node("n1", cpu="4"), pod("a", "n1", 1, "1"), pod("nomeq", None, 1000, "2", nominated="n1")]
    doc = run(tmp_path, objs, pod("pre", None, 1000, "2"))
    assert doc["nodes"][0]["reasons"] == ["Insufficient cpu"] and doc["preemption"]["nominatedNode"] == "n1"


def test_the_pods_own_nomination_does_not_count(tmp_path: Path) -> None:
    # the dump holds the explained pod itself, pending and nominated to n1 (it preempted before)
    objs = [node("n1", cpu="4"), pod("a", "n1", 1, "1"), pod("pre", None, 1000, "2", nominated="n1")]
    doc = run(tmp_path, objs, pod("pre", None, 1000, "2", nominated="n1"))
    assert doc["nodes"][0]["feasible"] and doc["nodes"][0]["nominatedPods"] == []
    assert doc["preemption"] is None


def test_the_priority_compared_is_the_one_admission_gives_the_pod(tmp_path: Path) -> None:
    # the pod names a class of 3000: above the nominated pod's 2000, so the nomination does not count
    klass = {"kind": "PriorityClass", "metadata": {"name": "high"}, "value": 3000}
    objs = [node("n1", cpu="4"), pod("a", "n1", 1, "1"), pod("nomhi", None, 2000, "2", nominated="n1"), klass]
    pending = pod("pre", None, None, "2")
    pending["spec"]["priorityClassName"] = "high"
    doc = run(tmp_path, objs, pending)
    assert doc["nodes"][0]["feasible"] and doc["preemption"] is None


def test_nominated_pods_of_terminal_phase_or_bound_do_not_count() -> None:
    done = pod("done", None, 2000, "2", nominated="n1")
    done["status"]["phase"] = "Failed"
    bound = pod("bound", "n2", 2000, "2", nominated="n1")
    doc = explain(default_kube_scheduler_model(), [node("n1", cpu="4"), node("n2")],
                  [pod("a", "n1", 1, "1"), done, bound], pod("pre", None, 1000, "2"))
    by_name = {n["name"]: n for n in doc["nodes"]}
    assert by_name["n1"]["feasible"] and by_name["n1"]["nominatedPods"] == []


def test_text_output_names_the_nominated_pods_counted(tmp_path: Path) -> None:
    objs = [node("n1", cpu="4"), pod("a", "n1", 1, "1"), pod("nomhi", None, 2000, "2", nominated="n1")]
    state, pod_file = write(tmp_path, objs, "kubectl-yaml"), tmp_path / "pod.yaml"
    pod_file.write_text(yaml.safe_dump(pod("pre", None, 1000, "2")))
    out, err = io.StringIO(), io.StringIO()
    assert cli_main(["explain", "--cluster", str(state), "--pod", str(pod_file)], out=out, err=err) == 0
    assert "  n1: infeasible: Insufficient cpu (filters count the pods nominated here: default/nomhi)\n" \
        in out.getvalue()


@pytest.mark.parametrize(("field", "value", "message"), [
    ("status", {"phase": "Pending", "nominatedNodeName": 5}, "status.nominatedNodeName must be a string"),
    # the scoring read checks every STATE pod's priority as the preemption read and the webhook do
    ("spec.priority", "high", "spec.priority must be an integer (got a string)"),
])
def test_a_bad_nominated_pod_is_a_one_line_error(tmp_path: Path, field: str, value: Any, message: str) -> None:
    bad = pod("nom", None, 2000, "2", nominated="n1")
    if field == "status":
        bad["status"] = value
    else:
        bad["spec"]["priority"] = value
    state, pod_file = write(tmp_path, [node("n1"), bad], "kubectl-yaml"), tmp_path / "pod.yaml"
    pod_file.write_text(yaml.safe_dump(pod("pre", None, 1000, "2")))
    out, err = io.StringIO(), io.StringIO()
    assert cli_main(["explain", "--cluster", str(state), "--pod", str(pod_file)], out=out, err=err) == 2
    assert err.getvalue() == f"binpack-lint explain: error: STATE {state}: Pod default/nom: {message}\n"


TWO_PROFILES = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
                "profiles": [{"schedulerName": "default-scheduler"}, {"schedulerName": "binpack"}]}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_another_schedulers_nomination_does_not_count(tmp_path: Path, layout: str) -> None:
    # kube-scheduler's nominator holds only pods of its profiles (responsibleForPod): volcano's does not
    objs = [node("n1", cpu="4"), pod("a", "n1", 1, "1"),
            pod("vc", None, 2000, "2", nominated="n1", scheduler="volcano")]
    for config in (None, TWO_PROFILES):
        doc = run(tmp_path, objs, pod("pre", None, 1000, "2"), layout, config)
        assert doc["nodes"][0]["feasible"] and doc["nodes"][0]["nominatedPods"] == []
        assert doc["preemption"] is None


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_nomination_of_a_second_profile_counts_and_is_cleared(tmp_path: Path, layout: str) -> None:
    objs = [node("n1", cpu="4"), pod("a", "n1", 1, "1"),
            pod("bp", None, 2000, "2", nominated="n1", scheduler="binpack"),
            pod("bp-low", None, 10, "1", nominated="n1", scheduler="binpack"),
            pod("vc-low", None, 10, "1", nominated="n1", scheduler="volcano")]
    doc = run(tmp_path, objs, pod("pre", None, 1000, "2"), layout, TWO_PROFILES)
    (n1,) = doc["nodes"]
    assert n1["reasons"] == ["Insufficient cpu"] and n1["nominatedPods"] == ["default/bp"]
    sec = doc["preemption"]
    assert sec["nominatedNode"] == "n1" and sec["victims"] == [{"namespace": "default", "name": "a"}]
    assert sec["clearedNominations"] == ["default/bp-low"]
    # without --config the scheduler has the default-scheduler profile only: bp is not its pod
    assert run(tmp_path, objs, pod("pre", None, 1000, "2"), layout)["nodes"][0]["feasible"]
