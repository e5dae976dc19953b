"""kube-scheduler's cheap filters over every node row at once, first failing filter per node.

Order as in the default profile (and :mod:`linter.scoring.feasibility`): NodeAffinity's
PreFilter (a pod pinned to node names by ``matchFields``), then NodeUnschedulable,
NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit. The framework stops at the
first filter that rejects a node, so each infeasible node gets that one filter's reasons:
one, except for NodeResourcesFit, which lists every shortage (pods count, cpu, memory,
ephemeral-storage, then scalar resources by name) and so counts under each of them, as in
kube-scheduler's "0/N nodes are available" histogram.

Label and taint filters are decided by the scalar functions of
:mod:`linter.scoring.feasibility`, called once per *distinct* case instead of once per node:
once per distinct taint list, and once per distinct combination of the values of the label
keys the pod's selector mentions. NodeResourcesFit is plain column arithmetic. NodePorts runs only
for a pod with host ports, over the few nodes where some pod holds one
(:class:`~linter.scoring.cluster.ports.PortUse`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from linter.model import FitArgs, Profile
from linter.scoring import feasibility
from linter.scoring.cluster.nominated import NominatedLoad
from linter.scoring.cluster.ports import PortUse
from linter.scoring.cluster.store import BoolArray, Int32Array, Int64Array, NodeStore
from linter.scoring.hostports import REASON_NODE_PORTS, host_ports
from linter.scoring.requests import is_extended_resource, is_scalar_resource

_CACHE_LIMIT = 1024
NOT_A_NODE = ""  # the text of rows rejected for not being a node (no filter's text is empty)
_FIT = "NodeResourcesFit"  # the group of NodeResourcesFit's texts: a node counts under every shortage
_MAX_RADIX_PRODUCT = 2**62


class FilterCache:
    """Per-pod-shape results of the label/taint filters, invalidated by ``NodeStore.version``."""

    def __init__(self) -> None:
        self.taints: dict[str, list[str | None]] = {}
        self.affinity: dict[str, tuple[int, BoolArray, str | None]] = {}
        # The rows each taint text rejects, per tolerations: valid while ``NodeStore.version`` is unchanged
        # (a node's taint list, and any new one, changes it). Never written to once made.
        self.taint_masks: dict[str, tuple[int, list[tuple[BoolArray, str]]]] = {}

    def trim(self) -> None:
        if len(self.taints) > _CACHE_LIMIT:
            self.taints.clear()
        if len(self.taint_masks) > _CACHE_LIMIT:
            self.taint_masks.clear()
        if len(self.affinity) > _CACHE_LIMIT:
            self.affinity.clear()


class Reasons:
    """The first filter that rejects each row: the rows left feasible, and (worked out only when asked)
    per-text row counts and a code per row (0 = feasible, code i = ``texts[i - 1]``, the filter's first
    text). Texts rejected under one ``group`` are one filter's: a row it rejects counts under each of
    its texts that fails it (Go's ``Diagnosis`` counts every reason of a node's status).

    Each :meth:`reject` costs one pass over the rows; which filter rejected a row *first* is only
    needed when a pod fits nowhere or for a report, so it is computed from the kept masks on demand.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._rejected: list[tuple[BoolArray, str, str | None]] = []  # (failing rows, text, group), in filter order
        self._infeasible: BoolArray | None = None  # rows some filter rejected; None = none yet
        self._owned = False  # whether _infeasible is ours to update in place
        self._first: tuple[list[str], list[int], list[tuple[BoolArray, int]]] | None = None

    def reject(self, failing: BoolArray, text: str, group: str | None = None) -> None:
        """``failing`` is kept, not copied: it must not change afterwards (no view of a store column).
        Consecutive calls with the same ``group`` are the texts of one filter (None: a filter of its own)."""
        self._rejected.append((failing, text, group))
        self._first = None
        if self._infeasible is None:
            self._infeasible = failing  # a caller's (possibly cached) mask: never written to
        elif self._owned:
            self._infeasible |= failing
        else:
            self._infeasible = self._infeasible | failing
            self._owned = True

    @property
    def infeasible(self) -> BoolArray:
        """Rows some filter rejected (do not modify)."""
        return np.zeros(self.size, np.bool_) if self._infeasible is None else self._infeasible

    @property
    def feasible(self) -> BoolArray:
        """Rows no filter rejected."""
        return np.ones(self.size, np.bool_) if self._infeasible is None else ~self._infeasible

    def feasible_count(self) -> int:
        return self.size - (0 if self._infeasible is None else int(np.count_nonzero(self._infeasible)))

    def _firsts(self) -> tuple[list[str], list[int], list[tuple[BoolArray, int]]]:
        """Texts in the order they first rejected a row, their row counts, and the rows each reject call
        was the first to reject (disjoint masks) with the text's code."""
        if self._first is None:
            texts: list[str] = []
            counts: list[int] = []
            index: dict[str, int] = {}
            newly_rejected: list[tuple[BoolArray, int]] = []
            still_open: BoolArray | None = None  # rows no earlier text rejected
            group_open: BoolArray | None = None  # rows no earlier filter rejected
            group: object = None
            for failing, text, in_group in self._rejected:
                if in_group is None or in_group != group:
                    group_open, group = still_open, in_group
                counted = failing if group_open is None else failing & group_open
                count = int(np.count_nonzero(counted))
                if not count:
                    continue
                code = index.get(text)
                if code is None:
                    texts.append(text)
                    counts.append(0)
                    code = index[text] = len(texts)
                counts[code - 1] += count
                newly = counted if still_open is None else counted & still_open
                if not np.count_nonzero(newly):
                    continue
                newly_rejected.append((newly, code))
                still_open = ~newly if still_open is None else still_open & ~newly
            self._first = (texts, counts, newly_rejected)
        return self._first

    @property
    def texts(self) -> list[str]:
        return self._firsts()[0]

    @property
    def counts(self) -> list[int]:
        """Rows (present or not) per text."""
        return self._firsts()[1]

    def codes(self) -> Int32Array:
        codes: Int32Array = np.zeros(self.size, np.int32)
        for rows, code in self._firsts()[2]:  # disjoint masks: each row was rejected once
            np.putmask(codes, rows, code)
        return codes


