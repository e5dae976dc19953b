"""The fast twin of :mod:`linter.scoring.preemption` for the webhook: kube-scheduler 1.36's
preemption for one pending pod over the numpy cluster state, equal to the scalar model (a
property test holds them together).

Filters other than NodeResourcesFit come from :func:`run_filters`; NodeResourcesFit is redone here
with every shortage of a node (the message counts each one) and its code (a request above
allocatable is unresolvable). A node NodePorts rejects is a candidate (Unschedulable): its dry run
fails on NodePorts when a port stays taken once the lower-priority pods are gone (their entries leave
the node's set even where a remaining pod holds them too, as in Go), and a lower-priority pod holding a
wanted port is never put back. Pending pods nominated to a node with priority >= the pod's count
there, when their ``schedulerName`` is one of the scheduler's profiles. The dry run and the node
choice are in :mod:`linter.scoring.cluster.reprieve`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from linter.model import FitArgs, Profile
from linter.scoring import feasibility
from linter.scoring.cluster.filters import FilterCache, enabled_filters, run_filters
from linter.scoring.cluster.lowerpods import LowerPods, describe, freed_by_row, lower_pods
from linter.scoring.cluster.node_choice import choose_rows, row_key
from linter.scoring.cluster.nominated import nominated_load
from linter.scoring.cluster.podtable import PodTable
from linter.scoring.cluster.reprieve import BudgetIndex, DryRun, dry_run
from linter.scoring.cluster.store import BoolArray, Int64Array, NodeStore
from linter.scoring.cluster.tie_orders import RowOutcomes, tie_entries, tie_outcomes
from linter.scoring.hostports import REASON_NODE_PORTS, HostPort, ports_conflict
from linter.scoring.preemption.choice import Key, num_candidates
from linter.scoring.preemption.messages import (
    DRA_NO_STATE,
    NO_NODES,
    NO_NODES_REASON,
    NOT_ELIGIBLE_NEVER,
    NOT_ELIGIBLE_TERMINATING,
    NOT_HELPFUL,
    fit_error_of_counts,
    truncate_event,
)
from linter.scoring.preemption.outcomes import order_notes
from linter.scoring.preemption.pdb import budget_of
from linter.scoring.preemption.pods import pod_facts
from linter.scoring.preemption.predict import NO_DRA_STATE, post_filter_tail
from linter.scoring.preemption.victims import NO_VICTIMS
from linter.scoring.requests import is_extended_resource, is_scalar_resource

__all__ = ["FastPreemption", "predict_fast"]

@dataclass(frozen=True)
class FastPreemption:
    """The twin's answer; field meanings as in :class:`linter.scoring.preemption.Prediction`."""

    needed: bool
    eligible: bool = False
    not_eligible_reason: str | None = None
    nominated_node: str | None = None
    possible_nodes: tuple[str, ...] = ()
    victims: tuple[str, ...] = ()  # "namespace/name", most important first
    victim_priorities: tuple[int, ...] = ()
    pdb_violations: int = 0
    decided_by: str | None = None
    random: tuple[str, ...] = ()
    message: str = ""
    event_message: str = ""
    potential_nodes: int = 0
    candidates: int = 0
    cleared_nominations: tuple[str, ...] = ()


def _checks(request: Mapping[str, int], fit: FitArgs | None) -> list[tuple[str, int]]:
    """The resources ``fitsRequest`` compares for this request (pods count aside), in Go's order."""
    scalars = sorted(n for n in request if is_scalar_resource(n))
    names = [n for n in ("cpu", "memory", "ephemeral-storage") if request.get(n, 0) > 0]
    ignored, groups = (fit.ignored_resources, fit.ignored_resource_groups) if fit else ((), ())
    for name in scalars:
        if request[name] == 0 or (is_extended_resource(name) and (name in ignored or name.split("/")[0] in groups)):
            continue
        names.append(name)
    return [(n, request[n]) for n in names]


def _column(store: NodeStore, matrix: Int64Array, name: str, n: int) -> Int64Array:
    col = store.resource_index.get(name)
    return matrix[col, :n] if col is not None else np.zeros(n, np.int64)


