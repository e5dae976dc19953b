"""Which fields of a Node, Pod, PriorityClass, PodDisruptionBudget, RuntimeClass, Service, ReplicaSet,
StatefulSet, ReplicationController or Namespace explain reads, and dropping the rest.

A cluster dump is mostly fields no scorer looks at (managedFields, annotations, conditions,
env, volumes ...). Every reader of STATE keeps only the paths named here, so the
memory of a 150,000-pod dump is the few fields per object the model needs. The paths cover
everything :mod:`linter.scoring.requests`, :mod:`linter.scoring.nodes`,
:mod:`linter.scoring.feasibility` and the input checks read from a cluster object; when a
field has an unexpected type it is kept whole, so the checks report it exactly as before.

A spec is ``KEEP`` (the whole value), a dict (a mapping: only these keys, each with its own
spec) or a one-element list (a sequence whose items each follow the element's spec).
"""

from __future__ import annotations

from typing import Any

from linter.scoring.oversubscription import OVERSUBSCRIPTION_ANNOTATIONS

__all__ = [
    "ANY_FIELDS",
    "KEEP",
    "NAME",
    "NAMESPACE_FIELDS",
    "NODE_FIELDS",
    "PDB_FIELDS",
    "POD_FIELDS",
    "PREEMPTION_POD_FIELDS",
    "PREEMPTION_ROOT",
    "PRIORITY_CLASS_FIELDS",
    "RESIZE_CONDITION",
    "RUNTIME_CLASS_FIELDS",
    "WORKLOAD_FIELDS",
    "WORKLOAD_KINDS",
    "Spec",
    "lighter_spec",
    "preemption_spec_for_kind",
    "prune",
    "spec_for_kind",
]

KEEP = "keep"
NAME = "name"  # kept; a pod's metadata.name/namespace and spec.nodeName (unique per pod, so never cached)
Spec = Any

# limits too: the API server copies a limit without a request into the requests (linter.scoring.apidefaults)
_REQUESTS: dict[str, Spec] = {"resources": {"requests": KEEP, "limits": KEEP}}
_STATUS_RESOURCES: dict[str, Spec] = {"name": KEEP, "resources": KEEP, "allocatedResources": KEEP}

NODE_FIELDS: dict[str, Spec] = {
    "kind": KEEP,
    # the two annotations Volcano adds to the node's allocatable (linter.scoring.oversubscription)
    "metadata": {"name": KEEP, "labels": KEEP, "annotations": dict.fromkeys(OVERSUBSCRIPTION_ANNOTATIONS, KEEP)},
    "spec": {"unschedulable": KEEP, "taints": KEEP},
    # capacity: the allocatable of a Node without one; images: ImageLocality (linter.scoring.imagelocality)
    "status": {"allocatable": KEEP, "capacity": KEEP, "images": [{"names": KEEP, "sizeBytes": KEEP}]},
}

# priority and nominatedNodeName: a pending pod nominated to a node counts there in the filters
POD_FIELDS: dict[str, Spec] = {
    "kind": KEEP,
    # deletionTimestamp: Volcano counts a terminating Running or Pending pod as Releasing (its room is free
    # for the allocate action); few pods have one, so the texts of the others stay shared
    # labels: PodTopologySpread and InterPodAffinity match the bound pods' labels (linter.explain.spread
    # and linter.explain.podaffinity read them from one grouping)
    "metadata": {"name": NAME, "namespace": NAME, "deletionTimestamp": KEEP, "labels": KEEP},
    "spec": {
        "nodeName": NAME,
        # the name matches a container status; ports: host ports (NodePorts)
        "containers": [{**_REQUESTS, "name": KEEP, "ports": KEEP}],
        "initContainers": [{**_REQUESTS, "name": KEEP, "restartPolicy": KEEP, "ports": KEEP}],
        "resources": {"requests": KEEP, "limits": KEEP},
        "overhead": KEEP,
        "priority": KEEP,
        "schedulerName": KEEP,  # a nominated pod counts only for a scheduler with that profile
        "hostNetwork": KEEP,  # its containerPorts are host ports (NodePorts)
        # a bound pod's pod (anti-)affinity terms make InterPodAffinity act on other pods (notModelledForPod)
        "affinity": {"podAffinity": KEEP, "podAntiAffinity": KEEP},
    },
    "status": {
        "phase": KEEP, "nominatedNodeName": KEEP,
        # an in-place resize: what the scheduler cache counts for a placed pod (linter.scoring.resize)
        "containerStatuses": [_STATUS_RESOURCES], "initContainerStatuses": [_STATUS_RESOURCES],
        "resources": KEEP, "allocatedResources": KEEP,  # a pod-level resize
        "conditions": [{"type": KEEP, "reason": KEEP}],
    },
}

# A pod's conditions matter only for a PodResizePending one, which is rare, while every pod has several
# conditions: the YAML scanner prunes a pod without them first and walks it again with them only when
# that word is in the pod's text (:func:`lighter_spec`).
RESIZE_CONDITION = "PodResizePending"
_POD_FIELDS_WITHOUT_CONDITIONS: dict[str, Spec] = {
    **POD_FIELDS, "status": {k: v for k, v in POD_FIELDS["status"].items() if k != "conditions"},
}


