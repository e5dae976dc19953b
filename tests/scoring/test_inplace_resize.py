"""A bound pod resized in place counts on its node as kube-scheduler 1.36's cache counts it.

The cache adds a placed pod with ``resourcehelper.PodRequests(UseStatusResources: true)``
(InPlacePodVerticalScaling is GA and locked on): per regular or restartable init container with a
status that reports ``resources``, max(spec, ``resources.requests``, ``allocatedResources``), the
spec left out while the first ``PodResizePending`` condition says ``Infeasible``
(component-helpers v0.36.2 ``AggregateContainerRequests`` / ``determineEffectiveRequests``). Checked
through both front ends: the webhook's ``ClusterState`` and ``binpack-lint explain`` (JSON and
kubectl-YAML dumps), and through the preemption model.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from linter.model import default_kube_scheduler_model
from linter.scoring.cluster.state import ClusterState
from linter.scoring.nodes import node_views

NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
        "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}
INCOMING = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "new", "namespace": "default"},
            "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]}}


def resized(spec_cpu: str, actuated: str | None, allocated: str | None, reason: str | None = None,
            *, init: bool = False, sidecar: bool = False) -> dict[str, Any]:
    """A bound pod whose container ``app`` asks ``spec_cpu`` in its spec and reports the given status."""
    entry: dict[str, Any] = {"name": "app", "resources": {"requests": {"cpu": actuated}} if actuated else {}}
    if allocated:
        entry["allocatedResources"] = {"cpu": allocated}
    container: dict[str, Any] = {"name": "app", "resources": {"requests": {"cpu": spec_cpu, "memory": "1Gi"}}}
    spec: dict[str, Any] = {"nodeName": "n1", "containers": [container]}
    status: dict[str, Any] = {"phase": "Running", "containerStatuses": [entry]}
    if init or sidecar:
        if sidecar:
            container["restartPolicy"] = "Always"
        spec["containers"] = [{"name": "main", "resources": {"requests": {"cpu": "100m", "memory": "1Gi"}}}]
        spec["initContainers"] = [container]
        status = {"phase": "Running", "initContainerStatuses": [entry]}
    if reason:
        status["conditions"] = [{"type": "PodResizePending", "status": "True", "reason": reason}]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "resized", "namespace": "default"},
            "spec": spec, "status": status}


# (pod, cpu millicores the cache counts for it)
CASES = [
    pytest.param(resized("500m", "3", "3"), 3000, id="upsized-in-place"),
    pytest.param(resized("1", "3", "1"), 3000, id="downsize-not-yet-actuated"),
    pytest.param(resized("2", "1", "1", "Deferred"), 2000, id="deferred-keeps-the-spec"),
    pytest.param(resized("5", "1", "1", "Infeasible"), 1000, id="infeasible-drops-the-spec"),
    pytest.param(resized("5", None, "1", "Infeasible"), 1000, id="infeasible-allocated-only"),
    pytest.param(resized("500m", "3", None, sidecar=True), 3100, id="sidecar-resized"),
    pytest.param(resized("500m", "3", None, init=True), 500, id="ordinary-init-container-reads-its-spec"),
]


def state_cpu(pod: dict[str, Any]) -> tuple[int, int]:
    state = ClusterState()
    state.apply_node(NODE)
    state.apply_pod(pod)
    col, row = state.store.resource_index["cpu"], state.store.row_of["n1"]
    return int(state.store.fit_req[col, row]), int(state.store.act_req[col, row])


@pytest.mark.parametrize(("pod", "cpu"), CASES)
def test_webhook_state_counts_the_resized_request(pod: dict[str, Any], cpu: int) -> None:
    assert state_cpu(pod) == (cpu, cpu)
    view = node_views([NODE], [pod])[0]
    assert (view.fit_requested["cpu"], view.requested["cpu"]) == (cpu, cpu)


def test_webhook_state_follows_a_resize_through_watch_updates() -> None:
    state = ClusterState()
    state.apply_node(NODE)
    col = state.store.resource_index["cpu"]
    plain = resized("500m", None, None)
    plain["status"] = {"phase": "Running"}
    state.apply_pod(plain)
    assert int(state.store.act_req[col, 0]) == 500
    state.apply_pod(resized("500m", "3", "3"))  # MODIFIED: the kubelet actuated an upsize
    assert int(state.store.act_req[col, 0]) == 3000
    state.apply_pod(resized("5", "3", "3", "Infeasible"))  # MODIFIED: a further upsize is infeasible
    assert int(state.store.act_req[col, 0]) == 3000
    state.delete_pod("default", "resized")
    assert state.pod_count == 0


def test_webhook_filter_sees_the_resized_pod() -> None:
    """Resized to 3.5 cpu, the pod leaves 500m: the 1-cpu pod no longer fits (spec alone would leave 3.5)."""
    state = ClusterState()
    state.apply_node(NODE)
    state.apply_pod(resized("500m", "3500m", "3500m"))
    ranking = state.rank(INCOMING, default_kube_scheduler_model())
    assert ranking.feasible_nodes == 0
    assert ranking.reason_counts == {"Insufficient cpu": 1}


def run_explain(tmp_path: Path, state_text: str, suffix: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """``binpack-lint explain`` of INCOMING against a STATE file holding ``state_text``."""
    state, pod_file = tmp_path / f"state.{suffix}", tmp_path / "pod.json"
    state.write_text(state_text)
    pod_file.write_text(json.dumps(INCOMING))
    return subprocess.run([sys.executable, "-m", "linter", "explain", "--cluster", str(state), "--pod",
                           str(pod_file), *extra], capture_output=True, text=True, timeout=120, check=False)


def state_list(pod: dict[str, Any], as_yaml: bool = False) -> str:
    doc = {"apiVersion": "v1", "kind": "List", "items": [NODE, pod]}
    return yaml.safe_dump(doc, sort_keys=False) if as_yaml else json.dumps(doc)


def requested_cpu(proc: subprocess.CompletedProcess[str]) -> int:
    """The one node's requested cpu (millicores, the incoming pod's 1000m included) from explain's JSON."""
    assert proc.returncode == 0, proc.stderr
    (node,) = json.loads(proc.stdout)["nodes"]
    (cpu_row,) = [r for r in node["resources"] if r["name"] == "cpu"]
    return int(cpu_row["requested"])