def predict_fast(
    store: NodeStore, table: PodTable, cache: FilterCache, pod: Mapping[str, Any], profile: Profile,
    pdbs: Sequence[Mapping[str, Any]] | BudgetIndex = (), scheduler_names: frozenset[str] | None = None,
) -> FastPreemption:
    """``pdbs``: PodDisruptionBudget objects, or a :class:`BudgetIndex` the caller keeps across queries.
    ``scheduler_names``: the profile names of the scheduler ``profile`` belongs to (None: ``profile``'s
    own); only pods nominated with one of these ``schedulerName``s count and are cleared."""
    names = scheduler_names if scheduler_names is not None else frozenset({profile.scheduler_name})
    me = pod_facts(pod, placed=False)
    me_key = (me.namespace, me.name)
    p = me.priority
    n = store.size
    present = store.present[:n].copy()
    plugins = enabled_filters(profile)
    # Pending pods nominated with priority >= ours reserve their host ports and requests on their node (the
    # ranking's rule, nominated_load); lower-priority ones are noted, to be cleared on the chosen node.
    load = nominated_load(store, table, pod, names)
    others = run_filters(store, cache, pod, me.request, profile.built_fit or FitArgs(),
                         [f for f in plugins if f != "NodeResourcesFit"], nominated=load, ports=table.ports)
    codes = others.codes()
    open_rows = present & (codes == 0)
    # NodePorts is plain Unschedulable: evicting the holder may free the port
    ports_rows = present & (codes == others.texts.index(REASON_NODE_PORTS) + 1) \
        if REASON_NODE_PORTS in others.texts else np.zeros(n, np.bool_)
    counts: Counter[str] = Counter()
    for code, rows in zip(*np.unique(codes[present & (codes > 0)], return_counts=True), strict=True):
        counts[others.texts[int(code) - 1]] += int(rows)
    checks = _checks(me.request, profile.built_fit) if "NodeResourcesFit" in plugins else []
    extra = [np.zeros(n, np.int64) for _ in checks]
    extra_pods = np.zeros(n, np.int64)
    if load is not None:
        extra_pods[load.rows] = load.pods  # one entry per row
        for i, (name, _) in enumerate(checks):
            if name in load.requests:
                extra[i][load.rows] = load.requests[name]
    by_row: dict[int, list[str]] = {}
    for key, nom in table.nominated.items():
        row = store.row_of.get(nom.node)
        if (nom.facts.priority < p and key != me_key and nom.scheduler in names and row is not None and row < n
                and present[row]):
            by_row.setdefault(row, []).append("/".join(key))
    alloc = [_column(store, store.alloc, name, n) for name, _ in checks]
    used = [_column(store, store.act_req, name, n) for name, _ in checks]
    allowed = _column(store, store.alloc, "pods", n)
    fit_fail = np.zeros(n, np.bool_)
    unresolvable = np.zeros(n, np.bool_)
    if "NodeResourcesFit" in plugins:
        too_many = open_rows & (store.pod_count[:n] + extra_pods + 1 > allowed)
        counts[feasibility.REASON_TOO_MANY_PODS] += int(too_many.sum())
        fit_fail |= too_many
        for i, (name, want) in enumerate(checks):
            short = open_rows & (want > alloc[i] - used[i] - extra[i])
            counts[f"Insufficient {name}"] += int(short.sum())
            fit_fail |= short
            unresolvable |= short & (want > alloc[i])
    if not present.any():
        return FastPreemption(needed=True, not_eligible_reason=NO_NODES_REASON, message=NO_NODES,
                              event_message=NO_NODES)
    if (open_rows & ~fit_fail).any():
        return FastPreemption(needed=False)
    num_nodes = int(present.sum())
    pre_filter = feasibility.prefilter_rejection(pod, plugins) or ""
    if pre_filter and "DynamicResources" in profile.post_filter_plugins:
        msg = fit_error_of_counts(num_nodes, counts, DRA_NO_STATE, pre_filter=pre_filter)
        return FastPreemption(True, nominated_node=me.nominated_node or None, not_eligible_reason=NO_DRA_STATE,
                              message=msg, event_message=truncate_event(msg))
    if "DefaultPreemption" not in profile.post_filter_plugins:
        msg = fit_error_of_counts(num_nodes, counts, post_filter_tail(profile.post_filter_plugins, None),
                                  pre_filter=pre_filter)
        return FastPreemption(True, nominated_node=me.nominated_node or None, message=msg,
                              not_eligible_reason="DefaultPreemption is not enabled in this profile",
                              event_message=truncate_event(msg))
    potential = (open_rows & fit_fail & ~unresolvable) | ports_rows
    lower = lower_pods(table, store, present, p, me_key)
    reason = None
    if me.preemption_policy == "Never":
        reason = NOT_ELIGIBLE_NEVER
    elif me.nominated_node:
        row = store.row_of.get(me.nominated_node)
        if row is not None and row < n and potential[row]:
            idx, _ = lower.entries(np.array([row], np.int64))
            if bool(table.terminating[lower.order[idx]].any()):
                reason = NOT_ELIGIBLE_TERMINATING
    if reason is not None:
        msg = fit_error_of_counts(num_nodes, counts, post_filter_tail(profile.post_filter_plugins, reason),
                                  pre_filter=pre_filter)
        return FastPreemption(True, False, reason, me.nominated_node or None,
                              (me.nominated_node,) if me.nominated_node else (), message=msg,
                              event_message=truncate_event(msg))
    index = pdbs if isinstance(pdbs, BudgetIndex) else BudgetIndex([budget_of(x) for x in pdbs])
    ports = _PortsAtStake(me.ports, ports_rows, load.ports if load is not None else {})
    return _dry_run_and_choose(store, table, profile, index, checks, present, potential, lower,
                               (alloc, used, extra, extra_pods, allowed), counts, num_nodes, by_row, pre_filter,
                               ports)