def _spec(pod: Mapping[str, Any]) -> Mapping[str, Any]:
    spec = pod.get("spec")
    return spec if isinstance(spec, Mapping) else {}


def enabled_filters(profile: Profile) -> tuple[str, ...]:
    """The modelled filters ``profile`` runs (:func:`~linter.scoring.feasibility.profile_filters`)."""
    return _profile_filters(profile.filter_plugins, profile.fit_filter_enabled, profile.pre_filter_plugins)


_profile_filters = lru_cache(maxsize=64)(feasibility.profile_filters)  # once per profile, not per ranking


def run_filters(
    store: NodeStore,
    cache: FilterCache,
    pod: Mapping[str, Any],
    pod_actual: Mapping[str, int],
    fit_args: FitArgs,
    plugins: Sequence[str] = feasibility.DEFAULT_FILTERS,
    *,
    not_nodes: BoolArray | None = None,
    nominated: NominatedLoad | None = None,
    ports: PortUse | None = None,
) -> Reasons:
    """Which filter rejects each row first (see :class:`Reasons`); ``not_nodes`` (rows that are no node)
    are rejected before any filter, as :data:`NOT_A_NODE`. ``nominated``: the nominated pods that count
    for the pod (:func:`~linter.scoring.cluster.nominated.nominated_load`), whose host ports NodePorts and
    whose requests NodeResourcesFit add. ``ports``: the bound pods' host ports (None: NodePorts is not run)."""
    cache.trim()
    reasons = Reasons(store.size)
    if not_nodes is not None:
        reasons.reject(not_nodes, NOT_A_NODE)
    if feasibility.NODE_AFFINITY_PREFILTER in plugins:
        _affinity_prefilter(store, pod, reasons)
    for plugin in plugins:
        if plugin == "NodeUnschedulable":
            cordoned = store.unschedulable[: store.size]
            if np.count_nonzero(cordoned):
                text = feasibility.node_unschedulable(pod, {"spec": {"unschedulable": True}})
                if text is not None:  # a copy: the reasons may be read after the caller lets the store change
                    reasons.reject(cordoned.copy(), text)
        elif plugin == "NodeName":
            _node_name(store, pod, reasons)
        elif plugin == "TaintToleration":
            _taints(store, cache, pod, reasons)
        elif plugin == "NodeAffinity":
            _affinity(store, cache, pod, reasons)
        elif plugin == "NodePorts" and ports is not None:
            wanted = host_ports(pod)
            failing = ports.failing_rows(store, wanted, nominated.ports if nominated else None) if wanted else None
            if failing is not None:
                reasons.reject(failing, REASON_NODE_PORTS)
        elif plugin == "NodeResourcesFit":
            _fit(store, pod_actual, fit_args, reasons, nominated)
    return reasons