def lighter_spec(spec: Spec) -> Spec | None:
    """The spec to prune with first when ``spec`` is :data:`POD_FIELDS` (None otherwise); a pod whose text
    holds :data:`RESIZE_CONDITION` must then be pruned with ``spec`` itself."""
    return _POD_FIELDS_WITHOUT_CONDITIONS if spec is POD_FIELDS else None


# PriorityClasses and PodDisruptionBudgets feed the preemption section; they are few, and kept with
# every field the priority and PDB models read.
PRIORITY_CLASS_FIELDS: dict[str, Spec] = {
    "kind": KEEP, "metadata": {"name": KEEP}, "value": KEEP, "globalDefault": KEEP, "preemptionPolicy": KEEP,
}
PDB_FIELDS: dict[str, Spec] = {
    "kind": KEEP,
    "metadata": {"name": KEEP, "namespace": KEEP},
    "spec": {"selector": KEEP, "minAvailable": KEEP, "maxUnavailable": KEEP},
    "status": {"disruptionsAllowed": KEEP, "disruptedPods": KEEP},
}
# Namespaces: their labels, for InterPodAffinity's namespaceSelectors
NAMESPACE_FIELDS: dict[str, Spec] = {"kind": KEEP, "metadata": {"name": KEEP, "labels": KEEP}}
# RuntimeClasses: what the RuntimeClass admission plugin puts into explain's pending pod
RUNTIME_CLASS_FIELDS: dict[str, Spec] = {
    "kind": KEEP, "metadata": {"name": KEEP}, "overhead": KEEP, "scheduling": KEEP,
}
# Services, ReplicaSets, StatefulSets and ReplicationControllers: PodTopologySpread's default selector
# (linter.scoring.spread.default_selector) reads their namespace, name and selector, nothing else
WORKLOAD_KINDS = ("Service", "ReplicaSet", "StatefulSet", "ReplicationController")
WORKLOAD_FIELDS: dict[str, Spec] = {
    "kind": KEEP, "metadata": {"name": KEEP, "namespace": KEEP}, "spec": {"selector": KEEP},
}
_BY_KIND: dict[str, dict[str, Spec]] = {
    "PriorityClass": PRIORITY_CLASS_FIELDS, "PodDisruptionBudget": PDB_FIELDS, "RuntimeClass": RUNTIME_CLASS_FIELDS,
    **dict.fromkeys(WORKLOAD_KINDS, WORKLOAD_FIELDS),
    "Namespace": NAMESPACE_FIELDS,
}


def _union(a: Spec, b: Spec) -> Spec:
    if a in (KEEP, NAME) or b in (KEEP, NAME):
        return KEEP
    if isinstance(a, list) and isinstance(b, list):
        return [_union(a[0], b[0])]
    if isinstance(a, dict) and isinstance(b, dict):
        return {k: _union(a[k], b[k]) if k in a and k in b else a.get(k, b.get(k)) for k in {**a, **b}}
    return KEEP


# An object whose kind is not known yet (typed lists leave it out): both sets, and "items" for nested lists.
ANY_FIELDS: dict[str, Spec] = {
    **_union(_union(_union(NODE_FIELDS, POD_FIELDS), _union(PRIORITY_CLASS_FIELDS, PDB_FIELDS)),
             _union(_union(RUNTIME_CLASS_FIELDS, WORKLOAD_FIELDS), NAMESPACE_FIELDS)),
    "items": KEEP,
}


def spec_for_kind(kind: object) -> dict[str, Spec]:
    if kind == "Node":
        return NODE_FIELDS
    if kind == "Pod":
        return POD_FIELDS
    return _BY_KIND.get(kind, ANY_FIELDS) if isinstance(kind, str) else ANY_FIELDS


def prune(value: Any, spec: Spec) -> Any:
    """``value`` with only the fields of ``spec`` (values of an unexpected type are kept whole)."""
    if spec in (KEEP, NAME):
        return value
    if isinstance(spec, dict):
        if not isinstance(value, dict):
            return value
        return {k: prune(v, spec[k]) for k, v in value.items() if k in spec}
    if not isinstance(value, list):
        return value
    return [prune(v, spec[0]) for v in value]


# The second, preemption read (linter.explain.objects): a pod also brings what the preemption model
# reads of the pods already bound (priority, start time, labels for PDBs, nomination, disruption).
# uid and startTime differ from pod to pod, so they are NAME fields: the fast YAML reader lifts them out
# and parses the rest once per distinct text. Of a condition, the model reads only these three fields
# (the timestamps would make every pod's text different).
PREEMPTION_POD_FIELDS: dict[str, Spec] = _union(POD_FIELDS, {
    "metadata": {"labels": KEEP, "uid": NAME, "deletionTimestamp": KEEP},
    "spec": {"priority": KEEP, "priorityClassName": KEEP, "preemptionPolicy": KEEP, "schedulerName": KEEP},
    "status": {"startTime": NAME, "nominatedNodeName": KEEP,
               "conditions": [{"type": KEEP, "status": KEEP, "reason": KEEP}]},
})
PREEMPTION_ANY: dict[str, Spec] = _union(_union(NODE_FIELDS, PREEMPTION_POD_FIELDS),
                                         _union(PRIORITY_CLASS_FIELDS, PDB_FIELDS))
PREEMPTION_ROOT: dict[str, Spec] = {**PREEMPTION_ANY, "items": [PREEMPTION_ANY]}


def preemption_spec_for_kind(kind: object) -> dict[str, Spec]:
    return PREEMPTION_POD_FIELDS if kind == "Pod" else spec_for_kind(kind)