def explain_cpu(tmp_path: Path, pod: dict[str, Any], as_yaml: bool) -> int:
    return requested_cpu(run_explain(tmp_path, state_list(pod, as_yaml), "yaml" if as_yaml else "json",
                                     "--format", "json"))


@pytest.mark.parametrize("as_yaml", [False, True], ids=["json", "yaml"])
@pytest.mark.parametrize(("pod", "cpu"), CASES[:5])
def test_explain_counts_the_resized_request(tmp_path: Path, pod: dict[str, Any], cpu: int, as_yaml: bool) -> None:
    assert explain_cpu(tmp_path, pod, as_yaml) == cpu + 1000  # already requested + the incoming pod's 1000m


# Pod-level resources resized in place (InPlacePodLevelResourcesVerticalScaling, beta and on by default in
# 1.36): for a pod with pod-level requests whose status.resources is set, PodRequests counts each supported
# pod-level name as max(spec.resources.requests, status.resources.requests, status.allocatedResources), the
# spec left out while Infeasible (component-helpers v0.36.2 PodRequests / determineEffectiveRequests).


def pod_level(spec_cpu: str, actuated: str | None, allocated: str | None, reason: str | None = None,
              *, status_resources: bool = True) -> dict[str, Any]:
    """A bound pod with pod-level requests ``spec_cpu`` (containers ask 200m) and the given pod-level status."""
    status: dict[str, Any] = {"phase": "Running"}
    if status_resources:
        status["resources"] = {"requests": {"cpu": actuated}} if actuated else {}
    if allocated:
        status["allocatedResources"] = {"cpu": allocated}
    if reason:
        status["conditions"] = [{"type": "PodResizePending", "status": "True", "reason": reason}]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "resized", "namespace": "default"},
            "spec": {"nodeName": "n1", "resources": {"requests": {"cpu": spec_cpu, "memory": "1Gi"}},
                     "containers": [{"name": "app", "resources": {"requests": {"cpu": "200m"}}}]},
            "status": status}


# (pod, cpu millicores the kube-scheduler cache counts, cpu millicores Volcano counts)
POD_LEVEL_CASES = [
    pytest.param(pod_level("500m", "3", "3"), 3000, 500, id="upsized-in-place"),
    pytest.param(pod_level("1", "3", "1"), 3000, 1000, id="downsize-not-yet-actuated"),
    pytest.param(pod_level("2", "1", "1", "Deferred"), 2000, 2000, id="deferred-keeps-the-spec"),
    pytest.param(pod_level("5", "1", "1", "Infeasible"), 1000, 5000, id="infeasible-drops-the-spec"),
    pytest.param(pod_level("5", None, None, "Infeasible"), 0, 5000, id="infeasible-nothing-reported-counts-0"),
    pytest.param(pod_level("500m", None, "3", status_resources=False), 500, 500, id="no-status-resources"),
]