def _affinity_prefilter(store: NodeStore, pod: Mapping[str, Any], reasons: Reasons) -> None:
    """NodeAffinity's PreFilter: a pod pinned to node names rejects every other node up front."""
    pinned = feasibility.node_affinity_prefilter(pod)
    if pinned is None:
        return
    failing = np.ones(store.size, np.bool_)
    if not pinned:
        reasons.reject(failing, feasibility.REASON_AFFINITY_CONFLICT)
        return
    for name in pinned:
        row = store.row_of.get(name)
        if row is not None:
            failing[row] = False
    reasons.reject(failing, feasibility.REASON_PREFILTER_NODE_AFFINITY)


def _node_name(store: NodeStore, pod: Mapping[str, Any], reasons: Reasons) -> None:
    wanted = _spec(pod).get("nodeName")
    if not wanted:
        return
    text = feasibility.node_name(pod, {"metadata": {"name": None}})
    if text is None:
        return
    failing = np.ones(store.size, np.bool_)
    row = store.row_of.get(str(wanted))
    if row is not None:
        failing[row] = False
    reasons.reject(failing, text)


def _taints(store: NodeStore, cache: FilterCache, pod: Mapping[str, Any], reasons: Reasons) -> None:
    for rows, text in taint_failures(store, cache, pod):
        reasons.reject(rows, text)


def taint_failures(store: NodeStore, cache: FilterCache, pod: Mapping[str, Any]) -> list[tuple[BoolArray, str]]:
    """TaintToleration's failing rows per reason text (cached: do not modify them)."""
    if len(store.taint_lists) == 1:
        return []  # no node has ever had a taint
    key = repr(_spec(pod).get("tolerations"))
    masks = cache.taint_masks.get(key)
    if masks is None or masks[0] != store.version:
        results = cache.taints.setdefault(key, [])
        for taints in store.taint_lists[len(results) :]:
            node = {"spec": {"taints": [{"key": k, "value": v, "effect": e} for k, v, e in taints]}}
            results.append(feasibility.taint_toleration(pod, node))
        failing = []
        for text in {t for t in results if t is not None}:
            failing_ids = np.array([r == text for r in results], np.bool_)
            failing.append((failing_ids[store.taint_id[: store.size]], text))
        masks = cache.taint_masks[key] = (store.version, failing)
    return masks[1]


def _selector_keys(pod: Mapping[str, Any]) -> tuple[list[str], bool] | None:
    """Label keys the pod's node selection reads, and whether it reads fields; None = no selection."""
    spec = _spec(pod)
    selector = spec.get("nodeSelector")
    affinity = spec.get("affinity")
    required: Any = None
    if isinstance(affinity, Mapping) and isinstance(affinity.get("nodeAffinity"), Mapping):
        required = affinity["nodeAffinity"].get("requiredDuringSchedulingIgnoredDuringExecution")
    if not isinstance(selector, Mapping) and not isinstance(required, Mapping):
        return None
    keys = {str(k) for k in selector} if isinstance(selector, Mapping) else set()
    uses_fields = False
    terms = required.get("nodeSelectorTerms") if isinstance(required, Mapping) else None
    for term in terms if isinstance(terms, list) else ():
        if not isinstance(term, Mapping):
            continue
        for expr in term.get("matchExpressions") or ():
            if isinstance(expr, Mapping) and isinstance(expr.get("key"), str):
                keys.add(expr["key"])
        uses_fields = uses_fields or bool(term.get("matchFields"))
    return sorted(keys), uses_fields


