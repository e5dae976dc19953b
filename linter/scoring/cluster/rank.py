"""Ranking one pod against every node of a :class:`~linter.scoring.cluster.store.NodeStore`.

Steps: resolve the scorer (a kube-scheduler profile's NodeResourcesFit args or Volcano's
binpack), run the filters (:mod:`linter.scoring.cluster.filters`; for kube-scheduler counting the
pods nominated to a node, :mod:`linter.scoring.cluster.nominated`; for Volcano its allocate action's
checks, :mod:`linter.scoring.cluster.volcano_filters`) to get the feasible rows and the reasons of the
infeasible ones, score all rows at once
(:mod:`linter.scoring.cluster.scores`) and pick the top K, best first, ties by node name. For kube-scheduler
"best" is the modelled total, NodeResourcesFit, BalancedAllocation (:mod:`linter.scoring.cluster.balanced`),
TaintToleration and NodeAffinity (:mod:`linter.scoring.cluster.preferences`) and ImageLocality
(:mod:`linter.scoring.cluster.images`) after their profile weights, as explain's ``total``: the scheduler picks
the best sum.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, cast

import numpy as np

from linter.model import BalancedArgs, FitArgs, KubeSchedulerModel, Profile, VolcanoModel
from linter.scoring import feasibility
from linter.scoring.cluster.balanced import balanced_scores, bounded_balanced_scores, skips_pod
from linter.scoring.cluster.filters import NOT_A_NODE, FilterCache, Reasons, enabled_filters, run_filters
from linter.scoring.cluster.images import image_locality_totals
from linter.scoring.cluster.nominated import nominated_load
from linter.scoring.cluster.podtable import PodTable
from linter.scoring.cluster.preferences import PreferenceCache, preference_totals
from linter.scoring.cluster.scores import FloatArray, binpack_scores, fit_scores
from linter.scoring.cluster.store import BoolArray, Int64Array, NodeStore
from linter.scoring.cluster.volcano_filters import run_volcano_filters, short_of_idle
from linter.scoring.nominated import scheduler_name_of
from linter.scoring.requests import actual_request, fit_score_request, volcano_request
from linter.scoring.sampling import profile_nodes_to_find, volcano_nodes_to_find
from linter.scoring.strategies import MAX_NODE_SCORE
from linter.scoring.volcano import node_order_binpack

ENGINE_FIT = "k8s-fit"
ENGINE_VOLCANO = "volcano-binpack"
VOLCANO_PROFILE = "volcano"

T = TypeVar("T")


class PodMemo(Protocol):
    def fingerprint(self, pod: Mapping[str, Any]) -> str | None: ...

    def lookup(
        self, kind: str, fingerprint: str | None, pod: Mapping[str, Any], compute: Callable[[Mapping[str, Any]], T]
    ) -> T: ...


_DEFAULT_FIT_FILTER = FitArgs()


@dataclass(frozen=True)
class Ranking:
    """Result of :meth:`ClusterState.rank`.

    ``scores`` holds the top-K feasible nodes, best first (kube-scheduler: by the modelled total, Fit,
    BalancedAllocation, TaintToleration, NodeAffinity and ImageLocality after their weights; Volcano: the nodes
    whose Idle fits the pod before those that fit it only with the Releasing pods' room, as ``prioritizeNodes``
    picks), ties by node name, with the
    plugin's own score: NodeResourcesFit 0..100 *before* the profile weight
    (``plugin_weight``), or Volcano's binpack value (already on the 0..100 x binpack.weight
    scale Volcano adds to the node order; ``plugin_weight`` is binpack.weight).
    ``reason_counts`` counts infeasible nodes by the texts of the first filter that
    rejected them: one per node, except that NodeResourcesFit counts a node under each of
    its shortages, as kube-scheduler's message does. For Volcano it is the histogram of its
    ``FitErrors``: each node under each of its reasons (:mod:`.volcano_filters`).
    ``nodes_to_find``: the scheduler scores only the first this many feasible nodes it
    finds (:mod:`linter.scoring.sampling`); below ``feasible_nodes``, ``best_node`` is its pick only if it
    is among them.
    """

    engine: str
    profile: str
    strategy: str | None
    plugin_weight: int | float
    total_nodes: int
    feasible_nodes: int
    scores: tuple[tuple[str, int | float], ...]
    reason_counts: Mapping[str, int] = field(default_factory=dict)
    best_node: str | None = None
    # how many feasible nodes the scheduler finds before it stops filtering (linter.scoring.sampling);
    # None when the filters were not run
    nodes_to_find: int | None = None


def _volcano_scores(
    store: NodeStore, memo: PodMemo, shape: str | None, pod: Mapping[str, Any], model: VolcanoModel
) -> tuple[FloatArray, int]:
    """The float64 sum of binpack's node-order calls (:func:`~linter.scoring.volcano.node_order_binpack`)."""
    registered, calls = node_order_binpack(model.binpack)
    total = np.zeros(store.size, np.float64)
    if registered is None or calls == 0:
        return total, 0
    task = memo.lookup("volcano", shape, pod, volcano_request)
    one = binpack_scores(store, registered, task)
    for _ in range(calls):
        total = total + one
    return total, registered.weight


