"""Which candidate node is nominated (``SelectCandidate``/``pickOneNodeForPreemption``, §5-§6).

The five criteria, each keeping only the best nodes, amount to a lexicographic minimum of
(PDB violations, highest victim priority, Σ(priority + 2³¹), victim count, -latest earliest start
of the top-priority victims). What stays tied after that is a random pick. With more candidate
nodes than ``n`` (``DefaultPreemptionArgs``), the dry run stops after a random-offset sample, so
the answer is a *set* of possible nodes. When every candidate violates a PDB it never stops early,
but ``DryRunPreemption`` keeps only the first ``n`` violating candidates it finds: a set again.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from linter.model import PreemptionArgs

from .pods import posix_seconds
from .victims import NodeVictims

__all__ = ["CRITERIA", "OFFSET", "Choice", "Key", "capped_note", "choose", "num_candidates", "possible",
           "selection_key"]

OFFSET = 2**31
CRITERIA = (
    "fewest PDB violations",
    "lowest highest-victim priority",
    "smallest sum of (victim priority + 2^31)",
    "fewest victims",
    "latest start of the highest-priority victims",
)

Key = tuple[int, int, int, int, tuple[int, float]]


def num_candidates(potential_nodes: int, args: PreemptionArgs) -> int:
    """``calculateNumCandidates``: ⌊P·pct/100⌋, at least the absolute minimum, at most P."""
    n = potential_nodes * args.min_candidate_nodes_percentage // 100
    n = max(n, args.min_candidate_nodes_absolute)
    return min(n, potential_nodes)


def _earliest_top_start(c: NodeVictims) -> datetime | None:
    """``GetEarliestPodStartTime``: earliest start among the victims of the top priority; None = now."""
    top = c.victims[0].priority
    starts = [v.start for v in c.victims if v.priority == top]
    real = [s for s in starts if s is not None]
    return min(real) if real else None


def selection_key(c: NodeVictims) -> Key:
    """Smaller is better, criterion by criterion."""
    if not c.victims:  # cannot happen after a failed first filter pass; such a node needs nothing
        return (c.violations, -(2**63), -(2**63), 0, (0, 0.0))
    start = _earliest_top_start(c)
    late = (0, 0.0) if start is None else (1, -posix_seconds(start))  # "now" is the latest of all
    return (
        c.violations,
        c.victims[0].priority,
        sum(v.priority + OFFSET for v in c.victims),
        len(c.victims),
        late,
    )


@dataclass(frozen=True)
class Choice:
    """``nodes``: the possible nominations (one when certain); ``decided_by``: the deciding criterion."""

    nodes: tuple[str, ...]
    decided_by: str
    random: tuple[str, ...]


def _pick(candidates: Sequence[NodeVictims]) -> tuple[list[NodeVictims], str]:
    """The best candidates and the criterion that left one (or 'tie')."""
    if len(candidates) == 1:
        return list(candidates), "only candidate"
    keyed = [(selection_key(c), c) for c in candidates]
    remaining = keyed
    for i, name in enumerate(CRITERIA):
        best = min(k[i] for k, _ in remaining)
        remaining = [(k, c) for k, c in remaining if k[i] == best]
        if len(remaining) == 1:
            return [remaining[0][1]], name
    return [c for _, c in remaining], "tie"


def possible(best: Sequence[Key], worst: Sequence[Key]) -> list[int]:
    """The nodes (by index) that can be nominated when each may reach any key from its ``best`` to its
    ``worst``, independently of the others: a node's best must be at least as good as every other
    node's worst (an exact tie after criterion 5 is a random pick)."""
    if len(best) == 1:
        return [0]
    ranked = sorted(range(len(worst)), key=lambda i: worst[i])
    first, second = worst[ranked[0]], worst[ranked[1]]
    return [i for i in range(len(best)) if best[i] <= (second if i == ranked[0] else first)]


def capped_note(candidates: int, n: int) -> str:
    """The random note when every candidate violates a PDB and there are more than n of them."""
    return (f"all {candidates} candidate nodes violate a PodDisruptionBudget: the scheduler keeps only the first "
            f"{n} it finds (in parallel, from a random offset) and picks among those: the nomination depends on which")


def choose(candidates: Sequence[NodeVictims], potential_nodes: int, args: PreemptionArgs,
           ranges: Mapping[str, tuple[Key, Key]] | None = None) -> Choice:
    """The nominated node(s) among the dry run's candidates (all of them computed). ``ranges``: per node
    whose key depends on the order of equally important pods, its best and worst key."""
    best, decided = _pick(candidates)
    random: list[str] = []
    if decided == "tie":
        random.append(f"{len(best)} nodes tie on all five criteria: the scheduler picks one at random")
    # "now" beats every real start, so one such node winning criterion 5 is certain; only a tie among
    # several (each evaluated at its own "now", in random order) is random
    if decided == "tie" and any(selection_key(c)[4] == (0, 0.0) for c in best):
        random.append("the deciding victims have no status.startTime: the scheduler compares them with 'now'")
    ranges = ranges or {}
    low = [ranges[c.node][0] if c.node in ranges else selection_key(c) for c in candidates]
    high = [ranges[c.node][1] if c.node in ranges else selection_key(c) for c in candidates]
    nodes = {candidates[i].node for i in possible(low, high)}
    n = num_candidates(potential_nodes, args)
    keys = sorted(high)
    # nodes that are best among some n candidates (a node's best against the others' worst)
    best_of_n = [i for i in range(len(candidates)) if len(keys) - bisect_left(keys, low[i]) >= n]
    can_be_clean = [i for i, k in enumerate(low) if k[0] == 0]
    if n < potential_nodes and len(candidates) >= n and can_be_clean:
        # The dry run may stop once it holds n candidates (one without violations): any node that can
        # be without violations and be best among some n candidates can be the one nominated.
        nodes.update(candidates[i].node for i in best_of_n if low[i][0] == 0)
        if len(nodes) > 1 or decided == "tie":
            random.append(
                f"{potential_nodes} nodes could help but the scheduler tries only about {n} of them, from a "
                "random offset: the nomination depends on which"
            )
    if len(candidates) > n and all(k[0] > 0 for k in high):
        # Every candidate violates a PDB: the dry run tries every node, but its list of violating
        # candidates holds only n, the first n found (DryRunPreemption's candidateList).
        before = len(nodes)
        nodes.update(candidates[i].node for i in best_of_n)
        if len(nodes) > before:
            random.append(capped_note(len(candidates), n))
    return Choice(tuple(sorted(nodes)), decided if len(nodes) == 1 else "random", tuple(random))
