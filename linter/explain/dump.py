"""A cluster dump as explain needs it: the Nodes (pruned) and, per node name, the sums of its pods.

Readers hand every object of STATE to :class:`DumpBuilder` in file order. Pods are checked as
:func:`~linter.explain.inputs.load_state` always checked them, then reduced to what they add
to their node (a pending pod nominated to a node: its name, priority and requests, which
kube-scheduler's filters count there); whole Pod objects are never kept. The request arithmetic of a pod depends only
on its request fields, so it is done once per distinct *request shape* (replicas of one
workload share it) and the result reused, errors included. Sums are added in file order, so
every total equals the one the scalar model gives pod by pod.

The first problem found is kept and raised by :meth:`DumpBuilder.finish`, after the reader has
read the whole file: a syntax error later in the file wins, as it did when the file was
parsed before anything was checked.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from linter.goint import INT32_MAX, INT32_MIN
from linter.scoring.apidefaults import stored_node, stored_pod
from linter.scoring.boundpods import BoundPods
from linter.scoring.hostports import HostPort, host_ports
from linter.scoring.nodes import NodeView, is_counted, is_counted_pod
from linter.scoring.nominated import (
    Nominee,
    labels_of,
    nominated_node_of,
    pod_affinity_of,
    pod_key,
    pod_priority,
    scheduler_name_of,
)
from linter.scoring.preemption.pods import parse_time
from linter.scoring.quantity import QuantityError, parse_quantity
from linter.scoring.requests import actual_request, fit_node_contribution, fit_score_request, volcano_request
from linter.scoring.resize import placed_views, resize_fingerprint
from linter.scoring.spread import SpreadObjects
from linter.scoring.unmodelled import AffinityCounts, affinity_flags
from linter.scoring.volcano_feasibility import is_releasing

from .fields import WORKLOAD_KINDS, prune, spec_for_kind
from .fieldtypes import (
    NAMESPACE_TYPES,
    NODE_TYPES,
    POD_AFFINITY_TYPES,
    WORKLOAD_TYPES,
    placement_problem,
    port_problem,
    type_problem,
)
from .podaffinity import AffinityPods

__all__ = [
    "ClusterDump",
    "DumpBuilder",
    "ExplainInputError",
    "ObjectSink",
    "check_name",
    "describe",
    "feed_document",
    "flatten",
    "negative_request",
    "preemption_field_problem",
    "request_fingerprint",
]


class ExplainInputError(Exception):
    """Bad STATE/POD/usage: exit code 2 with this one-line message."""


def describe(obj: Mapping[str, Any]) -> str:
    """``Pod ns/name``, ``PodDisruptionBudget ns/name`` or ``Node name`` for messages."""
    meta = obj.get("metadata")
    meta = meta if isinstance(meta, Mapping) else {}
    kind = obj.get("kind") or "object"
    name = meta.get("name") or "<unnamed>"
    if kind in ("Pod", "PodDisruptionBudget"):
        return f"{kind} {meta.get('namespace') or 'default'}/{name}"
    return f"{kind} {name}"


def flatten(doc: Any, path: str, where: str) -> Iterator[tuple[Mapping[str, Any], str]]:
    """The objects of one document: Lists (``v1/List``, ``NodeList`` ...) and sequences opened up."""
    if isinstance(doc, list):
        for i, item in enumerate(doc):
            yield from flatten(item, path, f"{where}[{i}]")
        return
    if not isinstance(doc, Mapping):
        raise ExplainInputError(f"STATE {path}: {where} is not an object (got {type(doc).__name__})")
    kind = doc.get("kind")
    items = doc.get("items")
    if isinstance(kind, str) and kind.endswith("List") and "items" in doc:
        if not isinstance(items, list):
            raise ExplainInputError(f"STATE {path}: {where}.items must be a list")
        item_kind = kind[: -len("List")] if kind != "List" else None
        for i, item in enumerate(items):
            if isinstance(item, Mapping) and item_kind and "kind" not in item:
                item = {**item, "kind": item_kind}  # typed lists omit the items' kind
            yield from flatten(item, path, f"{where}.items[{i}]")
        return
    yield doc, where


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int32_problem(value: object, field: str) -> str | None:
    """Why ``value`` cannot be the int32 the API server stores in ``field`` (a dump never holds more), or None."""
    if not _is_int(value):
        return f"{field} must be an integer"
    assert isinstance(value, int)
    if not INT32_MIN <= value <= INT32_MAX:
        return f"{field} is out of the 32-bit integer range the API server stores"
    return None


def preemption_field_problem(obj: Mapping[str, Any]) -> str | None:
    """A field preemption reads with the wrong type, named (instead of silently read as 0), or None."""
    spec = obj.get("spec") if isinstance(obj.get("spec"), Mapping) else {}
    status = obj.get("status") if isinstance(obj.get("status"), Mapping) else {}
    assert isinstance(spec, Mapping) and isinstance(status, Mapping)
    kind = obj.get("kind")
    if kind == "Pod":
        if spec.get("priority") is not None and (problem := _int32_problem(spec["priority"], "spec.priority")):
            return problem
        start = status.get("startTime")
        if start is not None and parse_time(start) is None:
            return "status.startTime is not an RFC 3339 time"
    elif kind == "PriorityClass" and (problem := _int32_problem(obj.get("value"), "value")):
        return problem
    elif kind == "PodDisruptionBudget":
        allowed = status.get("disruptionsAllowed")
        if allowed is not None and (problem := _int32_problem(allowed, "status.disruptionsAllowed")):
            return problem
        if spec.get("selector") is not None and not isinstance(spec["selector"], Mapping):
            return "spec.selector must be a mapping"
    return None


def check_name(obj: Mapping[str, Any], path: str, role: str, where: str) -> None:
    meta = obj.get("metadata")
    name = meta.get("name") if isinstance(meta, Mapping) else None
    if name is not None and not isinstance(name, str):  # `name: 5` is there, just not a name
        raise ExplainInputError(f"{role} {path}: {obj.get('kind')} at {where}: metadata.name must be a string, "
                                f"not {json.dumps(name, default=str)}")
    if not name:
        raise ExplainInputError(f"{role} {path}: {obj.get('kind')} at {where}: metadata.name is missing")


def request_fingerprint(pod: Mapping[str, Any]) -> Hashable | None:
    """Everything the request functions and the pod check read, as a key (None: not cacheable).

    Raw values go into the key (``repr`` tells ``1`` from ``"1"`` and ``{}`` from ``[]``), so two
    pods with one key get the same arithmetic and the same error.
    """
    spec = pod.get("spec")
    if not isinstance(spec, Mapping):
        return None

    return repr((_containers_key(spec.get("containers"), False), _containers_key(spec.get("initContainers"), True),
                 spec.get("resources"), spec.get("overhead"), resize_fingerprint(pod), spec.get("hostNetwork"),
                 spec.get("affinity")))


def _containers_key(raw: object, init: bool) -> object:
    """The fields of a container list the request functions read (an init container's restartPolicy too), and
    its ports (NodePorts)."""
    if not isinstance(raw, list):
        return ("!", raw)
    if init:
        return [(c.get("resources"), c.get("restartPolicy"), c.get("ports")) if type(c) is dict
                or isinstance(c, Mapping) else ("!", c) for c in raw]
    return [(c.get("resources"), c.get("ports")) if type(c) is dict or isinstance(c, Mapping) else ("!", c)
            for c in raw]


@dataclass(frozen=True)
class Shape:
    """What one request shape adds to a node (or the error every pod of that shape gets)."""

    error: str | None
    fit: dict[str, int] = field(default_factory=dict)
    actual: dict[str, int] = field(default_factory=dict)
    volcano: dict[str, float] = field(default_factory=dict)
    ports: tuple[HostPort, ...] = ()  # host ports (NodePorts)
    affinity: int = 0  # linter.scoring.unmodelled.affinity_flags


def _negative(raw: object, where: str) -> str | None:
    if not isinstance(raw, Mapping):
        return None
    for name, quantity in raw.items():
        if parse_quantity(quantity) < 0:
            return f"{where}.{name}: must be greater than or equal to 0 (got {quantity!r})"
    return None


def negative_request(pod: Mapping[str, Any]) -> str | None:
    """The first negative limit, request or overhead, as the apiserver refuses it (callers parsed them
    already). A container's limits come first: its requests may be copies of them (API defaulting)."""
    spec = pod.get("spec")
    if not isinstance(spec, Mapping):
        return None
    for field_name in ("containers", "initContainers"):
        for i, container in enumerate(spec.get(field_name) or ()):
            resources = container.get("resources") if isinstance(container, Mapping) else None
            if isinstance(resources, Mapping):
                for kind in ("limits", "requests"):
                    found = _negative(resources.get(kind), f"spec.{field_name}[{i}].resources.{kind}")
                    if found:
                        return found
    level = spec.get("resources")
    found = _negative(level.get("requests"), "spec.resources.requests") if isinstance(level, Mapping) else None
    return found or _negative(spec.get("overhead"), "spec.overhead")


def pod_shape(pod: Mapping[str, Any]) -> Shape:
    """The pod checks of explain (spec, containers, every quantity) and the three request views, of the
    pod as the API server stores it (:func:`~linter.scoring.apidefaults.stored_pod`)."""
    spec = pod.get("spec")
    if not isinstance(spec, Mapping):
        return Shape("spec is missing")
    containers = spec.get("containers")
    if not isinstance(containers, list) or not containers:
        return Shape("spec.containers is missing or empty")
    ports_problem = port_problem(pod) or type_problem(pod, POD_AFFINITY_TYPES)
    if ports_problem is not None:
        return Shape(ports_problem)
    try:
        pod = stored_pod(pod)
        fit_score_request(pod)  # the order the checks always ran in: its error wins
        actual, volcano, fit = actual_request(pod), volcano_request(pod), fit_node_contribution(pod)
        negative = negative_request(pod)
        # a STATE pod is counted on a node (bound or nominated): with any in-place resize;
        # views recomputed only for what a resize changes (Volcano reads pod-level requests from the spec only)
        placed = placed_views(pod)
        if placed.volcano is not pod:
            volcano = volcano_request(placed.volcano)
        if placed.scheduler is not pod:
            actual, fit = actual_request(placed.scheduler), fit_node_contribution(placed.scheduler)
    except QuantityError as exc:
        return Shape(str(exc))
    if negative:
        return Shape(negative)
    return Shape(None, fit, actual, volcano, host_ports(pod), affinity_flags(pod))


@dataclass
class PodTotals:
    """The sums NodeView.add_pod builds, accumulated before the node is known."""

    pod_count: int = 0
    fit_requested: dict[str, int] = field(default_factory=dict)
    requested: dict[str, int] = field(default_factory=dict)
    volcano_used: dict[str, float] = field(default_factory=dict)
    volcano_releasing: dict[str, float] = field(default_factory=dict)
    used_ports: set[HostPort] = field(default_factory=set)

    def add(self, shape: Shape, releasing: bool = False) -> None:
        """One counted pod of ``shape``; ``releasing``: Volcano counts it as Releasing (is_releasing)."""
        self.pod_count += 1
        if releasing:
            for name, value in shape.volcano.items():
                self.volcano_releasing[name] = self.volcano_releasing.get(name, 0.0) + value
        if shape.ports:
            self.used_ports.update(shape.ports)
        # _add three times, inlined: this runs once per counted pod
        pairs: tuple[tuple[dict[str, Any], Mapping[str, Any]], ...] = (
            (self.fit_requested, shape.fit), (self.requested, shape.actual), (self.volcano_used, shape.volcano))
        for total, extra in pairs:
            get = total.get
            for name, value in extra.items():
                total[name] = get(name, 0) + value


@dataclass
class ClusterDump:
    """The Nodes of STATE (only the fields explain reads), the sums of the pods bound to each name, and
    the PriorityClasses and PodDisruptionBudgets (for the pending pod's priority and the preemption section)."""

    nodes: list[Mapping[str, Any]]
    totals: dict[str, PodTotals]
    priority_classes: list[Mapping[str, Any]] = field(default_factory=list)
    pdbs: list[Mapping[str, Any]] = field(default_factory=list)
    nominated: list[Nominee] = field(default_factory=list)  # pending pods with status.nominatedNodeName
    runtime_classes: list[Mapping[str, Any]] = field(default_factory=list)  # for the pending pod's admission
    affinity: AffinityCounts = field(default_factory=AffinityCounts)  # bound pods with pod affinity terms
    # every counted pod's namespace and labels, grouped: PodTopologySpread and InterPodAffinity match them
    labelled_pods: BoundPods = field(default_factory=BoundPods)
    spread_objects: SpreadObjects = field(default_factory=SpreadObjects.none)  # its default selector's objects
    pod_affinity: AffinityPods = field(default_factory=AffinityPods)  # what InterPodAffinity reads of them
    namespaces: dict[str, dict[str, str]] | None = None  # Namespace labels; None: STATE has no Namespace

    def views(self) -> list[NodeView]:
        """One view per node name (a later Node of the same name replaces the earlier one)."""
        views: dict[str, NodeView] = {}
        for node in self.nodes:
            view = NodeView.from_node(node, describe(node))
            negative = [n for n, v in view.allocatable.items() if v < 0]
            if negative:
                raise QuantityError(f"node {view.name}: status.allocatable.{negative[0]}: "
                                    "must be greater than or equal to 0")
            views[view.name] = view
        for name, view in views.items():
            totals = self.totals.get(name)
            if totals is not None:
                view.pod_count = totals.pod_count
                view.fit_requested = dict(totals.fit_requested)
                view.requested = dict(totals.requested)
                view.volcano_used = dict(totals.volcano_used)
                view.volcano_releasing = dict(totals.volcano_releasing)
                view.used_ports = set(totals.used_ports)
        return list(views.values())


class ObjectSink(Protocol):
    """What the STATE readers feed: :class:`DumpBuilder`, or :class:`~linter.explain.objects.ObjectCollector`."""

    error: str | None

    def add_document(self, doc: Any, number: int) -> None: ...

    def add(self, obj: Mapping[str, Any], where: str, shape_key: Hashable | None = None) -> None: ...


def feed_document(sink: ObjectSink, path: str, doc: Any, number: int) -> None:
    """Every object of one document (``number`` counts from 1) to ``sink``; the first problem is kept."""
    if sink.error is not None:
        return
    try:
        for obj, where in flatten(doc, path, f"document {number}"):
            sink.add(obj, where)
    except ExplainInputError as exc:
        sink.error = str(exc)


def _with_images(node: Mapping[str, Any], wanted: frozenset[str] | None) -> Mapping[str, Any]:
    """``node`` with only the ``wanted`` names in its ``status.images`` (entries left without one dropped)."""
    status = node.get("status")
    if wanted is None or not isinstance(status, Mapping) or not isinstance(status.get("images"), list):
        return node
    images = status["images"]
    kept = []
    for entry in images:  # the types were checked (NODE_TYPES)
        names = [n for n in entry.get("names") or () if n in wanted] if isinstance(entry, Mapping) else []
        if names:
            kept.append({**entry, "names": names})
    return {**node, "status": {**status, "images": kept}}


class DumpBuilder:
    """Collects the objects of STATE in file order; see the module docstring."""

    def __init__(self, path: str, *, deferred: bool = False, image_names: frozenset[str] | None = None) -> None:
        self.path = path
        # the image names ImageLocality looks up for the pending pod: a Node keeps only these of its
        # status.images (None: all), so the dump's thousands of image names per node are not held
        self.image_names = image_names
        self.nodes: list[Mapping[str, Any]] = []
        self.totals: dict[str, PodTotals] = {}
        # deferred: the counted pods are listed, not summed, for a builder that reads an earlier part
        # of the file to add them after its own (in file order, so float sums come out the same)
        self.counted: list[tuple[str, Shape, bool]] | None = [] if deferred else None
        self.priority_classes: list[Mapping[str, Any]] = []
        self.pdbs: list[Mapping[str, Any]] = []
        self.runtime_classes: list[Mapping[str, Any]] = []
        self.shapes: dict[Hashable, Shape] = {}
        self.nominated: list[Nominee] = []
        self.affinity: dict[int, int] = {}  # counted pods by affinity_flags (only the non-zero ones)
        self.labelled_pods = BoundPods()
        self.workloads: dict[str, dict[tuple[str, str], Any]] = {kind: {} for kind in WORKLOAD_KINDS}
        self.pod_affinity = AffinityPods()  # InterPodAffinity: the counted pods' terms
        self.namespaces: dict[str, dict[str, str]] = {}  # Namespace name -> labels
        self.has_namespaces = False
        self.error: str | None = None

    def add_document(self, doc: Any, number: int) -> None:
        """Every object of one (non-empty) document; ``number`` counts from 1."""
        feed_document(self, self.path, doc, number)

    def add(self, obj: Mapping[str, Any], where: str, shape_key: Hashable | None = None) -> None:
        """One object; ``shape_key`` names its request shape when the reader already knows it."""
        if self.error is not None:
            return
        kind = obj.get("kind")
        if kind == "Node":
            if not self._named(obj, where) or not self._typed(obj, NODE_TYPES):
                return
            self.nodes.append(stored_node(_with_images(prune(obj, spec_for_kind("Node")), self.image_names)))
        elif kind in ("PriorityClass", "PodDisruptionBudget"):
            if not self._named(obj, where):
                return
            problem = preemption_field_problem(obj)
            if problem is not None:
                self.error = f"STATE {self.path}: {describe(obj)}: {problem}"
                return
            kept = prune(obj, spec_for_kind(kind))
            (self.priority_classes if kind == "PriorityClass" else self.pdbs).append(kept)
        elif kind == "RuntimeClass":
            if self._named(obj, where):
                self.runtime_classes.append(prune(obj, spec_for_kind(kind)))
        elif kind in WORKLOAD_KINDS:
            if self._named(obj, where) and self._typed(obj, WORKLOAD_TYPES[str(kind)]):
                self._workload(str(kind), obj)
        elif kind == "Namespace":
            if self._named(obj, where) and self._typed(obj, NAMESPACE_TYPES):
                labels = obj.get("metadata", {}).get("labels") or {}
                self.namespaces[str(obj["metadata"]["name"])] = dict(labels)
                self.has_namespaces = True
        elif kind == "Pod":
            if not self._named(obj, where):
                return
            problem = placement_problem(obj)
            if problem is not None:
                self.error = f"STATE {self.path}: {describe(obj)}: {problem}"
                return
            key = shape_key if shape_key is not None else request_fingerprint(obj)
            shape = self.shapes.get(key) if key is not None else None
            if shape is None:
                shape = pod_shape(obj)
                if key is not None:
                    self.shapes[key] = shape
            if shape.error is not None:
                self.error = f"STATE {self.path}: {describe(obj)}: {shape.error}"
                return
            if is_counted_pod(obj):
                name = str(obj["spec"]["nodeName"])
                self.pod_affinity.note(name, obj)
                releasing = is_releasing(obj)
                meta = obj.get("metadata") or {}  # a mapping: _named checked its name
                self._labelled(name, meta.get("namespace"), meta.get("labels"),
                               meta.get("deletionTimestamp") is not None)
                if self.counted is not None:
                    self.counted.append((name, shape, releasing))
                else:
                    self._count(name, shape, releasing)
            else:
                self._nominee(obj, shape)

    def _nominee(self, pod: Mapping[str, Any], shape: Shape) -> None:
        """A pod that is not counted: kept when it is nominated to a node (kube-scheduler's filters
        count it there)."""
        status = pod.get("status")
        nominated = status.get("nominatedNodeName") if isinstance(status, Mapping) else None
        problem = preemption_field_problem(pod) if nominated is not None else None
        if nominated is not None and not isinstance(nominated, str):
            problem = "status.nominatedNodeName must be a string"
        if problem is not None:
            self.error = f"STATE {self.path}: {describe(pod)}: {problem}"
            return
        node = nominated_node_of(pod)
        if node:
            self.nominated.append(Nominee(pod_key(pod), node, pod_priority(pod), shape.actual, scheduler_name_of(pod),
                                          shape.ports, labels_of(pod), pod_affinity_of(pod)))

    def add_known_pod(self, name: object, node_name: object, phase: object, shape_key: Hashable,
                      deleting: bool = False, namespace: object = None, labels: object = None,
                      pod: Mapping[str, Any] | None = None) -> bool:
        """A pod whose request shape ``shape_key`` was added before (by :meth:`add`) and holds no problem:
        the same as ``add`` of the pod, given only the fields that still matter (its name, ``spec.nodeName``,
        ``status.phase``, whether it has a ``metadata.deletionTimestamp``, its namespace and labels; ``pod``:
        the pod parsed before from the same text, for InterPodAffinity). False, with nothing done, when
        only the whole pod can be judged (a missing shape, a shape with a problem, a name that is not a
        non-empty string): call ``add``."""
        if self.error is not None:
            return True
        shape = self.shapes.get(shape_key)
        if shape is None or shape.error is not None or not isinstance(name, str) or not name:
            return False
        if not isinstance(node_name, str | None) or not isinstance(phase, str | None) or \
                not isinstance(namespace, str | None):
            return False  # add names the field (PLACEMENT_TYPES)
        if pod is None and shape.affinity:
            return False  # InterPodAffinity reads its terms
        if is_counted(node_name, phase):
            self._labelled(str(node_name), namespace, labels, deleting)
            if pod is not None:  # the text was added whole before, so its types were checked
                self.pod_affinity.note(str(node_name), pod, namespace)
            releasing = deleting and phase in ("Running", "Pending")  # is_releasing
            if self.counted is not None:
                self.counted.append((str(node_name), shape, releasing))
            else:
                self._count(str(node_name), shape, releasing)
        return True

    def _count(self, name: str, shape: Shape, releasing: bool = False) -> None:
        totals = self.totals.get(name)
        if totals is None:
            totals = self.totals[name] = PodTotals()
        totals.add(shape, releasing)
        if shape.affinity:
            self.affinity[shape.affinity] = self.affinity.get(shape.affinity, 0) + 1

    def _labelled(self, node: str, namespace: object, labels: object, deleting: bool) -> None:
        """A counted pod's namespace and labels, for PodTopologySpread and InterPodAffinity (the types were
        checked: PLACEMENT_TYPES)."""
        items = tuple(labels.items()) if isinstance(labels, dict) else ()
        self.labelled_pods.add(node, str(namespace or "default"), items, deleting)

    def _workload(self, kind: str, obj: Mapping[str, Any]) -> None:
        meta, spec = obj.get("metadata") or {}, obj.get("spec") or {}
        self.workloads[kind][(str(meta.get("namespace") or "default"), str(meta["name"]))] = spec.get("selector")

    def clear_cache(self) -> None:
        self.shapes.clear()

    def absorb(self, later: DumpBuilder) -> None:
        """Add what a deferred builder read from the text after this one's (neither has an error)."""
        assert later.counted is not None and self.error is None and later.error is None
        self.nodes.extend(later.nodes)
        self.priority_classes.extend(later.priority_classes)
        self.pdbs.extend(later.pdbs)
        self.runtime_classes.extend(later.runtime_classes)
        self.nominated.extend(later.nominated)
        self.labelled_pods.absorb(later.labelled_pods)
        for kind, found in later.workloads.items():
            self.workloads[kind].update(found)
        self.pod_affinity.extend(later.pod_affinity)
        self.namespaces.update(later.namespaces)
        self.has_namespaces = self.has_namespaces or later.has_namespaces
        for name, shape, releasing in later.counted:
            self._count(name, shape, releasing)

    def _named(self, obj: Mapping[str, Any], where: str) -> bool:
        try:
            check_name(obj, self.path, "STATE", where)
        except ExplainInputError as exc:
            self.error = str(exc)
            return False
        return True

    def _typed(self, obj: Mapping[str, Any], types: Mapping[str, Any]) -> bool:
        problem = type_problem(obj, types)
        if problem is not None:
            self.error = f"STATE {self.path}: {describe(obj)}: {problem}"
        return problem is None

    def finish(self) -> ClusterDump:
        if self.error is not None:
            raise ExplainInputError(self.error)
        if not self.nodes:
            raise ExplainInputError(
                f"STATE {self.path}: no Node objects found (use: kubectl get nodes,pods -A -o yaml)")
        objects = SpreadObjects(self.workloads["Service"], self.workloads["ReplicationController"],
                                self.workloads["ReplicaSet"], self.workloads["StatefulSet"])
        return ClusterDump(self.nodes, self.totals, self.priority_classes, self.pdbs, self.nominated,
                           self.runtime_classes, AffinityCounts.of(self.affinity), self.labelled_pods, objects,
                           self.pod_affinity, self.namespaces if self.has_namespaces else None)