@dataclass(frozen=True)
class _PortsAtStake:
    """The preemptor's host ports, the rows NodePorts rejected, and the nominated pods' ports by row."""

    wanted: tuple[HostPort, ...]
    rows: BoolArray
    nominated: Mapping[int, tuple[HostPort, ...]]


def _blocked_after_eviction(store: NodeStore, table: PodTable, lower: LowerPods, ports: _PortsAtStake) -> BoolArray:
    """The rows NodePorts still rejects once every lower-priority pod is gone: the node's used ports lose
    every entry a removed pod holds (Go's set), and the nominated pods' ports count."""
    blocked = np.zeros(len(ports.rows), np.bool_)
    rows = np.flatnonzero(ports.rows)
    if not len(rows):
        return blocked
    idx, entry_rows = lower.entries(rows)
    removed: dict[int, set[HostPort]] = {}
    for slot, row in zip(lower.order.take(idx).tolist(), entry_rows.tolist(), strict=True):
        removed.setdefault(row, set()).update(table.ports.ports_of(table.keys[slot]))
    by_node = table.ports.by_node
    for row in rows.tolist():
        held = by_node.get(str(store.row_names[row]))
        left = set(held) - removed.get(row, set()) if held else set()
        blocked[row] = ports_conflict(ports.wanted, left) or ports_conflict(ports.wanted, ports.nominated.get(row, ()))
    return blocked


