"""``DumpClusterView``: the ClusterView of ``binpack-webhook serve/review --cluster-file DUMP`` (no apiserver).

The dump is what ``kubectl get nodes,pods,priorityclasses,pdb -A -o yaml`` prints, read with the linter's
explain reader (``linter.explain.inputs``: the same size limits and one-line errors). The view re-reads the
file when its size, mtime or inode changes (checked at most once per ``check_interval`` seconds, on use); a
file that became unreadable or invalid keeps the last good state and is logged once per change. With no
apiserver behind it the dump is the truth: ``read_priority_class`` answers from it, and the view is synced
and healthy as soon as one load succeeded. A gunicorn worker builds its view with ``strict=False``: if the
file went bad after the server started, the worker starts unsynced (an empty view; reviews get 503, as with
a cache that has not synced) instead of failing to boot, which would make gunicorn stop the whole server.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Mapping
from contextlib import AbstractContextManager

from linter.explain.inputs import ExplainInputError, load_cluster_objects
from linter.formats.priorityclass.validate import BUILTIN_CLASSES, PriorityClassInfo
from linter.scoring.cluster.state import ClusterState
from webhook.cluster.static import StaticClusterView
from webhook.errors import one_line

log = logging.getLogger(__name__)


class DumpFileError(Exception):
    """The dump cannot be used (one line naming the file and the problem)."""


def load_view(path: str) -> StaticClusterView:
    """A StaticClusterView of the dump; the built-in system classes are added when the dump lacks them."""
    try:
        dump = load_cluster_objects(path)  # streamed, whole objects (any size)
        view = StaticClusterView(nodes=dump.nodes, pods=dump.pods, priority_classes=dump.priority_classes,
                                 pdbs=dump.pdbs)
    except ExplainInputError as exc:
        raise DumpFileError(str(exc)) from None
    except (ValueError, KeyError, TypeError) as exc:
        raise DumpFileError(f"STATE {path}: {one_line(exc)}") from None
    known = view.priority_classes()
    for builtin in BUILTIN_CLASSES:  # the apiserver always has them; a dump of only user classes omits nothing
        if builtin.name not in known:
            view.apply_priority_class({"metadata": {"name": builtin.name}, "value": builtin.value})
    return view


def _signature(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


class DumpClusterView:
    """A ClusterView over a dump file that follows the file as it changes."""

    def __init__(self, path: str, *, check_interval: float = 1.0, strict: bool = True) -> None:
        self.path, self.check_interval = path, check_interval
        self._signature = _signature(path)
        self._loaded = True
        try:
            self._view = load_view(path)
        except DumpFileError as exc:
            if strict:  # at start-up: the caller reports it
                raise
            log.error("cluster file not usable (unsynced until a good one is there): %s", exc)
            self._view, self._loaded = StaticClusterView(synced=False), False
        self._checked_at = time.monotonic()
        self._lock = threading.Lock()
        self.reloads = 0

    def _current(self) -> StaticClusterView:
        now = time.monotonic()
        if now - self._checked_at >= self.check_interval and self._lock.acquire(blocking=False):
            try:
                self._checked_at = now
                signature = _signature(self.path)
                if signature is not None and signature != self._signature:
                    self._signature = signature
                    try:
                        self._view = load_view(self.path)
                        self.reloads += 1
                        log.info("cluster file %s %s", self.path, "reloaded" if self._loaded else "loaded")
                        self._loaded = True
                    except DumpFileError as exc:
                        log.warning("cluster file changed but is not usable (keeping the last good one): %s", exc)
            finally:
                self._lock.release()
        return self._view

    def priority_classes(self) -> Mapping[str, PriorityClassInfo]:
        return self._current().priority_classes()

    def read_priority_class(self, name: str, *, until: float | None = None) -> PriorityClassInfo | None:
        return self._current().read_priority_class(name, until=until)

    def scheduling_state(self) -> AbstractContextManager[ClusterState]:
        return self._current().scheduling_state()

    def is_synced(self) -> bool:
        self._current()  # a view that has not loaded yet looks at the file again
        return self._loaded

    def is_healthy(self) -> bool:
        return True

    def stats(self) -> Mapping[str, float]:
        return {**self._current().stats(), "synced": 1.0 if self._loaded else 0.0}
