"""Seeded, realistic ``kubectl get nodes,pods -A -o yaml|json`` dumps for the explain benchmark and tests.

The objects look like what a real cluster returns: managedFields, annotations (some with a
``last-applied-configuration`` block), conditions with long folded messages, container
statuses, projected volumes, node image lists. About 15 KiB of YAML per Node and 3.5 KiB per
Pod, so 5,000 nodes and 150,000 pods come to roughly 600 MiB, as the issue measured.

Each object is rendered once per template and then has its names substituted, so writing
hundreds of MiB takes seconds. The YAML is in kubectl's layout (sequences at their key's
indentation, keys sorted, long strings folded at 80 columns); the JSON is kubectl's 4-space
indented form.

Run:  python benchmarks/dumpgen.py --nodes 5000 --pods-per-node 30 --out /tmp/dump.yaml [--json]
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable, Iterator
from typing import Any, TextIO

import yaml

INSTANCE_TYPES = [
    ("m.xlarge", "3920m", "15Gi"),
    ("m.2xlarge", "7910m", "31Gi"),
    ("m.4xlarge", "15890m", "62Gi"),
    ("c.8xlarge", "31850m", "60Gi"),
    ("r.4xlarge", "15890m", "124Gi"),
]
TS = "2026-11-20T10:00:00Z"
_LONG = ("containers with unready status: [app sidecar] and a reason long enough that kubectl folds it "
         "over several lines when it writes YAML")


def _managed(manager: str, fields: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": fields, "manager": manager,
            "operation": "Update", "time": TS}


def make_node(i: int, rng: random.Random) -> dict[str, Any]:
    kind, cpu, memory = rng.choice(INSTANCE_TYPES)
    name = f"node-{i:05d}"
    alloc = {"cpu": cpu, "ephemeral-storage": "95Gi", "hugepages-2Mi": "0", "memory": memory, "pods": "110"}
    spec: dict[str, Any] = {"podCIDR": f"10.{i // 250}.{i % 250}.0/24", "providerID": f"aws:///zone/i-{i:08x}"}
    if i % 20 == 0:
        alloc["nvidia.com/gpu"] = "8"
        spec["taints"] = [{"effect": "NoSchedule", "key": "nvidia.com/gpu", "value": "present"}]
    if i % 20 == 7:
        spec["unschedulable"] = True
        spec["taints"] = [{"effect": "NoSchedule", "key": "node.kubernetes.io/unschedulable", "timeAdded": TS}]
    labels = {"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
              "kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "node.kubernetes.io/instance-type": kind,
              "pool": f"pool-{i % 10}", "topology.kubernetes.io/region": "region-1",
              "topology.kubernetes.io/zone": f"zone-{i % 3}"}
    images = [{"names": [f"registry.example.com/team-{k}/image-{k}@sha256:{'%064x' % (k * 7919 + i)}",
                         f"registry.example.com/team-{k}/image-{k}:v1.{k}.0"], "sizeBytes": 10_000_000 + k * 12345}
              for k in range(30)]
    conditions = [{"lastHeartbeatTime": TS, "lastTransitionTime": TS, "message": f"kubelet has {c}, {_LONG}",
                   "reason": f"KubeletHas{c.title().replace(' ', '')}", "status": "False", "type": t}
                  for c, t in (("sufficient memory", "MemoryPressure"), ("no disk pressure", "DiskPressure"),
                               ("sufficient PID available", "PIDPressure"))]
    conditions.append({"lastHeartbeatTime": TS, "lastTransitionTime": TS, "message": "kubelet is posting ready status",
                       "reason": "KubeletReady", "status": "True", "type": "Ready"})
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {
            "annotations": {"node.alpha.kubernetes.io/ttl": "0",
                            "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            "creationTimestamp": TS, "labels": labels,
            "managedFields": [_managed("kubelet", {"f:metadata": {"f:labels": {f"f:{k}": {} for k in labels}}}),
                              _managed("kube-controller-manager", {"f:spec": {"f:podCIDR": {}, "f:taints": {}}})],
            "name": name, "resourceVersion": str(100000 + i), "uid": f"{i:08x}-0000-4000-8000-000000000000"},
        "spec": spec,
        "status": {
            "addresses": [{"address": f"10.0.{i // 250}.{i % 250}", "type": "InternalIP"},
                          {"address": name, "type": "Hostname"}],
            "allocatable": alloc, "capacity": {**alloc, "cpu": str(int(cpu[:-1]) // 1000 + 1)},
            "conditions": conditions, "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}}, "images": images,
            "nodeInfo": {"architecture": "amd64", "bootID": f"{i:032x}", "containerRuntimeVersion": "containerd://2.1.0",
                         "kernelVersion": "6.8.0", "kubeProxyVersion": "v1.36.2", "kubeletVersion": "v1.36.2",
                         "machineID": f"{i:032x}", "operatingSystem": "linux", "osImage": "Ubuntu 24.04 LTS",
                         "systemUUID": f"{i:032x}"}},
    }


def make_workload(w: int, rng: random.Random) -> dict[str, Any]:
    """A pod spec template: 1-2 containers, sometimes an init container, a sidecar or pod-level requests."""
    containers: list[dict[str, Any]] = []
    for k in range(rng.randint(1, 2)):
        requests = {"cpu": f"{rng.randrange(10, 500)}m", "memory": f"{rng.randrange(16, 1024)}Mi"}
        containers.append({
            "env": [{"name": f"VAR_{e}", "value": f"value-{w}-{e}"} for e in range(3)],
            "image": f"registry.example.com/team-{w % 30}/image-{w % 30}:v1.{w % 30}.0",
            "imagePullPolicy": "IfNotPresent",
            "name": f"c{k}", "ports": [{"containerPort": 8080 + k, "name": "http", "protocol": "TCP"}],
            "resources": {"limits": {"memory": requests["memory"]}, "requests": requests},
            "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
            "volumeMounts": [{"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                              "name": "kube-api-access", "readOnly": True}]})
    spec: dict[str, Any] = {
        "containers": containers, "dnsPolicy": "ClusterFirst", "enableServiceLinks": True,
        "preemptionPolicy": "PreemptLowerPriority", "priority": 0, "restartPolicy": "Always",
        "schedulerName": "default-scheduler", "securityContext": {}, "serviceAccount": "default",
        "serviceAccountName": "default", "terminationGracePeriodSeconds": 30,
        "tolerations": [{"effect": "NoExecute", "key": f"node.kubernetes.io/{t}", "operator": "Exists",
                         "tolerationSeconds": 300} for t in ("not-ready", "unreachable")],
        "volumes": [{"name": "kube-api-access", "projected": {"defaultMode": 420, "sources": [
            {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
            {"configMap": {"items": [{"key": "ca.crt", "path": "ca.crt"}], "name": "kube-root-ca.crt"}},
            {"downwardAPI": {"items": [{"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"},
                                        "path": "namespace"}]}}]}}],
    }
    if w % 5 == 0:
        spec["initContainers"] = [{"image": "busybox:1.36", "name": "init",
                                   "resources": {"requests": {"cpu": "500m", "memory": "64Mi"}}}]
    if w % 7 == 0:
        spec.setdefault("initContainers", []).append(
            {"image": "envoy:1.30", "name": "proxy", "restartPolicy": "Always",
             "resources": {"requests": {"cpu": "100m"}}})
    if w % 11 == 0:
        spec["resources"] = {"requests": {"cpu": "600m", "memory": "1Gi"}}
    if w % 50 == 0:
        containers[0]["resources"]["requests"]["nvidia.com/gpu"] = "1"
        spec["tolerations"].append({"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Exists"})
    return spec


def make_pod(i: int, w: int, template: dict[str, Any], node: str | None, phase: str,
             status_resources: bool = False) -> dict[str, Any]:
    spec = dict(template)
    if node is not None:
        spec["nodeName"] = node
    name, ns = f"workload-{w}-{i:07d}", f"ns-{w % 40}"
    annotations = {"kubectl.kubernetes.io/restartedAt": TS}
    if w % 3 == 0:
        annotations["kubectl.kubernetes.io/last-applied-configuration"] = json.dumps(
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": ns}}) + "\n"
    statuses = [{"containerID": f"containerd://{i:064x}", "image": c["image"],
                 "imageID": c["image"] + "@sha256:" + "ab" * 32,
                 "lastState": {}, "name": c["name"], "ready": True, "restartCount": 0, "started": True,
                 "state": {"running": {"startedAt": TS}}} for c in template["containers"]]
    if status_resources and phase == "Running":
        # what a 1.33+ kubelet reports for a running container (in-place resize): the requests it
        # admitted and the resources it actuated, here equal to the spec
        for status, c in zip(statuses, template["containers"], strict=True):
            resources = c.get("resources") or {}
            status["allocatedResources"] = dict(resources.get("requests") or {})
            status["resources"] = {k: dict(v) for k, v in resources.items()}
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {
            "annotations": annotations, "creationTimestamp": TS, "generateName": f"workload-{w}-",
            "labels": {"app": f"workload-{w}", "pod-template-hash": f"{w:010x}"},
            "managedFields": [_managed("kube-controller-manager", {"f:metadata": {"f:generateName": {}, "f:labels": {
                ".": {}, "f:app": {}}}, "f:spec": {"f:containers": {f"k:{{\"name\":\"{c['name']}\"}}": {
                    ".": {}, "f:image": {}, "f:name": {}, "f:resources": {"f:requests": {}}}
                    for c in template["containers"]}}}),
                _managed("kubelet", {"f:status": {"f:conditions": {}, "f:containerStatuses": {}, "f:phase": {}}})],
            "name": name, "namespace": ns,
            "ownerReferences": [{"apiVersion": "apps/v1", "blockOwnerDeletion": True, "controller": True,
                                 "kind": "ReplicaSet", "name": f"workload-{w}",
                                 "uid": f"{w:08x}-1111-4000-8000-000000000000"}],
            "resourceVersion": str(200000 + i), "uid": f"{i:08x}-2222-4000-8000-000000000000"},
        "spec": spec,
        "status": {
            "conditions": [{"lastProbeTime": None, "lastTransitionTime": TS, "status": "True", "type": t}
                           for t in ("PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady",
                                     "PodScheduled")] + [{"lastProbeTime": None, "lastTransitionTime": TS,
                                                          "message": _LONG, "status": "False", "type": "Example"}],
            "containerStatuses": statuses, "hostIP": "10.0.0.1", "phase": phase,
            "podIP": f"10.1.{i // 250 % 250}.{i % 250}",
            "qosClass": "Burstable", "startTime": TS},
    }


Render = Callable[[dict[str, Any]], str]


def _yaml_item(obj: dict[str, Any]) -> str:
    text = yaml.dump(obj, Dumper=yaml.CSafeDumper, default_flow_style=False, sort_keys=True, width=80)
    lines = text.splitlines(keepends=True)
    return "- " + lines[0] + "".join("  " + line if line.strip() else line for line in lines[1:])


def _json_item(obj: dict[str, Any]) -> str:
    return json.dumps(obj, indent=4, sort_keys=True).replace("\n", "\n        ")


def rendered_items(render: Render, nodes: int, pods_per_node: int, seed: int = 1,
                   workloads: int = 300, status_resources: bool = False) -> Iterator[str]:
    """Nodes first, then pods (a few pending, a few Succeeded), as kubectl lists them, each rendered.

    A pod is rendered once per (workload, phase) with placeholder names, then the names are
    substituted: the text equals rendering each pod on its own (the placeholders are as long as
    the names and appear only where the names go)."""
    rng = random.Random(seed)
    for i in range(nodes):
        yield render(make_node(i, rng))
    templates = [make_workload(w, rng) for w in range(workloads)]
    cache: dict[tuple[int, str], str] = {}
    for i in range(nodes * pods_per_node):
        w = rng.randrange(workloads)
        node = None if i % 997 == 0 else f"node-{rng.randrange(nodes):05d}"
        phase = "Succeeded" if i % 101 == 0 else ("Pending" if node is None else "Running")
        key = (w, phase)
        if key not in cache:
            cache[key] = render(make_pod(9_999_999, w, templates[w], None if node is None else "node-ZZZZZ", phase,
                                         status_resources))
        text = cache[key].replace("9999999", f"{i:07d}").replace("0098967f", f"{i:08x}")
        yield text if node is None else text.replace("node-ZZZZZ", node)
    for obj in preemption_objects(workloads):  # kubectl get nodes,pods,priorityclasses,pdb lists them last
        yield render(obj)


def preemption_objects(workloads: int) -> Iterator[dict[str, Any]]:
    """Three PriorityClasses and a PodDisruptionBudget for every tenth workload."""
    for name, value in (("batch-low", 100), ("service", 1000), ("critical-tenant", 100000)):
        yield {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
               "metadata": {"name": name, "uid": f"pc-{name}", "resourceVersion": "1"},
               "value": value, "globalDefault": False, "preemptionPolicy": "PreemptLowerPriority",
               "description": f"{name} workloads"}
    for w in range(0, workloads, 10):
        yield {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
               "metadata": {"name": f"workload-{w}", "namespace": f"team-{w % 40:02d}", "uid": f"pdb-{w}",
                            "annotations": {"note": "generated"}},
               "spec": {"maxUnavailable": 1, "selector": {"matchLabels": {"app": f"workload-{w}"}}},
               "status": {"currentHealthy": 3, "desiredHealthy": 2, "disruptionsAllowed": w % 3,
                          "expectedPods": 3, "observedGeneration": 1}}


def write_yaml(out: TextIO, items: Iterator[str]) -> None:
    out.write("apiVersion: v1\nitems:\n")
    for text in items:
        out.write(text)
    out.write("kind: List\nmetadata:\n  resourceVersion: \"\"\n")


def write_json(out: TextIO, items: Iterator[str]) -> None:
    out.write('{\n    "apiVersion": "v1",\n    "items": [')
    first = True
    for body in items:
        out.write(("\n        " if first else ",\n        ") + body)
        first = False
    out.write('\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n')


def write_dump(path: str, nodes: int, pods_per_node: int, *, seed: int = 1, as_json: bool = False,
               status_resources: bool = False) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        if as_json:
            write_json(fh, rendered_items(_json_item, nodes, pods_per_node, seed, status_resources=status_resources))
        else:
            write_yaml(fh, rendered_items(_yaml_item, nodes, pods_per_node, seed, status_resources=status_resources))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--pods-per-node", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--status-resources", action="store_true",
                        help="running containers' statuses carry resources and allocatedResources (1.33+ kubelets)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    write_dump(args.out, args.nodes, args.pods_per_node, seed=args.seed, as_json=args.json,
               status_resources=args.status_resources)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
