"""What the admission decisions may ask of the world outside the request: the two protocols they read.

Decisions never talk to the API server. They read a ``ClusterView``: a PriorityClass snapshot, the
incrementally maintained scheduling state (held under the view's lock while a pod is scored), and whether the
view is synced and healthy; and they claim "the one globalDefault PriorityClass" through a
``DefaultClassClaim``. The implementations live in the cluster wing (``webhook.cluster.cache.ClusterCache``,
``webhook.cluster.static.StaticClusterView``, ``webhook.cluster.lease.LeaseDefaultClassClaim``), which this wing
never imports.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import Protocol

from linter.formats.priorityclass.validate import PriorityClassInfo
from linter.scoring.cluster.state import ClusterState


class ClusterView(Protocol):
    """Read side of the cluster cache, as the admission decisions use it."""

    def priority_classes(self) -> Mapping[str, PriorityClassInfo]:
        """A consistent snapshot (a copy or an immutable mapping) keyed by class name."""
        ...

    def scheduling_state(self) -> AbstractContextManager[ClusterState]:
        """The node/pod scoring state, locked for the duration of the ``with`` block."""
        ...

    def is_synced(self) -> bool:
        """True once the first list of every watched resource has completed."""
        ...

    def is_healthy(self) -> bool:
        """True while the watches run (not stuck in error backoff)."""
        ...

    def stats(self) -> Mapping[str, float]:
        """Counters for metrics, e.g. nodes, pods, priorityclasses, watch_restarts."""
        ...


class DefaultClassClaim(Protocol):
    """A race-free claim on "the one globalDefault PriorityClass", shared by every replica and worker."""

    def claim(self, class_name: str, *, is_still_default: Callable[[str], bool]) -> str | None:
        """None if ``class_name`` now holds the claim, else the name of the class that holds it."""
        ...

    def release(self, class_name: str) -> None: ...
