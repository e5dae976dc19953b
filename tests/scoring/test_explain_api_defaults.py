"""explain scores pods and nodes as kube-apiserver 1.36 stores them, not as they were written.

kube-scheduler reads defaulted objects (pkg/apis/core/v1 SetDefaults_Pod, SetDefaults_ResourceList,
SetDefaults_NodeStatus; resource.Quantity.UnmarshalJSON), while explain's POD is usually a
hand-written manifest. Expected values follow those Go functions.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from linter.cli import main
from linter.explain.inputs import load_cluster_objects
from linter.scoring.apidefaults import stored_node, stored_pod
from linter.scoring.quantity import QuantityError
from linter.scoring.requests import actual_request

from .vectorfiles import cases

GI = 2**30
MI = 2**20


def _node(name: str, status: dict[str, Any]) -> str:
    return json.dumps({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name}, "status": status})


def _pod(name: str, spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"}, "spec": spec}


def _explain(tmp_path: Path, objects: list[str], pod: dict[str, Any] | str) -> tuple[int, Any, str]:
    (tmp_path / "state.yaml").write_text("".join(f"---\n{o}\n" for o in objects))
    (tmp_path / "pod.yaml").write_text(pod if isinstance(pod, str) else json.dumps(pod))
    out, err = io.StringIO(), io.StringIO()
    code = main(["explain", "--cluster", str(tmp_path / "state.yaml"), "--pod", str(tmp_path / "pod.yaml"),
                 "-f", "json"], out=out, err=err)
    return code, json.loads(out.getvalue()) if code == 0 else None, err.getvalue()


def _by_name(doc: Any) -> dict[str, Any]:
    return {n["name"]: n for n in doc["nodes"]}


def _requested(node: Any, resource: str) -> int:
    return next(r["requested"] for r in node["resources"] if r["name"] == resource)


GPU_NODE = _node("gpu", {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110", "nvidia.com/gpu": "4"}})
PLAIN_NODE = _node("plain", {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}})


def test_limits_without_requests_become_the_requests(tmp_path: Path) -> None:
    pod = _pod("p", {"containers": [{"name": "a", "resources": {"limits": {
        "cpu": "2", "memory": "4Gi", "nvidia.com/gpu": "1"}}}]})
    code, doc, err = _explain(tmp_path, [GPU_NODE, PLAIN_NODE], pod)
    assert code == 0, err
    assert doc["podRequest"] == {"cpu": 2000, "memory": 4 * GI, "nvidia.com/gpu": 1}
    nodes = _by_name(doc)
    assert nodes["plain"]["reasons"] == ["Insufficient nvidia.com/gpu"]
    assert nodes["gpu"]["feasible"] and not nodes["gpu"]["balancedSkipped"]


def test_a_request_is_kept_and_init_container_limits_are_copied(tmp_path: Path) -> None:
    pod = _pod("p", {
        "containers": [{"name": "a", "resources": {"requests": {"cpu": "500m"},
                                                   "limits": {"cpu": "1", "memory": "1Gi"}}}],
        "initContainers": [{"name": "i", "resources": {"limits": {"cpu": "3"}}}],
    })
    code, doc, err = _explain(tmp_path, [PLAIN_NODE], pod)
    assert code == 0, err
    assert doc["podRequest"] == {"cpu": 3000, "memory": GI}


def test_a_bound_pod_with_limits_only_counts_its_limits(tmp_path: Path) -> None:
    bound = _pod("b", {"nodeName": "plain", "containers": [{"name": "a", "resources": {"limits": {
        "cpu": "3", "memory": "2Gi"}}}]})
    pod = _pod("p", {"containers": [{"name": "a", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]})
    code, doc, err = _explain(tmp_path, [PLAIN_NODE, json.dumps(bound)], pod)
    assert code == 0, err
    plain = _by_name(doc)["plain"]
    assert (_requested(plain, "cpu"), _requested(plain, "memory")) == (4000, 3 * GI)


def test_quantities_are_rounded_up_to_milli_units_before_they_are_added(tmp_path: Path) -> None:
    """Each container's 1.0005 is stored as 1001m, so two of them are 2002m (not the exact 2001m)."""
    two = [{"name": "a", "resources": {"requests": {"cpu": "1.0005"}}},
           {"name": "b", "resources": {"requests": {"cpu": "1.0005"}}}]
    bound = _pod("b", {"nodeName": "plain", "containers": two})
    code, doc, err = _explain(tmp_path, [PLAIN_NODE, json.dumps(bound)], _pod("p", {"containers": two}))
    assert code == 0, err
    assert doc["podRequest"]["cpu"] == 2002
    assert _requested(_by_name(doc)["plain"], "cpu") == 4004