def rank_pod(
    store: NodeStore,
    memo: PodMemo,
    filter_cache: FilterCache,
    pod: Mapping[str, Any],
    model: KubeSchedulerModel | VolcanoModel,
    profile: str | None,
    top: int,
    *,
    filters: bool,
    pod_table: PodTable | None = None,
    request_shape: tuple[str | None] | None = None,
    preference_cache: PreferenceCache | None = None,
) -> Ranking:
    """See :meth:`linter.scoring.cluster.state.ClusterState.rank`; ``pod_table`` holds the nominated pods
    kube-scheduler's filters count (Volcano's do not); ``request_shape``: ``(memo.fingerprint(pod),)`` when
    the caller has it already; ``preference_cache``: the TaintToleration/NodeAffinity cache kept with
    ``store`` (None: a new one)."""
    if top < 0:
        raise ValueError(f"top must be >= 0, got {top}")
    fit_filter = _DEFAULT_FIT_FILTER
    # the pod's request shape, computed once for every memo lookup below
    shape = memo.fingerprint(pod) if request_shape is None else request_shape[0]
    plugins: tuple[str, ...] = feasibility.DEFAULT_FILTERS
    scores: Int64Array | FloatArray
    in_range = False  # scores known to lie in 0..100
    totals: Int64Array | FloatArray | None = None  # the order by the modelled total, when it is not the score's
    largest: int | None = None  # a known bound on the order's values (0 .. largest), when there is one
    balanced_args: BalancedArgs | None = None  # BalancedAllocation adds to the total (kube-scheduler)
    balanced_weight = fit_weight = 0
    kube_profile: Profile | None = None  # the kube-scheduler profile ranked under
    if isinstance(model, VolcanoModel):
        engine, strategy = ENGINE_VOLCANO, ("binpack" if model.binpack else None)  # as explain names it
        profile_name = profile or VOLCANO_PROFILE
        scores, weight = _volcano_scores(store, memo, shape, pod, model)
        plugin_weight: int | float = weight
    else:
        engine = ENGINE_FIT
        profile_name = profile or scheduler_name_of(pod)
        prof = kube_profile = model.profile(profile_name)
        if prof is None:
            known = ", ".join(p.scheduler_name for p in model.profiles) or "none"
            raise ValueError(f"scheduler model has no profile {profile_name!r} (profiles: {known})")
        plugins = enabled_filters(prof)
        fit_filter = prof.built_fit or fit_filter
        if prof.fit is None:
            strategy, plugin_weight = None, 0
            scores, in_range = np.zeros(store.size, np.int64), True
        else:
            strategy, plugin_weight = prof.fit.strategy, prof.fit_weight
            scores, in_range = fit_scores(store, prof.fit, memo.lookup("fit-score", shape, pod, fit_score_request))
        if prof.balanced is not None and prof.balanced_weight:
            balanced_args, balanced_weight = prof.balanced, prof.balanced_weight
            fit_weight = prof.fit_weight if prof.fit is not None else 0
    total_nodes = store.present_count()
    all_present = total_nodes == store.size  # the usual case: no row is held only by early pods
    reason_counts: Mapping[str, int]
    if filters:
        pod_actual = memo.lookup("actual", shape, pod, actual_request)  # also checks every quantity
        # rows held only by pods bound to a missing node are not nodes: rejected before any filter
        not_nodes = None if all_present else ~store.present[: store.size]
        nominated = None
        if isinstance(model, KubeSchedulerModel) and pod_table is not None and (
                "NodeResourcesFit" in plugins or "NodePorts" in plugins):
            nominated = nominated_load(store, pod_table, pod, model.scheduler_names)
        ports = pod_table.ports if pod_table is not None else None
        if isinstance(model, VolcanoModel):  # the allocate action's checks (linter.scoring.volcano_feasibility)
            task = memo.lookup("volcano", shape, pod, volcano_request)
            reasons = run_volcano_filters(store, filter_cache, pod, task, model.predicates, not_nodes=not_nodes,
                                          ports=ports)
        else:
            reasons = run_filters(store, filter_cache, pod, pod_actual, fit_filter, plugins, not_nodes=not_nodes,
                                  nominated=nominated, ports=ports)
        reason_counts = _ReasonCounts(reasons)
        infeasible, feasible_count = reasons.infeasible, reasons.feasible_count()
    else:
        infeasible, feasible_count = ~store.present[: store.size], total_nodes
        reason_counts = {}
    if balanced_args is not None:  # kube-scheduler picks the best sum of weighted scores, as explain's total
        pod_actual = memo.lookup("actual", shape, pod, actual_request)
        if not skips_pod(balanced_args, pod_actual):
            bounded = _bounded_totals(store, feasible_count, scores, in_range, fit_weight, balanced_args,
                                      balanced_weight, pod_actual)
            if bounded is not None:
                totals, largest = bounded
            else:
                totals = _totals(store, infeasible, feasible_count, scores, fit_weight, balanced_args,
                                 balanced_weight, pod_actual)
    if kube_profile is not None:  # TaintToleration, NodeAffinity, ImageLocality, when they tell nodes apart
        preferences = preference_totals(store, preference_cache or PreferenceCache(), pod, kube_profile,
                                        infeasible)
        images = image_locality_totals(store.images, store.size, total_nodes, pod, kube_profile)
        if images is not None:
            preferences = images if preferences is None else preferences + images
        if preferences is not None:
            totals, largest = _with_preferences(store, kube_profile, scores, totals, largest, preferences)
    if totals is not None and largest is not None:
        chosen = _top_rows_by_key(store, infeasible, feasible_count, totals, top, largest)
    elif totals is not None:
        if _keyable_scores(totals, store.size):
            chosen = _top_rows_by_key(store, infeasible, feasible_count, totals, top, None)
        else:
            chosen = _top_rows(store, np.flatnonzero(~infeasible), totals, top)
    elif engine == ENGINE_FIT and (in_range or _keyable_scores(scores, store.size)):
        chosen = _top_rows_by_key(store, infeasible, feasible_count, scores, top, MAX_NODE_SCORE if in_range else None)
    elif isinstance(model, VolcanoModel) and filters:
        chosen = _volcano_top_rows(store, infeasible, scores, top, memo.lookup("volcano", shape, pod, volcano_request))
    else:
        chosen = _top_rows(store, np.flatnonzero(~infeasible), scores, top)
    as_py: Callable[[Any], int | float] = float if engine == ENGINE_VOLCANO else int
    nodes_to_find = None
    if filters and kube_profile is not None:
        nodes_to_find = profile_nodes_to_find(kube_profile, pod, plugins, total_nodes, store.is_present_node)
    elif filters:
        nodes_to_find = volcano_nodes_to_find(total_nodes)
    names = cast("list[str]", store.row_names)  # a chosen row is a present node's: it has a name
    ranked = tuple(zip(map(names.__getitem__, chosen), map(as_py, scores[chosen].tolist()), strict=True))
    return Ranking(
        engine=engine,
        profile=profile_name,
        strategy=strategy,
        plugin_weight=plugin_weight,
        total_nodes=total_nodes,
        feasible_nodes=feasible_count,
        scores=ranked,
        reason_counts=reason_counts,
        best_node=ranked[0][0] if ranked else None,
        nodes_to_find=nodes_to_find,
    )


