"""Pod readiness across gunicorn workers: ready only when *every* live worker's cache is synced and fresh.

The kubelet's probe reaches whichever worker accepts it, but the apiserver's reviews reach all of them; one
worker that cannot list must therefore make the whole pod unready, not half of the probes. With several
workers, ``binpack-webhook serve`` creates a directory (``$BINPACK_GUARD_READINESS_DIR``); each worker writes
``ready-<pid>`` ("1"/"0") there every ``INTERVAL`` seconds from a daemon thread, and ``/readyz`` requires its
own view to be ready and every file of a live worker to say "1" and be fresh. A worker that died or hangs
stops refreshing its file: files older than ``STALE_AFTER`` of live pids count as not ready, of dead pids are
ignored (the arbiter replaces the worker, and the new one starts unready until it has synced).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path

from webhook.admission.ports import ClusterView

READINESS_DIR_ENV = "BINPACK_GUARD_READINESS_DIR"
INTERVAL = 1.0
STALE_AFTER = 5.0


def readiness_dir() -> Path | None:
    value = os.environ.get(READINESS_DIR_ENV)
    return Path(value) if value else None


def view_ready(view: ClusterView) -> bool:
    return view.is_synced() and view.is_healthy()


def publish(view: ClusterView, directory: Path, stop: threading.Event) -> threading.Thread:
    """Start this worker's heartbeat thread: write its readiness every INTERVAL until ``stop`` is set."""
    target = directory / f"ready-{os.getpid()}"

    def beat() -> None:
        while not stop.is_set():
            scratch = target.with_suffix(".tmp")
            with contextlib.suppress(OSError):
                scratch.write_text("1" if view_ready(view) else "0")
                scratch.replace(target)  # atomic: a reader never sees a half-written file
            stop.wait(INTERVAL)

    thread = threading.Thread(target=beat, name="readiness", daemon=True)
    thread.start()
    return thread


def all_workers_ready(directory: Path) -> bool:
    """True when every live worker's heartbeat is fresh and says ready."""
    now = time.time()
    for path in directory.glob("ready-*"):
        try:
            pid = int(path.name.removeprefix("ready-"))
        except ValueError:
            continue
        if not _alive(pid):
            continue
        try:
            fresh = now - path.stat().st_mtime < STALE_AFTER
            ready = path.read_text() == "1"
        except OSError:
            continue  # replaced or removed between listing and reading: the next probe sees it
        if not (fresh and ready):
            return False
    return True


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
