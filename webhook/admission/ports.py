"""What the admission decisions may ask of the world outside the request: the two protocols they read.

Decisions read a ``ClusterView``: a PriorityClass snapshot, the incrementally maintained scheduling state (held
under the view's lock while a pod is scored), and whether the view is synced and healthy. The one time a decision
reaches the apiserver is ``read_priority_class``: a pod names a class the snapshot lacks, and only a live read can
tell "created a moment ago" from "does not exist" (a short-timeout GET). They also claim "the one globalDefault
PriorityClass" through a ``DefaultClassClaim``. Both take ``until``, the review's deadline (``time.monotonic()``):
the apiserver stops waiting for our answer then, so neither may wait past it (None: only their own bounds apply).
The implementations live in the cluster wing
(``webhook.cluster.cache.ClusterCache``, ``webhook.cluster.static.StaticClusterView``,
``webhook.cluster.lease.LeaseDefaultClassClaim``), which this wing never imports.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import Protocol

from linter.formats.priorityclass.validate import PriorityClassInfo
from linter.scoring.cluster.state import ClusterState


class ViewNotReady(Exception):
    """The view is not synced and fresh, so nothing it says may decide; answered with HTTP 503 (no review),
    which sends the apiserver down the webhook's ``failurePolicy``."""


def require_ready(view: ClusterView) -> None:
    """Raise ``ViewNotReady`` unless the view is synced and healthy (its watches are live)."""
    synced, healthy = view.is_synced(), view.is_healthy()
    if not (synced and healthy):
        state = "has not finished its first list" if not synced else "has lost its watch on the apiserver"
        raise ViewNotReady(f"binpack-guard's cluster cache {state}; no decision is taken from it (retry later)")


class ClusterView(Protocol):
    """Read side of the cluster cache, as the admission decisions use it."""

    def priority_classes(self) -> Mapping[str, PriorityClassInfo]:
        """A consistent snapshot (a copy or an immutable mapping) keyed by class name."""
        ...

    def read_priority_class(self, name: str, *, until: float | None = None) -> PriorityClassInfo | None:
        """The class as the apiserver has it now (a live read), None when it does not exist.

        Raises ``webhook.errors.LiveReadError`` when the apiserver cannot be asked, or has not answered by
        ``until``; views without an apiserver answer from what they hold."""
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

    def claim(
        self, class_name: str, *, is_still_default: Callable[[str], bool], until: float | None = None
    ) -> str | None:
        """None if ``class_name`` now holds the claim, else the name of the class that holds it; raises when
        that cannot be known by ``until``."""
        ...

    def release(self, class_name: str, *, until: float | None = None) -> None: ...