@pytest.mark.parametrize(("pod", "cpu", "volcano_cpu"), POD_LEVEL_CASES)
def test_pod_level_resize_counts_in_the_scheduler_views(pod: dict[str, Any], cpu: int, volcano_cpu: int) -> None:
    assert state_cpu(pod) == (cpu, cpu)
    view = node_views([NODE], [pod])[0]
    assert (view.fit_requested["cpu"], view.requested["cpu"]) == (cpu, cpu)
    assert view.volcano_used["cpu"] == volcano_cpu  # Volcano reads pod-level requests from the spec only


def test_webhook_state_follows_a_pod_level_resize() -> None:
    """The request-shape cache must tell two pods apart that differ only in their pod-level status."""
    state = ClusterState()
    state.apply_node(NODE)
    col = state.store.resource_index["cpu"]
    state.apply_pod(pod_level("500m", "500m", "500m"))
    assert int(state.store.act_req[col, 0]) == 500
    state.apply_pod(pod_level("500m", "3", "3"))  # MODIFIED: the kubelet actuated a pod-level upsize
    assert int(state.store.act_req[col, 0]) == 3000
    other = pod_level("500m", "2", "2")
    other["metadata"]["name"] = "other"
    state.apply_pod(other)
    assert int(state.store.act_req[col, 0]) == 5000


@pytest.mark.parametrize("as_yaml", [False, True], ids=["json", "yaml"])
@pytest.mark.parametrize(("pod", "cpu", "volcano_cpu"), POD_LEVEL_CASES[:4])
def test_explain_counts_the_pod_level_resize(tmp_path: Path, pod: dict[str, Any], cpu: int, volcano_cpu: int,
                                             as_yaml: bool) -> None:
    assert explain_cpu(tmp_path, pod, as_yaml) == cpu + 1000  # already requested + the incoming pod's 1000m


@pytest.mark.parametrize(("pod", "field"), [
    pytest.param(resized("500m", "three", "3"), "status.containerStatuses[0].resources.requests.cpu", id="container"),
    pytest.param(pod_level("500m", "three", "3"), "status.resources.requests.cpu", id="pod-level"),
])
def test_explain_names_a_bad_status_quantity(tmp_path: Path, pod: dict[str, Any], field: str) -> None:
    proc = run_explain(tmp_path, state_list(pod), "json")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert f"Pod default/resized: {field}" in proc.stderr


def test_explain_yaml_finds_a_resize_condition_spelt_with_an_escape(tmp_path: Path) -> None:
    # the YAML reader walks conditions only when the item may name PodResizePending: an escape must count
    pod = resized("5", "1", "1", "Infeasible")
    text = state_list(pod, as_yaml=True)
    escaped = text.replace("type: PodResizePending", 'type: "PodResize\\x50ending"')
    assert escaped != text and yaml.safe_load(escaped) == yaml.safe_load(text)
    # Infeasible: the spec's 5 cpu is left out
    assert requested_cpu(run_explain(tmp_path, escaped, "yaml", "--format", "json")) == 1000 + 1000


def test_explain_tells_apart_pods_that_differ_only_in_their_pod_level_status(tmp_path: Path) -> None:
    # explain reuses a request shape's arithmetic for pods with one key: the key must hold the pod-level
    # status.resources requests and status.allocatedResources (here the only differences between the pods)
    pods = [pod_level("500m", "3", "3"), pod_level("500m", "1", "2"), pod_level("500m", "1", "5")]
    for i, pod in enumerate(pods):
        pod["metadata"]["name"] = f"resized-{i}"
    node = {**NODE, "status": {"allocatable": {"cpu": "16", "memory": "8Gi", "pods": "110"}}}
    text = json.dumps({"apiVersion": "v1", "kind": "List", "items": [node, *pods]})
    assert requested_cpu(run_explain(tmp_path, text, "json", "--format", "json")) == 3000 + 2000 + 5000 + 1000