def _dry_run_and_choose(
    store: NodeStore, table: PodTable, profile: Profile, pdbs: BudgetIndex,
    checks: list[tuple[str, int]], present: BoolArray, potential: BoolArray, lower: LowerPods,
    columns: tuple[list[Int64Array], list[Int64Array], list[Int64Array], Int64Array, Int64Array],
    counts: Counter[str], num_nodes: int, by_row: dict[int, list[str]], pre_filter: str, ports: _PortsAtStake,
) -> FastPreemption:
    n = store.size
    alloc, used, extra, extra_pods, allowed = columns
    lower_count = np.where(potential, lower.count(), 0)
    room: list[Int64Array] = []
    dry_counts: Counter[str] = Counter()
    # NodePorts runs before NodeResourcesFit: a row it still rejects fails the dry run with its text alone
    blocked = _blocked_after_eviction(store, table, lower, ports) & (lower_count > 0)
    dry_counts[REASON_NODE_PORTS] += int(blocked.sum())
    dry_fit = potential & (lower_count > 0) & ~blocked  # the rows NodeResourcesFit judges in the dry run
    fits = dry_fit.copy()
    # the requests of every lower-priority pod of the rows where evicting could help, read once
    slots, entry_rows, needs = lower.requests(table, np.flatnonzero(fits),
                                              [store.resource_index.get(name, -1) for name, _ in checks])
    for i, ((name, want), freed) in enumerate(zip(checks, freed_by_row(entry_rows, needs, n), strict=True)):
        free = alloc[i] - (used[i] - freed) - extra[i] - want
        short = dry_fit & (free < 0)
        dry_counts[f"Insufficient {name}"] += int(short.sum())
        fits &= ~short
        room.append(free)
    pods_room = allowed - (store.pod_count[:n] - lower_count) - extra_pods - 1
    if "NodeResourcesFit" in enabled_filters(profile):
        crowded = dry_fit & (pods_room < 0)
        dry_counts[feasibility.REASON_TOO_MANY_PODS] += int(crowded.sum())
        fits &= ~crowded
    else:
        pods_room = np.full(n, 2**62, np.int64)
    dry_counts[NO_VICTIMS] += int((potential & (lower_count == 0)).sum())
    dry_counts[NOT_HELPFUL] += int((present & ~potential).sum())
    n_potential = int(potential.sum())
    cand_rows = np.flatnonzero(fits)
    if len(cand_rows) and num_candidates(n_potential, profile.preemption) == 0:
        # n = 0: the dry run's candidate lists hold nothing; a node that succeeded records no status
        dry_counts[NOT_HELPFUL] += len(cand_rows)
        cand_rows = cand_rows[:0]
    if not len(cand_rows):
        inner = fit_error_of_counts(num_nodes, dry_counts)
        msg = fit_error_of_counts(num_nodes, counts, post_filter_tail(profile.post_filter_plugins, inner),
                                  pre_filter=pre_filter)
        return FastPreemption(True, True, message=msg, event_message=truncate_event(msg),
                              potential_nodes=n_potential)
    keep = fits[entry_rows]
    if not keep.all():
        at = np.flatnonzero(keep)
        slots, entry_rows, needs = slots[at], entry_rows[at], [need[at] for need in needs]
    conflicting: frozenset[int] = frozenset()
    if ports.wanted:
        # a pod holding a wanted port never comes back: one unit of a resource the rows have none of
        held = [ports_conflict(ports.wanted, table.ports.ports_of(table.keys[slot])) for slot in slots.tolist()]
        marker = np.array(held, np.int64)
        conflicting = frozenset(slots[marker > 0].tolist())
        needs, room = [*needs, marker], [*room, np.zeros(n, np.int64)]
    entries = describe(table, slots, entry_rows, needs)
    tied = tie_entries(entries)
    run = dry_run(table, entries, n, pdbs, room, pods_room)
    outcomes = tie_outcomes(table, tied, run, pdbs, room, pods_room, lambda r: str(store.row_names[r]),
                            conflicting) if tied else {}
    ranges = {row: (o.best, o.worst) for row, o in outcomes.items() if o.best != o.worst or not o.exhaustive}
    choice = choose_rows(run, cand_rows, n_potential, profile.preemption, ranges)
    possible = np.array(choice.rows, np.int64)
    by_name = possible[np.argsort(store.name_order()[possible])].tolist()
    names: list[str] = store.name_array()[by_name].tolist()
    random = list(choice.random)
    if outcomes:
        random += _order_notes(store, run, choice.rows, outcomes, ranges)
    chosen = names[0] if len(names) == 1 else None
    victims: tuple[str, ...] = ()
    prios: tuple[int, ...] = ()
    if chosen is not None:
        row = store.row_of[chosen]
        on_row = sorted(run.order[(run.rows == row) & run.victim].tolist(), key=lambda s: _importance_key(table, s))
        victims = tuple("/".join(table.keys[s]) for s in on_row)
        prios = tuple(int(table.priority[s]) for s in on_row)
    msg = fit_error_of_counts(num_nodes, counts, pre_filter=pre_filter)
    return FastPreemption(
        True, True, None, chosen, tuple(names), victims, prios,
        int(run.violations[store.row_of[chosen]]) if chosen else 0, choice.decided_by, tuple(random), msg,
        truncate_event(msg), n_potential, len(cand_rows),
        tuple(by_row.get(store.row_of[chosen], [])) if chosen else (),
    )


def _importance_key(table: PodTable, slot: int) -> tuple[int, float, str]:
    start = float(table.start[slot])
    return (-int(table.priority[slot]), start if start == start else float("inf"), "/".join(table.keys[slot]))


def _order_notes(store: NodeStore, run: DryRun, possible: Sequence[int], outcomes: Mapping[int, RowOutcomes],
                 ranges: Mapping[int, tuple[Key, Key]]) -> list[str]:
    """The scalar model's :func:`order_notes`, over rows: only the rows that carry a note or were bounded
    are passed, and keys are worked out only when some row was bounded."""
    def name(row: int) -> str:
        return str(store.row_names[row])

    shown = {name(r): o for r, o in outcomes.items() if o.notes or o.rank_notes or not o.exhaustive}
    bounded = [r for r, o in outcomes.items() if not o.exhaustive]
    keys = {name(r): row_key(run, r) for r in bounded}
    best = {name(r): ranges[r][0] if r in ranges else row_key(run, r) for r in possible} if bounded else {}
    return order_notes([name(r) for r in possible], shown, keys, best)
