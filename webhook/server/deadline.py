"""One deadline per admission review, counted from its arrival: its waits and its lint share it.

The apiserver stops waiting ``timeoutSeconds`` after it sent a review and then applies the webhook's
failurePolicy with its own message, whatever we were about to answer. So the time a review spends waiting
for room in the decode gate and everything it waits for afterwards (a ConfigMap: another ConfigMap's lint and
its own; a pod: a live PriorityClass read; a PriorityClass: the globalDefault Lease claim) come out of one
budget counted from the review's arrival: when the worker began handling the request (``ARRIVAL``, set by
``webhook.server.worker.AdmissionWorker.handle_request``), or, outside that worker (the Flask test client),
when the view started. The budget is the endpoint's setting: ``lint_timeout_ms`` (ConfigMaps),
``pod_timeout_ms``, ``priority_class_timeout_ms`` (2.5 s each by default; the chart sets each to its webhook's
``timeoutSeconds`` minus 0.5 s). The gate never waits past the budget's end, nor longer than its own wait
(``DecodeGate.wait_seconds``, 2.5 s) after arrival; what comes after gets only what is left.
"""

from __future__ import annotations

from contextvars import ContextVar

# time.monotonic() when the worker began handling the current request; one value per greenlet
ARRIVAL: ContextVar[float] = ContextVar("binpack_guard_arrival")


def arrival(now: float) -> float:
    """When the current request arrived: the worker's stamp, else ``now``."""
    return ARRIVAL.get(now)


def gate_seconds(gate_wait: float, budget: float) -> float:
    """How long after its arrival a review may wait for room to decode: the gate's own wait, and no longer
    than its budget (a ConfigMap's lint budget may be shorter)."""
    return min(gate_wait, budget)


def remaining(deadline: float, now: float) -> float:
    """Seconds left until ``deadline`` (never negative)."""
    return max(0.0, deadline - now)


def waited(budget: float, deadline: float, now: float) -> float:
    """Seconds of a ``budget`` that ends at ``deadline`` already gone by ``now``."""
    return budget - (deadline - now)