def _volcano_top_rows(store: NodeStore, infeasible: BoolArray, scores: Int64Array | FloatArray, top: int,
                      task: Mapping[str, float]) -> list[int]:
    """:func:`_top_rows` in the order of Volcano's ``prioritizeNodes``: the feasible rows whose Idle the task
    fits come first (Volcano picks among them), then the ones it fits only with the Releasing pods' room."""
    feasible = np.flatnonzero(~infeasible)
    chosen = _top_rows(store, feasible, scores, top)
    # the usual case: the best rows all fit their Idle, so they are the best of those rows too
    if top and len(chosen) == top and short_of_idle(store, task, np.array(chosen, np.int64)).size == 0:
        return chosen
    short = short_of_idle(store, task, feasible)
    if short.size == 0:
        return chosen
    chosen = _top_rows(store, np.setdiff1d(feasible, short, assume_unique=True), scores, top)
    if top == 0 or len(chosen) < top:
        chosen += _top_rows(store, short, scores, top - len(chosen) if top else 0)
    return chosen


# Below this share of feasible rows, BalancedAllocation is worked out on the feasible rows alone: picking
# them out costs more than it saves when most rows fit.
_FEW_FEASIBLE = 8


def _totals(store: NodeStore, infeasible: BoolArray, feasible: int, scores: Int64Array | FloatArray,
            fit_weight: int, args: BalancedArgs, balanced_weight: int,
            pod_actual: Mapping[str, int]) -> Int64Array | None:
    """Fit's and BalancedAllocation's scores after their weights, per row (infeasible rows: any value), or
    None when BalancedAllocation skips the pod."""
    rows = np.flatnonzero(~infeasible) if feasible * _FEW_FEASIBLE < store.size else None
    balanced = balanced_scores(store, args, pod_actual, rows)
    if balanced is None:
        return None
    with np.errstate(over="ignore"):
        totals: Int64Array = (scores.astype(np.int64, copy=False) * np.int64(fit_weight) if fit_weight
                              else np.zeros(store.size, np.int64))
        weighted = balanced * np.int64(balanced_weight)
        if rows is None:
            totals = totals + weighted
        else:
            totals[rows] += weighted
    return totals