@pytest.mark.parametrize("as_yaml", [False, True], ids=["json", "yaml"])
@pytest.mark.parametrize(("pod", "cpu", "volcano_cpu"), POD_LEVEL_CASES[:4])
def test_explain_volcano_reads_pod_level_requests_from_the_spec(tmp_path: Path, pod: dict[str, Any], cpu: int,
                                                                volcano_cpu: int, as_yaml: bool) -> None:
    config = tmp_path / "volcano-scheduler.conf"
    config.write_text("actions: allocate\ntiers:\n- plugins:\n  - name: predicates\n  - name: binpack\n")
    node = {**NODE, "status": {"allocatable": {"cpu": "8", "memory": "8Gi", "pods": "110"}}}
    doc = {"apiVersion": "v1", "kind": "List", "items": [node, pod]}
    text = yaml.safe_dump(doc, sort_keys=False) if as_yaml else json.dumps(doc)
    proc = run_explain(tmp_path, text, "yaml" if as_yaml else "json", "--config", str(config), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    (node_out,) = json.loads(proc.stdout)["nodes"]
    (cpu_row,) = [r for r in node_out["resources"] if r["name"] == "cpu"]
    assert cpu_row["used"] == volcano_cpu


def sub_milli_resize() -> dict[str, Any]:
    """A bound pod whose two containers report 0.0004 cpu each in ``status.containerStatuses[].resources``."""
    containers = [{"name": n, "resources": {"requests": {"cpu": "0", "memory": "1Gi"}}} for n in ("a", "b")]
    statuses = [{"name": n, "resources": {"requests": {"cpu": "0.0004"}}} for n in ("a", "b")]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "resized", "namespace": "default"},
            "spec": {"nodeName": "n1", "containers": containers},
            "status": {"phase": "Running", "containerStatuses": statuses}}


@pytest.mark.parametrize("as_yaml", [False, True], ids=["json", "yaml"])
def test_explain_rounds_status_quantities_as_the_api_server_stores_them(tmp_path: Path, as_yaml: bool) -> None:
    # SetDefaults_ResourceList rounds every ResourceList of the Pod up to milli-units, the status ones
    # included: each 0.0004 is stored as 1m, so the pod counts 2m (not 0.0008 rounded once to 1m)
    assert explain_cpu(tmp_path, sub_milli_resize(), as_yaml) == 2 + 1000


# Where a container's status is found: kube-scheduler's AggregateContainerRequests indexes
# status.containerStatuses and status.initContainerStatuses together by name, while Volcano's
# GetPodResourceRequest (ed72c7c) looks up regular containers in containerStatuses and init containers in
# initContainerStatuses only. A hand-written status listed under the other kind shows the difference.


def cross_listed(kind: str) -> dict[str, Any]:
    """A bound pod (main 1 cpu, sidecar 500m) whose ``kind`` container reports 3 cpu in the other list."""
    main = {"name": "main", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}
    side = {"name": "side", "restartPolicy": "Always", "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}
    entry = {"name": kind, "resources": {"requests": {"cpu": "3"}}, "allocatedResources": {"cpu": "3"}}
    other_list = "containerStatuses" if kind == "side" else "initContainerStatuses"
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "resized", "namespace": "default"},
            "spec": {"nodeName": "n1", "containers": [main], "initContainers": [side]},
            "status": {"phase": "Running", other_list: [entry]}}


# (pod, cpu millicores kube-scheduler's cache counts, cpu millicores Volcano counts)
CROSS_LISTED = [
    pytest.param(cross_listed("side"), 4000, 1500, id="sidecar-status-under-containerStatuses"),
    pytest.param(cross_listed("main"), 3500, 1500, id="container-status-under-initContainerStatuses"),
]


@pytest.mark.parametrize(("pod", "cpu", "volcano_cpu"), CROSS_LISTED)
def test_each_scheduler_finds_a_status_where_it_looks(pod: dict[str, Any], cpu: int, volcano_cpu: int) -> None:
    view = node_views([NODE], [pod])[0]
    assert (view.fit_requested["cpu"], view.requested["cpu"], view.volcano_used["cpu"]) == (cpu, cpu, volcano_cpu)
    state = ClusterState()
    state.apply_node(NODE)
    state.apply_pod(pod)
    col, row = state.store.resource_index["cpu"], state.store.row_of["n1"]
    assert (int(state.store.fit_req[col, row]), int(state.store.act_req[col, row])) == (cpu, cpu)
    assert float(state.store.vc_used[col, row]) == volcano_cpu


@pytest.mark.parametrize(("pod", "cpu", "volcano_cpu"), CROSS_LISTED)
def test_explain_volcano_finds_a_status_only_in_its_own_list(tmp_path: Path, pod: dict[str, Any], cpu: int,
                                                             volcano_cpu: int) -> None:
    assert explain_cpu(tmp_path, pod, as_yaml=False) == cpu + 1000
    config = tmp_path / "volcano-scheduler.conf"
    config.write_text("actions: allocate\ntiers:\n- plugins:\n  - name: predicates\n  - name: binpack\n")
    proc = run_explain(tmp_path, state_list(pod), "json", "--config", str(config), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    (node_out,) = json.loads(proc.stdout)["nodes"]
    (cpu_row,) = [r for r in node_out["resources"] if r["name"] == "cpu"]
    assert cpu_row["used"] == volcano_cpu
