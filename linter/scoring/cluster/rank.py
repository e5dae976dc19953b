"""Ranking one pod against every node of a :class:`~linter.scoring.cluster.store.NodeStore`.

Steps: resolve the scorer (a kube-scheduler profile's NodeResourcesFit args or Volcano's
binpack), run the filters (:mod:`linter.scoring.cluster.filters`) to get the feasible
rows and one reason per infeasible node, score all rows at once
(:mod:`linter.scoring.cluster.scores`) and pick the top K, best first, ties by node name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import numpy as np

from linter.model import DEFAULT_SCHEDULER_NAME, FitArgs, KubeSchedulerModel, VolcanoBinpackArgs, VolcanoModel
from linter.scoring import feasibility
from linter.scoring.cluster.filters import FilterCache, enabled_filters, run_filters
from linter.scoring.cluster.scores import FloatArray, binpack_scores, fit_scores
from linter.scoring.cluster.store import Int64Array, NodeStore
from linter.scoring.requests import actual_request, fit_score_request, volcano_request

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

    ``scores`` holds the top-K feasible nodes, best first, ties by node name, with the
    plugin's own score: NodeResourcesFit 0..100 *before* the profile weight
    (``plugin_weight``), or Volcano's binpack value (already on the 0..100 x binpack.weight
    scale Volcano adds to the node order; ``plugin_weight`` is binpack.weight).
    ``reason_counts`` counts infeasible nodes by the text of the first filter that
    rejected them.
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


def _scheduler_name(pod: Mapping[str, Any]) -> str:
    spec = pod.get("spec") or {}
    name = spec.get("schedulerName") if isinstance(spec, Mapping) else None
    return name if isinstance(name, str) and name else DEFAULT_SCHEDULER_NAME


def _volcano_scores(
    store: NodeStore, memo: PodMemo, shape: str | None, pod: Mapping[str, Any], model: VolcanoModel
) -> tuple[FloatArray, int]:
    """Volcano calls the binpack node-order function registered last (weight != 0) once per
    binpack entry whose node ordering is enabled, summing the float64 results."""
    registered: VolcanoBinpackArgs | None = None
    for entry in model.binpack:
        if entry.weight != 0:
            registered = entry
    calls = sum(1 for entry in model.binpack if entry.enable_node_order)
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
) -> Ranking:
    """See :meth:`linter.scoring.cluster.state.ClusterState.rank`."""
    if top < 0:
        raise ValueError(f"top must be >= 0, got {top}")
    fit_filter = _DEFAULT_FIT_FILTER
    shape = memo.fingerprint(pod)  # the pod's request shape, computed once for every memo lookup below
    plugins: tuple[str, ...] = feasibility.DEFAULT_FILTERS
    scores: Int64Array | FloatArray
    if isinstance(model, VolcanoModel):
        engine, strategy = ENGINE_VOLCANO, None
        profile_name = profile or VOLCANO_PROFILE
        scores, weight = _volcano_scores(store, memo, shape, pod, model)
        plugin_weight: int | float = weight
    else:
        engine = ENGINE_FIT
        profile_name = profile or _scheduler_name(pod)
        prof = model.profile(profile_name)
        if prof is None:
            known = ", ".join(p.scheduler_name for p in model.profiles) or "none"
            raise ValueError(f"scheduler model has no profile {profile_name!r} (profiles: {known})")
        plugins = enabled_filters(prof.filter_plugins, prof.fit_filter_enabled)
        fit_filter = prof.fit or fit_filter
        if prof.fit is None:
            strategy, plugin_weight = None, 0
            scores = np.zeros(store.size, np.int64)
        else:
            strategy, plugin_weight = prof.fit.strategy, prof.fit_weight
            scores = fit_scores(store, prof.fit, memo.lookup("fit-score", shape, pod, fit_score_request))
    present = store.present[: store.size]
    total_nodes = int(np.count_nonzero(present))
    all_present = total_nodes == store.size  # the usual case: no row is held only by early pods
    if filters:
        pod_actual = memo.lookup("actual", shape, pod, actual_request)
        reasons = run_filters(store, filter_cache, pod, pod_actual, fit_filter, plugins)
        feasible, texts = reasons.feasible, reasons.texts
        if all_present:
            reason_counts = dict(zip(texts, reasons.counts, strict=True))
        else:  # rows held only by pods bound to a missing node are not nodes: count present rows only
            feasible = feasible & present
            counts = np.bincount(reasons.codes()[present], minlength=len(texts) + 1)
            reason_counts = {texts[i - 1]: int(counts[i]) for i in range(1, len(counts)) if counts[i]}
    else:
        feasible = present
        reason_counts = {}
    rows = np.flatnonzero(feasible)
    chosen = _top_rows(store, rows, scores, top)
    as_py: Callable[[Any], int | float] = float if engine == ENGINE_VOLCANO else int
    ranked = tuple((str(store.row_names[r]), as_py(scores[r])) for r in chosen)
    return Ranking(
        engine=engine,
        profile=profile_name,
        strategy=strategy,
        plugin_weight=plugin_weight,
        total_nodes=total_nodes,
        feasible_nodes=int(rows.size),
        scores=ranked,
        reason_counts=reason_counts,
        best_node=ranked[0][0] if ranked else None,
    )


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
    return [int(r) for r in (picked[:top] if top else picked)]
