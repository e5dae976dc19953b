"""vectors/oracle-preemption.json cases turned into the v1 objects a cluster dump holds."""

from __future__ import annotations

from typing import Any

from ..vectorfiles import cases

ORACLE = cases("oracle-preemption.json")
Obj = dict[str, Any]


def node_object(node: Obj) -> Obj:
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": node["name"], "labels": node.get("labels") or {}},
            "spec": {"taints": node.get("taints") or [], "unschedulable": bool(node.get("unschedulable"))},
            "status": {"allocatable": node["allocatable"], "capacity": node["allocatable"]}}


def bound_pod(node: str, pod: Obj) -> Obj:
    meta: Obj = {"name": pod["name"], "namespace": pod["namespace"], "labels": pod.get("labels") or {}}
    if pod.get("deletionTimestamp"):
        meta["deletionTimestamp"] = pod["deletionTimestamp"]
        meta["deletionGracePeriodSeconds"] = pod.get("deletionGracePeriodSeconds")
    status: Obj = {"phase": pod.get("phase", "Running"), "startTime": pod["startTime"]}
    if pod.get("conditions"):
        status["conditions"] = pod["conditions"]
    spec = dict(pod["stored"])
    spec["nodeName"] = node
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": status}


def pending_pod(pod: Obj, nominated: str | None) -> Obj:
    status: Obj = {"phase": "Pending"}
    if nominated:
        status["nominatedNodeName"] = nominated
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": pod["name"], "namespace": pod["namespace"]},
            "spec": dict(pod["stored"]), "status": status}


def pdb_object(pdb: Obj) -> Obj:
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
            "metadata": {"name": pdb["name"], "namespace": pdb["namespace"]},
            "spec": pdb["spec"], "status": pdb["status"]}


def priority_class_object(pc: Obj) -> Obj:
    return {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": pc["name"]},
            "value": pc["value"], "globalDefault": pc.get("globalDefault", False),
            "preemptionPolicy": pc.get("preemptionPolicy", "PreemptLowerPriority")}


def cluster(case: Obj) -> tuple[list[Obj], list[Obj], list[Obj], Obj]:
    """(nodes, pods incl. other pending ones, pdbs, the pending pod)."""
    nodes = [node_object(n) for n in case["nodes"]]
    pods = [bound_pod(node, p) for node, bound in case["boundPods"].items() for p in bound]
    pods += [pending_pod(p, p.get("nominatedNodeName")) for p in case.get("otherPendingPods") or []]
    pdbs = [pdb_object(p) for p in case.get("pdbs") or []]
    pending = pending_pod(case["pendingPod"], case["pendingPod"].get("nominatedNodeNameBefore"))
    return nodes, pods, pdbs, pending
