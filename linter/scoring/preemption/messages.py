"""The texts the scheduler writes for a pod that fits nowhere (reference/preemption.md §7).

``0/<all nodes> nodes are available: <histogram>.[ <PostFilter message>]``: the histogram counts
every reason of every node as ``"<count> <reason>"``, sorted byte-wise (Go ``sort.Strings``) and
joined by ``", "``. When a PreFilter rejected the pod, ``FitError.Error`` prints that PreFilter's
message once in place of the histogram. The FailedScheduling event carries the same text cut to
1024 bytes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

__all__ = [
    "DRA_NO_CLAIMS",
    "DRA_NO_STATE",
    "EVENT_LIMIT",
    "NOT_ELIGIBLE_NEVER",
    "NOT_ELIGIBLE_TERMINATING",
    "NOT_HELPFUL",
    "NO_NODES",
    "NO_NODES_REASON",
    "fit_error",
    "fit_error_of_counts",
    "histogram",
    "histogram_of_counts",
    "truncate_event",
]

NOT_HELPFUL = "Preemption is not helpful for scheduling"
NOT_ELIGIBLE_NEVER = "not eligible due to preemptionPolicy=Never."
NOT_ELIGIBLE_TERMINATING = "not eligible due to a terminating pod on the nominated node."
DRA_NO_CLAIMS = "no new claims to deallocate"
# schedulePod's ErrNoNodesAvailable: with no node in its snapshot the cycle ends before any filter or
# PostFilter runs, so this is the whole FailedScheduling text and the nomination is cleared.
NO_NODES = "no nodes available to schedule pods"
NO_NODES_REASON = "the cluster has no nodes: the scheduling cycle fails before PostFilter, so nothing is preempted"
# DynamicResources' PostFilter when its PreFilter never ran: CycleState.Read's ErrNotFound, as an Error.
DRA_NO_STATE = "not found"
EVENT_LIMIT = 1024
_TRUNCATED = " ..."


def histogram(reasons_per_node: Iterable[Sequence[str]]) -> str:
    """One entry per distinct reason with its node count, byte-wise sorted."""
    counts: Counter[str] = Counter()
    for reasons in reasons_per_node:
        counts.update(reasons)
    return histogram_of_counts(counts)


def histogram_of_counts(counts: Mapping[str, int]) -> str:
    """The histogram from reason -> node count (zero counts left out)."""
    entries = [f"{n} {reason}" for reason, n in counts.items() if n]
    return ", ".join(sorted(entries, key=lambda e: e.encode()))


def fit_error_of_counts(
    num_all_nodes: int, counts: Mapping[str, int], post_filter: str = "", *, pre_filter: str = ""
) -> str:
    """``FitError.Error()`` from reason -> node count; a ``pre_filter`` message replaces the histogram."""
    text = f"0/{num_all_nodes} nodes are available: {pre_filter or histogram_of_counts(counts)}."
    return f"{text} {post_filter}" if post_filter else text


def fit_error(
    num_all_nodes: int, reasons_per_node: Iterable[Sequence[str]], post_filter: str = "", *, pre_filter: str = ""
) -> str:
    """``FitError.Error()``; a ``pre_filter`` message replaces the histogram."""
    text = f"0/{num_all_nodes} nodes are available: {pre_filter or histogram(reasons_per_node)}."
    return f"{text} {post_filter}" if post_filter else text


def truncate_event(message: str) -> str:
    """``truncateMessage``: at most 1024 bytes, the last four replaced by `` ...``."""
    raw = message.encode()
    if len(raw) <= EVENT_LIMIT:
        return message
    return raw[: EVENT_LIMIT - len(_TRUNCATED)].decode(errors="replace") + _TRUNCATED