def test_a_node_without_allocatable_gets_its_capacity(tmp_path: Path) -> None:
    node = _node("cap", {"capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"}})
    pod = _pod("p", {"containers": [{"name": "a", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]})
    code, doc, err = _explain(tmp_path, [node], pod)
    assert code == 0, err
    cap = _by_name(doc)["cap"]
    assert cap["feasible"] and [(r["name"], r["allocatable"]) for r in cap["resources"]] == [
        ("cpu", 4000), ("memory", 8 * GI)]


def test_spaces_around_a_quantity_are_dropped_as_the_json_decoder_does(tmp_path: Path) -> None:
    pod = _pod("p", {"containers": [{"name": "a", "resources": {"requests": {"cpu": " 500m\t", "memory": "1Gi "}}}]})
    code, doc, err = _explain(tmp_path, [PLAIN_NODE], pod)
    assert code == 0, err
    assert doc["podRequest"] == {"cpu": 500, "memory": GI}


def test_a_bad_or_negative_limit_is_one_line_naming_the_limit(tmp_path: Path) -> None:
    for value, needle in (("2x", "'2x'"), ("-1", "must be greater than or equal to 0")):
        pod = _pod("p", {"containers": [{"name": "a", "resources": {"limits": {"cpu": value}}}]})
        code, _, err = _explain(tmp_path, [PLAIN_NODE], pod)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
        assert "spec.containers[0].resources.limits.cpu" in err and needle in err, err


def test_pod_level_limits_default_the_pod_level_requests(tmp_path: Path) -> None:
    """With pod-level limits, cpu/memory requests default to the containers' sum, else to the limit."""
    pod = _pod("p", {"resources": {"limits": {"cpu": "4", "memory": "12Gi"}},
                     "containers": [{"name": "a", "resources": {"requests": {"cpu": "1"}}}]})
    code, doc, err = _explain(tmp_path, [PLAIN_NODE, GPU_NODE], pod)
    assert code == 0, err
    nodes = _by_name(doc)
    assert nodes["gpu"]["reasons"] == ["Insufficient memory"]  # 12Gi > 8Gi: the filter honours pod level
    assert doc["podRequest"] == {"cpu": 1000, "memory": 200 * MI}  # Fit scoring ignores pod level (1.36)
    balanced = {r["name"]: r["podRequest"] for r in nodes["plain"]["balancedResources"]}
    assert balanced == {"cpu": 1000, "memory": 12 * GI}


def test_stored_pod_defaults_pod_level_hugepages() -> None:
    """Container hugepages limits become a pod-level limit and then a pod-level request."""
    pod = _pod("p", {"resources": {"requests": {"cpu": "1"}},
                     "containers": [{"name": "a", "resources": {"limits": {"hugepages-2Mi": "4Mi"},
                                                                 "requests": {"memory": "1Gi"}}}]})
    spec = stored_pod(pod)["spec"]
    assert spec["resources"]["limits"] == {"hugepages-2Mi": "4194304"}
    assert spec["resources"]["requests"] == {"cpu": "1", "memory": "1073741824",
                                             "hugepages-2Mi": "4194304"}
    assert actual_request(stored_pod(pod)) == {"cpu": 1000, "memory": GI, "hugepages-2Mi": 4 * MI}


def test_pod_level_requests_default_to_the_containers_with_init_containers_and_sidecars() -> None:
    """defaultPodRequests aggregates like PodRequests: an init container needs its own requests plus the
    sidecars started before it; a wrong-typed entry counts as nothing here and is reported later."""
    containers: list[Any] = [{"name": "a", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]
    inits: list[Any] = [{"name": "i", "resources": {"limits": {"cpu": "3"}}},
                        {"name": "s", "restartPolicy": "Always", "resources": {"limits": {"memory": "512Mi"}}},
                        {"name": "j", "resources": {"requests": {"cpu": "2", "memory": "1280Mi"}}}]
    level = {"limits": {"cpu": "8", "memory": "4Gi"}}
    # cpu: max(1, 3, 2); memory: max(1Gi + the sidecar's 512Mi (its limit became its request), j's 1280Mi
    # + the sidecar's 512Mi)
    expected = {"cpu": "3", "memory": str(1792 * MI)}
    spec = stored_pod(_pod("p", {"resources": level, "containers": containers, "initContainers": inits}))["spec"]
    assert spec["resources"]["requests"] == expected
    bad = _pod("p", {"resources": level, "containers": [*containers, "x"],
                     "initContainers": [*inits, {"name": "k", "resources": "bad"}, 5]})
    assert stored_pod(bad)["spec"]["resources"]["requests"] == expected
    with pytest.raises(QuantityError, match=r"^spec\.containers\[1\]: expected a mapping, got str$"):
        actual_request(stored_pod(bad))
    no_list = stored_pod(_pod("p", {"resources": level, "containers": containers, "initContainers": "x"}))
    assert no_list["spec"]["resources"]["requests"] == {"cpu": "1", "memory": str(GI)}  # the containers only


def test_stored_objects_come_back_unchanged() -> None:
    pod = _pod("p", {"containers": [{"name": "a", "resources": {"limits": {"cpu": "2"},
                                                                "requests": {"cpu": "1001m", "memory": "1Gi"}}}],
                     "overhead": {"cpu": "250m"}})
    assert stored_pod(pod) == pod
    node = json.loads(GPU_NODE)
    assert stored_node(node) == node


def test_whole_objects_for_preemption_and_the_webhook_dump_are_stored_too(tmp_path: Path) -> None:
    """load_cluster_objects (explain's preemption section, ``binpack-webhook --cluster-file``) defaults too."""
    bound = _pod("b", {"nodeName": "cap", "containers": [{"name": "a", "resources": {"limits": {"cpu": "1.0005"}}}]})
    node = _node("cap", {"capacity": {"cpu": "4", "pods": "110"}})
    (tmp_path / "state.yaml").write_text(f"---\n{node}\n---\n{json.dumps(bound)}\n")
    objects = load_cluster_objects(str(tmp_path / "state.yaml"))
    assert objects.nodes[0]["status"]["allocatable"] == {"cpu": "4", "pods": "110"}
    assert objects.pods[0]["spec"]["containers"][0]["resources"]["requests"] == {"cpu": "1001m"}


ORACLE = cases("oracle-scoring.json")
KATA = {"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": {"name": "kata-fixture"},
        "handler": "kata", "overhead": {"podFixed": {"cpu": "250m", "memory": "160Mi"}}}


def _oracle_files(tmp_path: Path, case: dict[str, Any], runtime_classes: list[dict[str, Any]]) -> list[str]:
    """The measured cluster as a dump (bound pods as stored) and the pending pod as it was sent."""
    config = tmp_path / "scheduler.yaml"
    config.write_text(case["schedulerConfig"]["text"])
    items: list[dict[str, Any]] = [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": n["name"]},
                                    "status": {"allocatable": n["allocatable"]}} for n in case["nodes"]]
    for bound in case["boundPods"].values():
        items += [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": b["name"], "namespace": "default"},
                   "spec": b["stored"], "status": {"phase": "Running"}} for b in bound]
    (tmp_path / "state.yaml").write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List",
                                                          "items": items + runtime_classes}))
    pending = _pod(case["pendingPod"]["name"], case["pendingPod"]["sent"])
    (tmp_path / "pod.json").write_text(json.dumps(pending))
    return ["explain", "--config", str(config), "--cluster", str(tmp_path / "state.yaml"),
            "--pod", str(tmp_path / "pod.json"), "-f", "json"]


