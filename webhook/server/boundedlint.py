"""Lint a ConfigMap's data in a child process bounded in time and memory; also the child's entry point.

Why a child process: linting is CPU work that cannot be interrupted inside a gevent worker, and a
tenant chooses its size. In the child it can be stopped: the parent waits at most the time budget
(``lint_timeout_ms``) and kills the child after it, and the child caps its own address space
(``RLIMIT_AS`` = ``lint_memory_mib``) and CPU time before reading anything, so one ConfigMap can neither
hold the worker past the webhook's timeout nor push the pod past its memory limit. One child per worker
at a time: a second ConfigMap waits for the first, inside the same budget. Any limit that is hit becomes
``LintLimitExceeded``, which the ConfigMap policy turns into a clear denial.

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
from webhook.admission.decide.configmaps import LintLimitExceeded


class BoundedLinter:
    """Callable ``(data) -> findings`` that lints in a fresh child process within the given bounds."""

    def __init__(self, timeout_seconds: float, memory_mib: int, scheduler_build: str = "kube-scheduler") -> None:
        self.timeout, self.memory_mib, self.scheduler_build = timeout_seconds, memory_mib, scheduler_build
        self._one_at_a_time: threading.Semaphore | None = None  # made on first use: after gevent's patching
        self._spare: subprocess.Popen[bytes] | None = None  # a started child, waiting for its input

    def __call__(self, data: Mapping[str, str]) -> list[Finding]:
        deadline = time.monotonic() + self.timeout
        if self._one_at_a_time is None:
            self._one_at_a_time = threading.Semaphore(1)
        if not self._one_at_a_time.acquire(timeout=self.timeout):
            raise LintLimitExceeded(f"other ConfigMaps were being linted for the whole {self.timeout:g} s budget")
        try:
            return self._run(data, deadline)
        finally:
            self._one_at_a_time.release()

    def _run(self, data: Mapping[str, str], deadline: float) -> list[Finding]:
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
            raise LintLimitExceeded(f"linting took longer than the {self.timeout:g} s budget") from None
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
