"""kube-scheduler 1.36's PodTopologySpread plugin (Filter and Score), pure: no I/O.

:mod:`.constraints` (which constraints apply, the default selector), :mod:`.nodes` (inclusion
policies), :mod:`.filter` (PreFilter/Filter) and :mod:`.score` (PreScore/Score/NormalizeScore). The bound
pods counted (:mod:`linter.scoring.boundpods`) and label selectors (:mod:`linter.scoring.labelselector`) are
shared with InterPodAffinity.
"""

from __future__ import annotations

from linter.scoring.boundpods import BoundPods, LabelSet, label_set

from .constraints import (
    HOSTNAME,
    SYSTEM_DEFAULTS,
    ZONE,
    DefaultSelector,
    SpreadConstraint,
    SpreadObjects,
    constraints_for,
    default_selector,
)
from .filter import REASON_LABEL_MISSING, REASON_SKEW, SpreadFilter, prefilter
from .nodes import SpreadNode
from .score import SpreadScores, spread_scores

__all__ = [
    "HOSTNAME",
    "REASON_LABEL_MISSING",
    "REASON_SKEW",
    "SYSTEM_DEFAULTS",
    "ZONE",
    "BoundPods",
    "DefaultSelector",
    "LabelSet",
    "SpreadConstraint",
    "SpreadFilter",
    "SpreadNode",
    "SpreadObjects",
    "SpreadScores",
    "constraints_for",
    "default_selector",
    "label_set",
    "prefilter",
    "spread_scores",
]
