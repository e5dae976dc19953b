"""One deadline per admission review, counted from its arrival: its waits and its lint share it.

The apiserver stops waiting ``timeoutSeconds`` after it sent a review and then applies the webhook's
failurePolicy with its own message, whatever we were about to answer. So the time a review spends waiting
for room in the decode gate, waiting for another ConfigMap's lint, and being linted all come out of one
budget counted from the review's arrival: when the worker began handling the request (``ARRIVAL``, set by
``webhook.server.worker.AdmissionWorker.handle_request``), or, outside that worker (the Flask test client),
when the view started. A ConfigMap's budget is the lint budget (``lint_timeout_ms``); any other review's is
the decode gate's wait (``DecodeGate.wait_seconds``, 2.5 s). The gate never waits past the budget's end,
nor longer than its own wait after arrival.
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
