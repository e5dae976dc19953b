"""kube-scheduler 1.36's DefaultPreemption as a pure model (issue 10, reference/preemption.md).

:func:`predict_preemption` takes plain v1 objects (the pending Pod, Nodes, Pods, PDBs) and returns
a :class:`Prediction`: whether preemption runs, eligibility, every node's victims, the nominated
node (or the set of possible ones where the scheduler chooses at random) and the exact
FailedScheduling message. ``linter.scoring.cluster.preemption`` is its fast twin for the webhook.
"""

from .choice import CRITERIA, num_candidates, selection_key
from .filters import FilterSetup, Status
from .messages import fit_error, histogram, truncate_event
from .pods import PodFacts, pod_facts
from .predict import Prediction, PreemptionOptions, predict_preemption
from .victims import NodeVictims

__all__ = [
    "CRITERIA",
    "FilterSetup",
    "NodeVictims",
    "PodFacts",
    "Prediction",
    "PreemptionOptions",
    "Status",
    "fit_error",
    "histogram",
    "num_candidates",
    "pod_facts",
    "predict_preemption",
    "selection_key",
    "truncate_event",
]
