"""Tiny builders for hand-made preemption cases (v1 objects, as a cluster dump has them)."""

from __future__ import annotations

from typing import Any

Obj = dict[str, Any]


def node(name: str, cpu: str = "4", pods: str = "110", memory: str = "16Gi", **extra: Any) -> Obj:
    alloc = {"cpu": cpu, "memory": memory, "pods": pods, **extra.pop("allocatable", {})}
    return {"kind": "Node", "metadata": {"name": name, "labels": extra.pop("labels", {})},
            "spec": {"taints": extra.pop("taints", []), "unschedulable": extra.pop("unschedulable", False)},
            "status": {"allocatable": alloc}}


T0 = "2026-01-01T00:00:00Z"


def pod(name: str, on: str | None, priority: int | None, cpu: str | None = "1", start: str | None = T0,
        *, ns: str = "default", labels: dict[str, str] | None = None, nominated: str | None = None,
        policy: str | None = None, requests: dict[str, str] | None = None, scheduler: str | None = None,
        **meta: Any) -> Obj:
    reqs = dict(requests or ({"cpu": cpu} if cpu else {}))
    spec: Obj = {"containers": [{"name": "c", "resources": {"requests": reqs}}]}
    if priority is not None:
        spec["priority"] = priority
    if on:
        spec["nodeName"] = on
    if policy:
        spec["preemptionPolicy"] = policy
    if scheduler is not None:
        spec["schedulerName"] = scheduler
    status: Obj = {"phase": "Running" if on else "Pending"}
    if start and on:
        status["startTime"] = start
    if nominated:
        status["nominatedNodeName"] = nominated
    if "conditions" in meta:
        status["conditions"] = meta.pop("conditions")
    return {"kind": "Pod", "metadata": {"name": name, "namespace": ns, "labels": labels or {}, **meta},
            "spec": spec, "status": status}


def pdb(name: str, selector: Any, allowed: int, *, ns: str = "default", disrupted: tuple[str, ...] = ()) -> Obj:
    spec: Obj = {} if selector is None else {"selector": selector}
    status: Obj = {"disruptionsAllowed": allowed}
    if disrupted:
        status["disruptedPods"] = {p: "2026-01-01T00:00:00Z" for p in disrupted}
    return {"kind": "PodDisruptionBudget", "metadata": {"name": name, "namespace": ns}, "spec": spec,
            "status": status}