@pytest.mark.parametrize("case", ORACLE, ids=[c["id"] for c in ORACLE])
def test_the_pending_pod_as_sent_scores_as_measured(tmp_path: Path, case: dict[str, Any]) -> None:
    """With the cluster's RuntimeClass in STATE, the pod as created (``sent``) gets the logged scores: the
    RuntimeClass admission plugin fills in its overhead as it did for the real scheduler."""
    out, err = io.StringIO(), io.StringIO()
    assert main(_oracle_files(tmp_path, case, [KATA]), out=out, err=err) == 0, err.getvalue()
    doc, outcome = json.loads(out.getvalue()), case["outcome"]
    assert sorted(n["name"] for n in doc["nodes"] if not n["feasible"]) == sorted(outcome["infeasibleNodes"])
    for node in doc["nodes"]:
        if node["feasible"]:
            assert node["weightedScore"] == outcome["fitScore"][node["name"]]
            assert node["balancedScore"] == outcome["balancedScore"][node["name"]]


def _admit(tmp_path: Path, spec: dict[str, Any], classes: list[dict[str, Any]]) -> tuple[int, Any, str]:
    objects = [PLAIN_NODE, _node("gpu", {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}),
               *map(json.dumps, classes)]
    return _explain(tmp_path, objects, _pod("p", {"containers": [{"name": "a"}], **spec}))


