"""RequestedToCapacityRatio's node score for every combination of utilizations, as one table.

On the float path (:func:`linter.scoring.cluster.scores.fit_scores`: every node counts every scored
resource, positive weights) a node's score depends only on the utilization, 0..100, of each resource
it scores. With one or two resources that is at most 101 x 101 combinations, so the shape, the
weighted sums, the division and ``math.Round`` are worked out once per (shape, weights) here and a
ranking looks every node's score up with one index, instead of a dozen passes over the rows.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from linter.model import ShapePoint
from linter.scoring.strategies import broken_line, scaled_shape

FloatArray = np.ndarray[tuple[int], np.dtype[np.float64]]

UTILIZATIONS = 101  # 0..100
MAX_TABLE_RESOURCES = 2  # three would take a million entries


@lru_cache(maxsize=64)
def ratio_score_table(shape: tuple[ShapePoint, ...], weights: tuple[int, ...]) -> FloatArray:
    """The node score (whole numbers as float64) at index ``u1`` (one resource) or ``u1 * 101 + u2`` (two),
    ``u`` being each resource's utilization; ``weights`` are the resources' weights, each positive.

    As Go adds them: a resource whose shaped score is 0 leaves both sums, and a node with no positive score
    scores 0. Both sums are exact integers in float64 (every shaped score must lie in 0..100 and the weight
    sum below 2**40), so their quotient is the float64 Go divides; ``math.Round`` of that non-negative
    quotient is its floor plus 1 when the fraction (exact) is at least one half."""
    if not 1 <= len(weights) <= MAX_TABLE_RESOURCES or min(weights) <= 0:
        raise ValueError(f"a ratio score table takes 1 or 2 positive weights, got {weights}")
    points = scaled_shape(shape)
    shaped = np.array([broken_line(points, u) for u in range(UTILIZATIONS)], np.int64)
    if int(shaped.min()) < 0 or int(shaped.max()) > 100:
        raise ValueError("a ratio score table needs shaped scores in 0..100")
    node_score = np.zeros(1, np.int64)
    weight_sum = np.zeros(1, np.int64)
    for weight in weights:  # the first resource's utilization ends up the most significant index
        node_score = np.add.outer(node_score, shaped * weight).ravel()
        weight_sum = np.add.outer(weight_sum, (shaped > 0) * weight).ravel()
    quotient = node_score.astype(np.float64) / np.maximum(weight_sum, 1).astype(np.float64)
    whole = np.floor(quotient)
    table: FloatArray = whole + (quotient - whole >= 0.5)
    return table