def _bounded_totals(store: NodeStore, feasible: int, scores: Int64Array | FloatArray, in_range: bool,
                    fit_weight: int, args: BalancedArgs, balanced_weight: int,
                    pod_actual: Mapping[str, int]) -> tuple[FloatArray, int] | None:
    """The totals of :func:`_totals` as float64 whole numbers in the store's work buffer 5, and their upper
    bound (they are at least 0), in the usual case: Fit's scores in 0..100, BalancedAllocation's known to
    be 50..100 (:func:`~linter.scoring.cluster.balanced.bounded_balanced_scores`), weights >= 0, most rows
    feasible. Every value is then a small whole number, exact in float64, and needs no pass to find its
    range. None when that case does not hold."""
    if not in_range or fit_weight < 0 or balanced_weight <= 0 or feasible * _FEW_FEASIBLE < store.size:
        return None
    largest = MAX_NODE_SCORE * (fit_weight + balanced_weight)
    if (largest + 1) * max(store.size, 1) >= _KEY_RANGE_LIMIT:
        return None
    balanced = bounded_balanced_scores(store, args, pod_actual)
    if balanced is None:
        return None
    totals = balanced  # the work buffer bounded_balanced_scores returns, summed into in place
    if balanced_weight != 1:
        totals *= float(balanced_weight)
    if fit_weight == 1:
        totals += scores
    elif fit_weight:
        totals += scores * float(fit_weight)
    return totals, largest


def _with_preferences(store: NodeStore, prof: Profile, scores: Int64Array | FloatArray,
                      totals: Int64Array | FloatArray | None, largest: int | None,
                      preferences: Int64Array) -> tuple[Int64Array | FloatArray, int | None]:
    """The order's totals with TaintToleration's, NodeAffinity's and ImageLocality's weighted scores added, and
    their bound (kept only while every weight is >= 0 and the sort key stays exact)."""
    if totals is None:  # Fit alone so far: its score after its weight
        fit_weight = prof.fit_weight if prof.fit is not None else 0
        return scores.astype(np.int64) * np.int64(fit_weight) + preferences, None
    if largest is None:
        return totals + preferences, None
    totals += preferences  # the float64 work buffer of _bounded_totals: whole numbers stay exact
    weights = (prof.taint_toleration_weight, prof.node_affinity_weight, prof.image_locality_weight)
    largest += MAX_NODE_SCORE * sum(max(w, 0) for w in weights)
    exact = min(weights) >= 0 and (largest + 1) * max(store.size, 1) < _KEY_RANGE_LIMIT
    return totals, largest if exact else None


