""""Did you mean": the closest known plugin name to a misspelt one.

Distance is the optimal-string-alignment form of Damerau-Levenshtein (a swap of two neighbours
costs 1, so ``Coschedulign`` is one edit from ``Coscheduling``), compared case-insensitively.
A name is suggested only when it is at most ``max(1, len // 6)`` edits away (2 for most plugin
names, and a case-only difference counts as 0), so unrelated custom names get no suggestion.
Failing that, a name of 8 or more letters that exactly one known name ends with is taken for
that name without its prefix (``BalancedAllocation`` -> ``NodeResourcesBalancedAllocation``).
"""

from __future__ import annotations

from collections.abc import Collection
from functools import lru_cache


def osa_distance(a: str, b: str) -> int:
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[i - 2][j - 2] + 1)
        rows.append(row)
    return rows[len(a)][len(b)]


def suggest(name: str, known: Collection[str]) -> str | None:
    """The known name closest to ``name`` within the threshold (ties: alphabetical), else None."""
    return _suggest(name, tuple(known))


@lru_cache(maxsize=1024)  # the same misspelling tends to recur in every profile and file
def _suggest(name: str, known: tuple[str, ...]) -> str | None:
    limit = max(1, len(name) // 6)
    lowered = name.lower()
    best: tuple[int, str] | None = None
    for candidate in known:
        if candidate == name:
            return None
        if abs(len(candidate) - len(name)) > limit:  # the distance is at least the length difference
            continue
        d = osa_distance(lowered, candidate.lower())
        if d <= limit and (best is None or (d, candidate) < best):
            best = (d, candidate)
    if best is not None:
        return best[1]
    longer = [c for c in known if len(name) >= 8 and c.lower().endswith(name.lower())]
    return longer[0] if len(longer) == 1 else None