def _affinity(store: NodeStore, cache: FilterCache, pod: Mapping[str, Any], reasons: Reasons) -> None:
    found = affinity_failure(store, cache, pod, lambda: reasons.feasible)
    if found is not None:
        reasons.reject(*found)


def affinity_failure(store: NodeStore, cache: FilterCache, pod: Mapping[str, Any],
                     open_rows: Callable[[], BoolArray]) -> tuple[BoolArray, str] | None:
    """NodeAffinity's failing rows and text (cached: do not modify the rows), or None when none fails.
    ``open_rows()``: the rows whose verdict still matters; where every node is its own case (asked only
    then) only they are evaluated, and the others may be left passing."""
    selection = _selector_keys(pod)
    if selection is None:
        return None
    keys, uses_fields = selection
    if uses_fields:
        # matchFields reads the node name, so every node is its own case: evaluate only the
        # nodes no earlier filter (e.g. the PreFilter's pinned names) has already rejected.
        candidates = np.flatnonzero(store.present[: store.size] & open_rows())
        failing, text = _evaluate_affinity(store, pod, keys, candidates)
        return None if text is None else (failing, text)
    spec = _spec(pod)
    affinity = spec.get("affinity")
    key = repr((spec.get("nodeSelector"), affinity.get("nodeAffinity") if isinstance(affinity, Mapping) else None))
    hit = cache.affinity.get(key)
    if hit is None or hit[0] != store.version:
        failing, text = _evaluate_affinity(store, pod, keys, None)
        hit = (store.version, failing, text)
        cache.affinity[key] = hit
    return None if hit[2] is None else (hit[1], hit[2])


def _evaluate_affinity(
    store: NodeStore, pod: Mapping[str, Any], keys: list[str], by_name: Int64Array | None
) -> tuple[BoolArray, str | None]:
    """Rows failing NodeAffinity: per node in ``by_name`` if given, else per distinct label values."""
    rows = store.present_rows()
    failing = np.zeros(store.size, np.bool_)
    text: str | None = None
    if by_name is not None:
        for row in by_name:
            labels = row_labels_for(store, row, keys)
            got = feasibility.node_affinity(pod, {"metadata": {"name": store.row_names[row], "labels": labels}})
            failing[row] = got is not None
            text = got or text
        return failing, text
    group_of, representatives = label_groups(store, rows, keys)
    group_fails = np.zeros(len(representatives), np.bool_)
    for g, row in enumerate(representatives):
        got = feasibility.node_affinity(pod, {"metadata": {"labels": row_labels_for(store, row, keys)}})
        group_fails[g] = got is not None
        text = got or text
    failing[rows] = group_fails[group_of]
    return failing, text


def row_labels_for(store: NodeStore, row: int, keys: list[str]) -> dict[str, str]:
    """The row's labels whose key is one of ``keys`` (in the node's order): all a selector over ``keys`` reads,
    so one evaluation stands for every row of its :func:`label_groups` group."""
    return {k: v for k, v in store.row_labels[row].items() if k in keys}


