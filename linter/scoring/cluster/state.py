"""Live, compact cluster state for ranking nodes, kept up to date from watch events.

:class:`ClusterState` holds what the NodeResourcesFit / Volcano binpack scorers and the
cheap kube-scheduler filters need for thousands of nodes, and nothing else: per-node
numpy columns (see :mod:`linter.scoring.cluster.store`) plus, per bound pod, the
node name and its contribution to those columns, in the pod table's slots
(:mod:`linter.scoring.cluster.podtable`, which preemption reads too). Whole Pod objects are never kept.

Events: ``apply_node``/``delete_node`` for Node ADDED/MODIFIED/DELETED, ``apply_pod`` for Pod
ADDED/MODIFIED and ``delete_pod`` for DELETED. A pod counts on a node while it has
``spec.nodeName`` and its phase is neither Succeeded nor Failed; every update first takes
back exactly what the pod added before, so the sums always equal a rebuild from scratch.
Pods may arrive before their node; a node that is deleted and re-created keeps its pods.

The per-pod arithmetic is done by the scalar model (:mod:`linter.scoring.requests`); its
results are memoized by the resource-relevant part of the spec, since replicas of one
workload share it. Not thread-safe: callers serialize access (the webhook holds a lock).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from linter.goint import in_int64
from linter.model import KubeSchedulerModel, Profile, VolcanoModel
from linter.scoring.cluster.filters import FilterCache
from linter.scoring.cluster.images import parse_node_images
from linter.scoring.cluster.kept_results import KeptResults, pod_shape_key
from linter.scoring.cluster.podtable import PodTable
from linter.scoring.cluster.preemption import FastPreemption, predict_fast
from linter.scoring.cluster.preferences import PreferenceCache
from linter.scoring.cluster.rank import Ranking, rank_pod
from linter.scoring.cluster.reprieve import BudgetIndex
from linter.scoring.cluster.requests import counted_resource, simple_pod_amounts
from linter.scoring.cluster.store import Contribution, ContributionEntry, NodeStore, TaintList
from linter.scoring.nodes import is_counted_pod
from linter.scoring.oversubscription import oversubscription, volcano_node_allocatable
from linter.scoring.preemption.pdb import budget_of
from linter.scoring.requests import (
    actual_request,
    fit_node_contribution,
    node_allocatable,
    volcano_request,
)
from linter.scoring.resize import placed_views, resize_fingerprint
from linter.scoring.unmodelled import AffinityCounts
from linter.scoring.volcano_feasibility import is_releasing

__all__ = ["ClusterState", "Ranking"]

_MEMO_LIMIT = 8192
_INTERN_LIMIT = 65536  # distinct contributions shared between pods (bounded: shapes come and go)

T = TypeVar("T")


def resource_fingerprint(pod: Mapping[str, Any]) -> str | None:
    """Everything the request functions read from a pod, as a hashable key (None: not cacheable)."""
    try:
        spec = pod.get("spec") or {}
        containers = [(c.get("resources") or {}).get("requests") for c in spec.get("containers") or ()]
        inits = [
            ((c.get("resources") or {}).get("requests"), c.get("restartPolicy"))
            for c in spec.get("initContainers") or ()
        ]
        level = (spec.get("resources") or {}).get("requests")
        return repr((containers, inits, level, spec.get("overhead"), resize_fingerprint(pod)))
    except (AttributeError, TypeError):
        return None  # malformed: let the scalar model report it


class Memo:
    """A bounded cache keyed by :func:`resource_fingerprint`; the oldest entry goes first when full."""

    def __init__(self, limit: int = _MEMO_LIMIT) -> None:
        self._values: dict[tuple[str, str], object] = {}
        self._limit = limit

    def fingerprint(self, pod: Mapping[str, Any]) -> str | None:
        return resource_fingerprint(pod)

    def get(self, kind: str, pod: Mapping[str, Any], compute: Callable[[Mapping[str, Any]], T]) -> T:
        return self.lookup(kind, resource_fingerprint(pod), pod, compute)

    def lookup(
        self, kind: str, fingerprint: str | None, pod: Mapping[str, Any], compute: Callable[[Mapping[str, Any]], T]
    ) -> T:
        """``get`` with the pod's fingerprint already computed (one pod, several kinds)."""
        if fingerprint is None:
            return compute(pod)
        key = (kind, fingerprint)
        if key in self._values:
            return self._values[key]  # type: ignore[return-value]
        value = compute(pod)
        if len(self._values) >= self._limit:
            del self._values[next(iter(self._values))]
        self._values[key] = value
        return value


