"""The exact scoring model: kube-scheduler 1.36 NodeResourcesFit / BalancedAllocation,
the legacy 0..10 RequestedToCapacityRatioPriority and Volcano's binpack plugin.

Pure functions over plain JSON-like Kubernetes objects: no I/O, no clients. See
docs/scoring.md for the behaviour reproduced here.
"""

from linter.scoring.quantity import QuantityError, parse_quantity, to_scheduler_int
from linter.scoring.requests import (
    actual_request,
    fit_node_contribution,
    fit_score_request,
    is_scalar_resource,
    volcano_request,
)

__all__ = [
    "QuantityError",
    "actual_request",
    "fit_node_contribution",
    "fit_score_request",
    "is_scalar_resource",
    "parse_quantity",
    "to_scheduler_int",
    "volcano_request",
]
