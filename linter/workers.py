"""Running a per-file check in worker processes, for ``binpack-lint --jobs N``.

The caller (``linter.engine``) hands over a picklable function of one file; each worker runs it
and sends back its result only, so the parent's memory stays flat in the number of files. The
results come back in the order of the files, so the report is the same whatever the number of
workers. A ``None`` result means "check this one in the parent" (the engine uses it for files
whose documents the cross-file rules need, and for standard input).

Workers are forked where the platform can (Linux), and spawned elsewhere. If a worker dies (killed,
out of memory) or cannot be started at all, the files not yet reported come back as ``None`` and are
checked in the parent: never a hang, never a lost file. This module imports nothing from the engine.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

__all__ = ["in_workers"]

T = TypeVar("T")
Target = tuple[str, bool]  # (path, named explicitly by the user)

_check: Callable[[str, bool], Any] | None = None


def _start(check: Callable[[str, bool], Any]) -> None:
    global _check
    _check = check


def _run(target: Target) -> Any:
    assert _check is not None, "the worker was started without its check"
    return _check(*target)


def in_workers(targets: Sequence[Target], check: Callable[[str, bool], T | None],
               workers: int) -> Iterator[T | None]:
    """``check(path, explicit)`` of every target, in order, in ``workers`` processes."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    done = 0
    try:
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_start, initargs=(check,)) as pool:
            chunk = max(1, min(32, len(targets) // (workers * 8)))  # few round trips, balanced ends
            for result in pool.map(_run, targets, chunksize=chunk):
                done += 1
                yield result
    except (BrokenProcessPool, OSError, NotImplementedError):
        pass  # a worker died, or this platform cannot start one (no fork, no semaphores, a process limit)
    yield from (None for _ in targets[done:])