class _ReasonCounts(Mapping[str, int]):
    """Infeasible nodes per text of their first rejecting filter, worked out on first use (the webhook needs
    them only for a pod that fits nowhere)."""

    def __init__(self, reasons: Reasons) -> None:
        self._reasons = reasons
        self._counts: dict[str, int] | None = None

    def _get(self) -> dict[str, int]:
        if self._counts is None:
            texts, counts = self._reasons.texts, self._reasons.counts
            self._counts = {t: c for t, c in zip(texts, counts, strict=True) if t != NOT_A_NODE}
        return self._counts

    def __getitem__(self, key: str) -> int:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __repr__(self) -> str:
        return repr(self._get())


# An integer score times the row count plus the reversed name rank stays exact (and unique) in float64
# while (largest |score| + 1) * rows is far below 2**53, float64's resolution.
_KEY_RANGE_LIMIT = 2**48
# Scores in 0..largest: every key is below (largest + 1) * rows, which int32 holds up to this.
_INT32_KEY_LIMIT = 2**31 - 1


def _keyable_scores(scores: Int64Array | FloatArray, rows: int) -> bool:
    """Integer scores from nonsense quantities (outside 0..100) the combined sort key can still order."""
    if scores.size == 0:
        return True
    largest = max(abs(int(scores.min())), abs(int(scores.max())))
    return (largest + 1) * max(rows, 1) < _KEY_RANGE_LIMIT


def _top_rows_by_key(
    store: NodeStore, infeasible: BoolArray, feasible: int, scores: Int64Array | FloatArray, top: int,
    largest: int | None,
) -> list[int]:
    """:func:`_top_rows` for whole-number scores, in a few passes. Each row's key, score x rows + (rows - 1
    - name rank), is a unique integer, larger for a better score and, among equal scores, for the name
    that sorts first. So the top-th largest key is a threshold that exactly the top rows reach, and a sort
    of just those orders them. The keys use the store's work buffer 2. For scores known to lie in 0 ..
    ``largest`` (None: not known) with (largest + 1) x rows below 2**31 the keys fit int32, whose partition
    does twice as many rows per vector instruction as float64's."""
    if feasible == 0:
        return []
    key = np.multiply(scores, store.size, out=store.work_rows(2))
    np.add(key, store.name_rank_reversed(), out=key)
    small = largest is not None and (largest + 1) * store.size <= _INT32_KEY_LIMIT
    # Below every feasible key; for scores >= 0 all different too: numpy's partition takes up to 30 times as
    # long when most keys are equal (a pod that fits on a third of the nodes), in int32 and in float64.
    np.putmask(key, infeasible, store.name_rank_below() if largest is not None else -np.inf)
    if 0 < top < feasible:
        kth = key.size - top
        partitioned = store.work_int32() if small else store.work_rows(3)
        np.copyto(partitioned, key, casting="unsafe")  # exact: whole numbers in int32's range when small
        partitioned.partition(kth)  # in place: the key array keeps its row order
        picked = np.nonzero(key >= partitioned[kth])[0]
    else:
        picked = np.nonzero(~infeasible)[0]
    chosen: list[int] = picked[np.argsort(-key[picked])].tolist()
    return chosen


def _top_rows(store: NodeStore, rows: Int64Array, scores: Int64Array | FloatArray, top: int) -> list[int]:
    """Rows of the ``top`` best scores (all when 0), best first, equal scores by node name."""
    if rows.size == 0:
        return []
    candidate_scores = scores[rows]
    names = store.name_order()
    if 0 < top < rows.size:
        # The top-th best score; everything above it makes the cut, and of the rows equal to it
        # only the (top - above) first by name do. Only those few rows are then sorted.
        cut = rows.size - top
        threshold = np.partition(candidate_scores, cut)[cut]
        above = rows[candidate_scores > threshold]
        tied = rows[candidate_scores == threshold]
        wanted = top - above.size
        if wanted < tied.size:
            tied = tied[np.argpartition(names[tied], wanted - 1)[:wanted]]
        rows = np.concatenate((above, tied))
        candidate_scores = scores[rows]
    order = np.lexsort((names[rows], -candidate_scores))
    picked = rows[order]
    chosen: list[int] = (picked[:top] if top else picked).tolist()
    return chosen