def _int64_amounts(amounts: Mapping[str, int], where: str) -> Mapping[str, int]:
    """kube-scheduler's amounts as the store's int64 columns take them; checked before anything is changed,
    so that an update is applied whole or not at all (Volcano's float64 amounts always fit)."""
    for name, value in amounts.items():
        if not in_int64(value):
            raise ValueError(f"{where}.{name}: {value} is out of kube-scheduler's int64 range")
    return amounts


class ClusterState:
    """Incrementally updated node state; see the module docstring."""

    def __init__(self) -> None:
        self._store = NodeStore()
        self._contributions: dict[Contribution, Contribution] = {}
        self._memo = Memo(_MEMO_LIMIT * 4)  # bound pods' contributions: one entry per workload shape
        self._rank_memo = Memo()  # incoming pods' requests, kept apart so ranking never evicts the above
        self._filter_cache = FilterCache()
        self._preference_cache = PreferenceCache()  # TaintToleration/NodeAffinity per taint list and label case
        self._node_count = 0
        self._table = PodTable()  # per-pod columns for preemption (issue 10)
        self._pdbs: dict[tuple[str, str], Mapping[str, Any]] = {}
        self._budget_index: BudgetIndex | None = None  # rebuilt after a PDB change
        self._changes = 0  # every node/pod/PDB event; keys the ranking and preemption caches
        self._predictions: KeptResults[tuple[Profile, FastPreemption]] = KeptResults()
        self._rankings: KeptResults[tuple[KubeSchedulerModel | VolcanoModel, Ranking]] = KeptResults()
        self._recent_shapes: KeptResults[bool] = KeptResults(64)  # request shapes ranked lately
        self._releasing: set[tuple[str, str]] = set()  # counted pods Volcano counts as Releasing

    # ---------------------------------------------------------------- properties
    @property
    def node_count(self) -> int:
        """Nodes whose Node object exists (rows held only by early pods are not nodes)."""
        return self._node_count

    @property
    def pod_count(self) -> int:
        """Bound, non-terminal pods currently counted on some node name."""
        return len(self._table)

    @property
    def pod_table(self) -> PodTable:
        """Per-pod columns (priority, start, requests) and nominated pods, for preemption."""
        return self._table

    @property
    def affinity_counts(self) -> AffinityCounts:
        """How many counted pods have pod (anti-)affinity terms that make InterPodAffinity act on other pods."""
        return self._table.affinity.counts()

    @property
    def store(self) -> NodeStore:
        """The columnar store (read-only use: benchmarks, explain)."""
        return self._store

    # ---------------------------------------------------------------- node events
    def apply_node(self, node: Mapping[str, Any]) -> None:
        """Node ADDED/MODIFIED. Raises ValueError (QuantityError) on a bad allocatable quantity, before
        anything is changed."""
        self._changes += 1
        metadata = _section(node, "metadata", "node")
        name = metadata.get("name")
        if not isinstance(name, str) or not name:
            raise ValueError("node: metadata.name is missing")
        spec = _section(node, "spec", f"node {name}")
        status = _section(node, "status", f"node {name}")
        raw_alloc = _section(status, "allocatable", f"node {name}: status")
        images = parse_node_images(status, f"node {name}: status")
        where = f"node {name}: status.allocatable"
        alloc = _int64_amounts(node_allocatable(raw_alloc, where), where)
        # Volcano's allocatable takes the oversubscription annotations too (linter.scoring.oversubscription)
        vc_alloc = volcano_node_allocatable(raw_alloc, oversubscription(metadata.get("annotations")), where)
        raw_taints = spec.get("taints") or []
        if not isinstance(raw_taints, list):
            raise ValueError(f"node {name}: spec.taints must be a list")
        taints: TaintList = tuple(
            (str(t.get("key") or ""), str(t.get("value") or ""), str(t.get("effect") or ""))
            for t in raw_taints
            if isinstance(t, Mapping)
        )
        labels = {str(k): str(v) for k, v in _section(metadata, "labels", f"node {name}: metadata").items()}
        row = self._store.row(name)
        if not self._store.present[row]:
            self._node_count += 1
        self._store.set_node(row, alloc, vc_alloc, spec.get("unschedulable") is True, taints, labels)
        self._store.images.set_row(row, images)

    def delete_node(self, name: str) -> None:
        """Node DELETED. Pods bound to it stay remembered for a re-created node of that name."""
        self._changes += 1
        row = self._store.row_of.get(name)
        if row is None or not self._store.present[row]:
            return
        self._node_count -= 1
        self._store.clear_node(row)

    # ---------------------------------------------------------------- pod events
    def apply_pod(self, pod: Mapping[str, Any]) -> None:
        """Pod ADDED/MODIFIED: (re)count it on its node, or drop it if unbound or terminal.

        A pod with an invalid quantity raises ValueError and leaves the state unchanged.
        """
        self._changes += 1
        key = _pod_key(pod)
        if not is_counted_pod(pod):
            self._forget(key)
            self._table.set_pending(key, pod)
            return
        node_name = str(pod["spec"]["nodeName"])
        try:
            contribution = self._contribution(pod)
        except ValueError as exc:
            raise ValueError("pod {}/{}: {}".format(*key, exc)) from None
        releasing = is_releasing(pod)
        old = self._table.counted(key)
        if old is not None:
            if old[0] == node_name and (old[1] is contribution or old[1] == contribution):
                self._table.put(key, node_name, contribution, pod)  # start time, labels, deletion may change
                if releasing != (key in self._releasing):  # a deletion began (or the phase changed)
                    self._count_releasing(key, self._store.row_of[node_name], old[1], releasing)
                return  # a status-only update: the other sums stay
            self._forget(key)
        row = self._store.row(node_name)
        self._store.add(row, contribution, 1)
        if releasing:
            self._count_releasing(key, row, contribution, True)
        self._table.put(key, node_name, contribution, pod)  # the table holds the node name once

    def delete_pod(self, namespace: str, name: str) -> None:
        """Pod DELETED."""
        self._changes += 1
        self._forget((namespace, name))
        self._table.forget((namespace, name))

    def _forget(self, key: tuple[str, str]) -> None:
        old = self._table.counted(key)  # the caller drops or replaces the table's slot next
        if old is None:
            return
        row = self._store.row_of[old[0]]
        if key in self._releasing:
            self._count_releasing(key, row, old[1], False)
        self._store.add(row, old[1], -1)
        self._store.release_if_unused(row)

    def _count_releasing(self, key: tuple[str, str], row: int, contribution: Contribution, releasing: bool) -> None:
        if releasing:
            self._releasing.add(key)
        else:
            self._releasing.discard(key)
        self._store.add_releasing(row, contribution, 1 if releasing else -1)

    def _contribution(self, pod: Mapping[str, Any]) -> Contribution:
        return self._memo.get("contribution", pod, self._compute_contribution)

    def _compute_contribution(self, pod: Mapping[str, Any]) -> Contribution:
        # an in-place resize counts on the node as the scheduler cache counts it (Volcano: containers only)
        placed = placed_views(pod)
        volcano_pod, pod = placed.volcano, placed.scheduler
        # one pass for the usual pod of plain containers (its Volcano view then reads the same requests)
        views = simple_pod_amounts(pod) if placed.same_containers else None
        if views is None:
            fit = fit_node_contribution(pod)
            actual = {k: v for k, v in actual_request(pod).items() if counted_resource(k)}
            volcano = volcano_request(volcano_pod)
        else:
            fit, actual, volcano = views
        _int64_amounts(fit, "requests")
        _int64_amounts(actual, "requests")
        entries: list[ContributionEntry] = []
        for name in sorted(set(fit) | set(actual) | set(volcano)):
            amounts = (fit.get(name, 0), actual.get(name, 0), volcano.get(name, 0))
            if any(amounts):
                entries.append((self._store.column(name), *amounts))
        entries.sort()
        key = tuple(entries)
        if len(self._contributions) >= _INTERN_LIMIT:  # only sharing is lost; pods keep their own tuples
            self._contributions.clear()
        return self._contributions.setdefault(key, key)

    # ---------------------------------------------------------------- PodDisruptionBudget events
    def apply_pdb(self, pdb: Mapping[str, Any]) -> None:
        """PodDisruptionBudget ADDED/MODIFIED: only what preemption reads is kept."""
        self._changes += 1
        metadata = _section(pdb, "metadata", "poddisruptionbudget")
        key = (str(metadata.get("namespace") or "default"), str(metadata.get("name") or ""))
        spec, status = _section(pdb, "spec", "poddisruptionbudget"), _section(pdb, "status", "poddisruptionbudget")
        self._pdbs[key] = {
            "metadata": {"namespace": key[0], "name": key[1]},
            "spec": {"selector": spec.get("selector")} if "selector" in spec else {},
            "status": {"disruptionsAllowed": status.get("disruptionsAllowed"),
                       "disruptedPods": dict(status.get("disruptedPods") or {})},
        }
        self._budget_index = None

    def delete_pdb(self, namespace: str, name: str) -> None:
        self._changes += 1
        self._pdbs.pop((namespace, name), None)
        self._budget_index = None

    @property
    def pdbs(self) -> list[Mapping[str, Any]]:
        return list(self._pdbs.values())

    # ---------------------------------------------------------------- ranking
    def rank(
        self,
        pod: Mapping[str, Any],
        model: KubeSchedulerModel | VolcanoModel,
        profile: str | None = None,
        top: int = 10,
        *,
        filters: bool = True,
    ) -> Ranking:
        """Score ``pod`` on every feasible node and return the ``top`` best (0 = all).

        With a :class:`KubeSchedulerModel` the profile is ``profile``, else the pod's
        ``spec.schedulerName``, else ``default-scheduler`` (an unknown name raises
        ValueError); the score is that profile's NodeResourcesFit plugin score (0..100,
        before ``Ranking.plugin_weight``). With a :class:`VolcanoModel` it is the binpack
        score (float64, 0..100 x binpack.weight). The order is kube-scheduler's pick: the modelled total
        (Fit, BalancedAllocation, TaintToleration, NodeAffinity after their weights).

        Filters run in kube-scheduler's order (NodeAffinity's PreFilter for pods pinned to
        node names, then NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts,
        NodeResourcesFit; a profile's ``filter_plugins``/``fit_filter_enabled`` narrow that)
        and each infeasible node is counted once, under the first filter that rejects it
        (for NodeResourcesFit: pods, cpu, memory, ephemeral-storage, then scalar resources
        by name). With a :class:`VolcanoModel` the allocate action's checks run instead
        (:mod:`.volcano_filters`) and each node counts under each of its reasons.
        With a :class:`KubeSchedulerModel`, NodePorts and NodeResourcesFit count on each node
        the pending pods nominated to it whose ``spec.priority`` is >= ``pod``'s (not ``pod`` itself) and whose
        ``spec.schedulerName`` is one of the model's profiles, and a node must pass with and without
        them (``RunFilterPluginsWithNominatedPods``); scores never count them.
        ``filters=False`` scores every node (score-only).
        A malformed quantity in ``pod`` raises ValueError naming the field.

        The last few rankings are kept (:mod:`.kept_results`): the same pod shape under the same model,
        with no event in between, gets the same :class:`Ranking` object back. Only pods whose request
        shape was ranked lately are kept, so the third replica of a burst is the first to get one.
        """
        request_shape = self._rank_memo.fingerprint(pod)
        # The whole pod is serialized for the key only once its request shape has come before: a pod with
        # requests of its own then costs nothing more, and a second replica is ranked and kept.
        shape = None
        if self._recent_shapes.get((request_shape,)) is None:
            self._recent_shapes.put((request_shape,), True)
        elif not self._is_known(pod):
            shape = pod_shape_key(pod)
        key = (shape, id(model), profile, top, filters, self._changes)
        hit = self._rankings.get(key) if shape is not None else None
        if hit is not None and hit[0] is model:  # the entry holds the model, so its id is not reused
            return hit[1]
        ranking = rank_pod(self._store, self._rank_memo, self._filter_cache, pod, model, profile, top,
                           filters=filters, pod_table=self._table, request_shape=(request_shape,),
                           preference_cache=self._preference_cache)
        if shape is not None:
            self._rankings.put(key, (model, ranking))
        return ranking

    def preempt(
        self, pod: Mapping[str, Any], profile: Profile, pdbs: Sequence[Mapping[str, Any]] | None = None,
        *, scheduler_names: frozenset[str] | None = None,
    ) -> FastPreemption:
        """kube-scheduler's preemption for ``pod`` under ``profile`` (see :mod:`.preemption`); ``pdbs``
        default to the ones applied with :meth:`apply_pdb`. ``scheduler_names``: the profile names of
        the scheduler config (:attr:`KubeSchedulerModel.scheduler_names`; None: ``profile``'s own), the
        ``schedulerName``s whose nominated pods count."""
        if pdbs is not None:
            return predict_fast(self._store, self._table, self._filter_cache, pod, profile, pdbs, scheduler_names)
        if self._budget_index is None:
            self._budget_index = BudgetIndex([budget_of(p) for p in self._pdbs.values()])
        shape = None if self._is_known(pod) else pod_shape_key(pod)
        key = (shape, id(profile), scheduler_names, self._changes)
        hit = self._predictions.get(key) if shape is not None else None
        if hit is not None and hit[0] is profile:  # the entry holds the profile, so its id is not reused
            return hit[1]
        found = predict_fast(self._store, self._table, self._filter_cache, pod, profile, self._budget_index,
                             scheduler_names)
        if shape is not None:
            self._predictions.put(key, (profile, found))
        return found

    def prepare_preemption(self) -> None:
        """Sort the pods into the preemption twin's per-node order now (it is kept up to date from then
        on), so that the first pod that fits nowhere does not pay for it; see :mod:`.importance`."""
        self._table.importance.current(self._table)

    def tracks_pod(self, namespace: str, name: str) -> bool:
        """The pod is in the state: counted on a node, or pending and nominated to one."""
        key = (namespace, name)
        return key in self._table.slot_of or key in self._table.nominated

    def tracked_pod_keys(self) -> Iterator[tuple[str, str]]:
        """The (namespace, name) of every pod :meth:`tracks_pod` is true for."""
        yield from self._table.slot_of
        yield from self._table.nominated

    def tracked_pod_count(self) -> int:
        return len(self._table.slot_of) + len(self._table.nominated)

    def _is_known(self, pod: Mapping[str, Any]) -> bool:
        """The pod itself is in the state (bound or nominated): its own name then matters."""
        return self.tracks_pod(*_pod_key(pod))


def _section(obj: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
    """``obj[key]`` as a mapping (absent/null = empty); anything else is a one-line ValueError."""
    value = obj.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: {key} must be a mapping, got {type(value).__name__}")
    return value


def _pod_key(pod: Mapping[str, Any]) -> tuple[str, str]:
    metadata = _section(pod, "metadata", "pod")
    return (sys.intern(str(metadata.get("namespace") or "default")), str(metadata.get("name") or ""))