def test_runtime_class_admission_refusals_are_one_line(tmp_path: Path) -> None:
    for spec, classes, message in (
        ({"runtimeClassName": "gvisor"}, [KATA], 'pod rejected: RuntimeClass "gvisor" not found'),
        ({"runtimeClassName": "kata-fixture", "overhead": {"cpu": "1"}}, [KATA],
         "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"),
        ({"overhead": {"cpu": "1"}}, [KATA],
         "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead"),
        ({"runtimeClassName": "kata-fixture", "nodeSelector": {"zone": "b"}},
         [{**KATA, "scheduling": {"nodeSelector": {"zone": "a"}}}],
         "conflict: runtimeClass.scheduling.nodeSelector[zone] = a; pod.spec.nodeSelector[zone] = b"),
    ):
        code, _, err = _admit(tmp_path, spec, classes)
        assert code == 2 and err.count("\n") == 1, err
        assert f"spec.runtimeClassName: {message} (the API server would reject this pod)" in err, err


def test_runtime_class_scheduling_is_merged_into_the_pod(tmp_path: Path) -> None:
    """The class's overhead (equal to the pod's by value), node selector and tolerations reach the filters."""
    selective = {**KATA, "scheduling": {"nodeSelector": {"zone": "a"},
                                        "tolerations": [{"key": "kata", "operator": "Exists"}]}}
    allocatable = {"cpu": "4", "memory": "8Gi", "pods": "110"}
    nodes = [json.dumps({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": {"zone": zone}},
                         "spec": {"taints": [{"key": "kata", "effect": "NoSchedule"}]},
                         "status": {"allocatable": allocatable}}) for name, zone in (("in-a", "a"), ("in-b", "b"))]
    pod = _pod("p", {"containers": [{"name": "a"}], "runtimeClassName": "kata-fixture",
                     "overhead": {"memory": "160Mi", "cpu": "0.25"}})
    code, doc, err = _explain(tmp_path, [*nodes, json.dumps(selective)], pod)
    assert code == 0, err
    assert doc["podRequest"] == {"cpu": 350, "memory": 200 * MI + 160 * MI}
    by_name = _by_name(doc)
    assert by_name["in-a"]["feasible"] and by_name["in-a"]["reasons"] == []
    assert by_name["in-b"]["reasons"] == ["node(s) didn't match Pod's node affinity/selector"]


def test_without_runtime_classes_in_state_the_pod_is_left_as_written(tmp_path: Path) -> None:
    code, doc, err = _admit(tmp_path, {"runtimeClassName": "kata-fixture"}, [])
    assert code == 0, err
    assert doc["podRequest"] == {"cpu": 100, "memory": 200 * MI}
