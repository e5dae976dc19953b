"""Running the real ``binpack-lint`` in a subprocess, shared by the CLI-level tests."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

# The console script installed next to this interpreter (the pyenv shim would add a shell hop).
_SCRIPT = Path(sys.executable).with_name("binpack-lint")
CLI: list[str] = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "linter"]
TIMEOUT = 120  # a hang guard, not a speed assertion


@dataclass(frozen=True)
class CliResult:
    code: int
    stdout: str
    stderr: str


MEMORY_LIMIT = 1024 * 1024 * 1024  # address space for the child: bad input must not balloon


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_cli(args: Sequence[str], *, cwd: str | os.PathLike[str], stdin: bytes | None = None,
            env: Mapping[str, str] | None = None, limit_memory: bool = False) -> CliResult:
    environ = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    environ.update(env or {})
    proc = subprocess.run([*CLI, *args], cwd=cwd, input=stdin if stdin is not None else b"",
                          capture_output=True, timeout=TIMEOUT, env=environ, check=False,
                          preexec_fn=_limit_memory if limit_memory else None)
    return CliResult(proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"))


def assert_no_traceback(result: CliResult) -> None:
    assert "Traceback" not in result.stderr, result.stderr
    assert "Traceback" not in result.stdout, result.stdout


def have(tool: str) -> bool:
    return shutil.which(tool) is not None
