"""Lint a ConfigMap's data in a child process bounded in time and memory; also the child's entry point.

Why a child process: linting is CPU work that cannot be interrupted inside a gevent worker, and a
tenant chooses its size. In the child it can be stopped: the parent waits at most the time budget
(``lint_timeout_ms``) and kills the child after it, and the child caps its own address space
(``RLIMIT_AS`` = ``lint_memory_mib``) and CPU time before reading anything, so one ConfigMap can neither
hold the worker past the webhook's timeout nor push the pod past its memory limit. The budget is counted
from the review's arrival (the caller passes its deadline, ``webhook.server.deadline``), so the time the
review waited for room to decode comes out of it too. One child per worker at a time: a second ConfigMap
waits for the first, inside the same budget. Any limit that is hit becomes ``LintLimitExceeded``, which the
ConfigMap policy turns into a clear denial; its message says how much of the budget went to waiting.

The child is ``webhook.server.lintchild``.
"""

from __future__ import annotations

import atexit
import json
import math
import subprocess
import sys
import threading
import time
from collections.abc import Mapping

from linter.findings import Finding, Severity
from webhook.admission.decide.configmaps import Linter, LintLimitExceeded
from webhook.server.deadline import remaining, waited


class BoundedLinter:
    """Callable ``(data) -> findings`` that lints in a fresh child process within the given bounds."""

    def __init__(self, timeout_seconds: float, memory_mib: int, scheduler_build: str = "kube-scheduler") -> None:
        self.timeout, self.memory_mib, self.scheduler_build = timeout_seconds, memory_mib, scheduler_build
        self._one_at_a_time: threading.Semaphore | None = None  # made on first use: after gevent's patching
        self._spare: subprocess.Popen[bytes] | None = None  # a started child, waiting for its input

    def __call__(self, data: Mapping[str, str], deadline: float | None = None) -> list[Finding]:
        """Lint ``data`` by ``deadline`` (``time.monotonic()``: the end of the budget counted from the review's
        arrival), else within the whole budget from now."""
        now = time.monotonic()
        deadline = now + self.timeout if deadline is None else deadline
        if remaining(deadline, now) <= 0:
            raise LintLimitExceeded(spent_waiting(self.timeout))
        if self._one_at_a_time is None:
            self._one_at_a_time = threading.Semaphore(1)
        if not self._one_at_a_time.acquire(timeout=remaining(deadline, now)):
            raise LintLimitExceeded(others_linting(self.timeout, waited(self.timeout, deadline, now)))
        try:
            started = time.monotonic()
            if remaining(deadline, started) <= 0:
                raise LintLimitExceeded(spent_waiting(self.timeout))
            return self._run(data, deadline, started)
        finally:
            self._one_at_a_time.release()

    def until(self, deadline: float) -> Linter:
        """This linter for one review whose budget ends at ``deadline``."""
        return lambda data: self(data, deadline)

    def _run(self, data: Mapping[str, str], deadline: float, started: float) -> list[Finding]:
        payload = json.dumps(dict(data), ensure_ascii=True).encode()  # ASCII: lone surrogates survive the pipe
        child = self._spare if self._spare is not None and self._spare.poll() is None else None
        if child is None:
            if self._spare is not None:
                _reap(self._spare)
            child = self._start()
        self._spare = self._start()  # the next ConfigMap does not wait for an interpreter to start
        try:
            out, err = child.communicate(payload, timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _reap(child)
            raise LintLimitExceeded(too_slow(self.timeout, deadline, started)) from None
        if child.returncode != 0:
            if b"MemoryError" in err:
                raise LintLimitExceeded(f"linting needed more than the {self.memory_mib} MiB memory budget")
            raise LintLimitExceeded(f"the linter process failed (exit {child.returncode})")
        return [_finding(item) for item in json.loads(out)]


    def _start(self) -> subprocess.Popen[bytes]:
        cpu = math.ceil(self.timeout) + 1  # the import of the linter before the input counts too
        child = subprocess.Popen(
            [sys.executable, "-m", "webhook.server.lintchild", str(self.memory_mib), str(cpu), self.scheduler_build],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        _LIVE.add(self)
        return child

    def close(self) -> None:
        if self._spare is not None:
            _reap(self._spare)
            self._spare = None


def _after_waiting(seconds: float) -> str:
    """`` after N s of waiting``, or nothing when the wait rounds to 0.0 s (the message's precision)."""
    return f" after {seconds:.1f} s of waiting" if f"{seconds:.1f}" != "0.0" else ""


def too_slow(budget: float, deadline: float, started: float) -> str:
    """Linting that started at ``started`` did not finish by ``deadline``."""
    before = waited(budget, deadline, started)
    if not _after_waiting(before):
        return f"linting took longer than the {budget:g} s budget"
    return (f"linting took longer than the {remaining(deadline, started):.1f} s left of the {budget:g} s budget"
            f"{_after_waiting(before)}")


def others_linting(budget: float, before: float) -> str:
    """No room to lint by the deadline; ``before`` seconds of the budget had gone when the linter was called."""
    if not _after_waiting(before):
        return f"other ConfigMaps were being linted for the whole {budget:g} s budget"
    return f"other ConfigMaps were being linted for the rest of the {budget:g} s budget{_after_waiting(before)}"


def spent_waiting(budget: float) -> str:
    """Nothing of the budget was left once linting could start."""
    return f"the {budget:g} s budget was spent waiting before linting could start"


_LIVE: set[BoundedLinter] = set()  # linters holding a spare child, stopped at exit


@atexit.register
def _stop_spares() -> None:
    for linter in list(_LIVE):
        linter.close()


def _reap(child: subprocess.Popen[bytes]) -> None:
    child.kill()
    child.wait()
    for pipe in (child.stdin, child.stdout, child.stderr):
        if pipe is not None:
            pipe.close()


def _finding(item: Mapping[str, object]) -> Finding:
    return Finding(str(item["path"]), int(str(item["line"])), int(str(item["column"])), str(item["rule"]),
                   Severity(str(item["severity"])), str(item["message"]))