def label_groups(store: NodeStore, rows: Int64Array, keys: list[str]) -> tuple[Int64Array, list[int]]:
    """Group ``rows`` by their values for ``keys``: (group index per row, one row per group)."""
    if rows.size == 0:
        return np.zeros(0, np.int64), []
    columns = [store.label_columns.get(k) for k in keys]
    combined = np.zeros(rows.size, np.int64)
    multiplier = 1
    for k, col in zip(keys, columns, strict=True):
        if col is None:
            continue  # no node has this key: it does not split anything
        radix = len(store.label_values[k]) + 1
        if multiplier * radix >= _MAX_RADIX_PRODUCT:
            stacked = np.stack([c[rows] for c in columns if c is not None])
            _, first, inverse = np.unique(stacked, axis=1, return_index=True, return_inverse=True)
            return inverse.reshape(-1).astype(np.int64), [int(rows[i]) for i in first]
        combined += (col[rows].astype(np.int64) + 1) * multiplier
        multiplier *= radix
    _, first, inverse = np.unique(combined, return_index=True, return_inverse=True)
    return inverse.astype(np.int64), [int(rows[i]) for i in first]


def _fit(
    store: NodeStore, pod_actual: Mapping[str, int], fit_args: FitArgs, reasons: Reasons,
    nominated: NominatedLoad | None = None,
) -> None:
    """NodeResourcesFit ``fitsRequest`` on the actual requests, vectorized (texts from the scalar model).

    With ``nominated``, a row that has nominated pods is checked first with them; when that passes, the
    check without them (the plain one) decides, as ``RunFilterPluginsWithNominatedPods`` runs the filters
    twice. Each text's failing rows are patched on those rows only."""
    n = store.size
    names: list[tuple[str, int, int | None]] = []  # resource, request, store column
    scalars = sorted(n for n in pod_actual if is_scalar_resource(n))
    for name in ["cpu", "memory", "ephemeral-storage", *scalars]:
        want = pod_actual.get(name, 0)
        if want <= 0 and (name in ("cpu", "memory", "ephemeral-storage") or want == 0):
            continue
        if is_extended_resource(name) and (
            name in fit_args.ignored_resources or name.split("/")[0] in fit_args.ignored_resource_groups
        ):
            continue
        names.append((name, want, store.resource_index.get(name)))
    full = store.pods_full[:n]  # count + 1 > allowed, kept by the store
    # a copy: the reasons may be read after the caller lets the store change
    too_many = full.copy() if nominated is not None or np.count_nonzero(full) else None
    checks: list[tuple[BoolArray, str]] = []
    for name, want, col in names:
        # act_free: alloc - act_req, kept by the store
        failing = np.full(n, want > 0, np.bool_) if col is None else want > store.act_free[col, :n]
        checks.append((failing, _insufficient(name)))
    if nominated is not None:
        assert too_many is not None
        _with_nominated(store, nominated, names, [(too_many, feasibility.REASON_TOO_MANY_PODS), *checks])
        if not np.count_nonzero(too_many):
            too_many = None
    if too_many is not None:
        reasons.reject(too_many, feasibility.REASON_TOO_MANY_PODS, _FIT)
    for failing, text in checks:
        reasons.reject(failing, text, _FIT)


def _with_nominated(
    store: NodeStore, load: NominatedLoad, names: list[tuple[str, int, int | None]],
    checks: list[tuple[BoolArray, str]],
) -> None:
    """Patch the rows of ``load``: where the check with their nominated pods fails, its results replace
    the plain ones (``checks``, in the same order: pods count, then ``names``)."""
    rows = load.rows
    pods_col = store.resource_index.get("pods")
    allowed = store.alloc[pods_col, rows] if pods_col is not None else np.zeros(rows.size, np.int64)
    with_them = [store.pod_count[rows] + load.pods + 1 > allowed]
    for name, want, col in names:
        free = store.act_free[col, rows] if col is not None else np.zeros(rows.size, np.int64)
        extra = load.requests.get(name)
        with_them.append(want > (free - extra if extra is not None else free))
    fails = np.logical_or.reduce(with_them)
    for (failing, _text), failing_with in zip(checks, with_them, strict=True):
        failing[rows] = np.where(fails, failing_with, failing[rows])


@lru_cache(maxsize=256)
def _insufficient(resource: str) -> str:
    """The scalar filter's text for ``resource`` (asked with one unit short on an empty node)."""
    return feasibility.fit_filter({resource: 1}, 0, {}, {"pods": 1})[0]
