"""``binpack-lint --jobs``: checking files in worker processes gives the report one process gives.

The corpus holds what a worker must not get wrong: real-world files of every format, a file that
cannot be read, a missing path, PriorityClasses whose cross-file finding needs every file in one
place (one of them silenced by an inline suppression), and standard input among the files.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
from multiprocessing.context import SpawnContext
from pathlib import Path

import pytest
from lint_cli_helpers import run_cli
from paths import SHARED

from linter.engine import FILES_PER_WORKER, lint_paths
from linter.workers import in_workers

WILD = SHARED / "wild" / "files"

PRIORITY_CLASS = """\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: {name}
value: {value}
globalDefault: true
"""


def _corpus(root: Path) -> Path:
    corpus = root / "corpus"
    corpus.mkdir()
    for i, source in enumerate(sorted(WILD.iterdir())):
        shutil.copy(source, corpus / f"{i:03d}-{source.name}")
    for i in range(3):
        (corpus / f"pc-{i}.yaml").write_text(PRIORITY_CLASS.format(name=f"default-{i}", value=i))
    (corpus / "pc-3.yaml").write_text("# binpack-lint: disable=BPL300\n"
                                      + PRIORITY_CLASS.format(name="default-3", value=3))
    (corpus / "latin1.yaml").write_bytes(b"kind: Pol\xe9cy\n")
    assert len(list(corpus.iterdir())) >= 2 * FILES_PER_WORKER  # so that two workers really start
    return corpus


def test_two_workers_report_what_one_process_reports(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    paths = [str(corpus), str(tmp_path / "missing.yaml")]
    serial = lint_paths(paths, jobs=1)
    parallel = lint_paths(paths, jobs=2)
    assert parallel.findings == serial.findings
    readable = len(list(corpus.iterdir())) - 1  # latin1.yaml is refused, not read
    assert parallel.paths == serial.paths and parallel.files == serial.files == readable
    rules = {f.rule for f in serial.findings}
    assert {"BPL002", "BPL300"} <= rules  # the unreadable files and the cross-file finding are there
    assert not any(f.rule == "BPL300" and f.path.endswith("pc-3.yaml") for f in serial.findings)


def test_cli_jobs_with_standard_input(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    stdin = PRIORITY_CLASS.format(name="from-stdin", value=9).encode()
    one = run_cli(["-f", "json", "-j", "1", str(corpus), "-"], cwd=tmp_path, stdin=stdin)
    two = run_cli(["-f", "json", "-j", "2", str(corpus), "-"], cwd=tmp_path, stdin=stdin)
    assert (two.code, two.stdout) == (one.code, one.stdout)
    assert "<stdin>" in one.stdout and one.code == 2  # the unreadable file makes it 2


@pytest.mark.parametrize(("value", "reason"), [("-1", "must be 0 (one per CPU) or more, not -1"),
                                               ("two", "not a whole number: 'two'")])
def test_cli_rejects_a_bad_job_count(tmp_path: Path, value: str, reason: str) -> None:
    result = run_cli(["-j", value, str(tmp_path)], cwd=tmp_path)
    assert result.code == 2
    assert f"argument -j/--jobs: {reason}" in result.stderr
    assert "Traceback" not in result.stderr


def _die_on_seven(path: str, explicit: bool) -> str:
    if path == "7":
        os._exit(3)  # a worker killed mid-run (out of memory, a signal)
    return path


def test_a_dead_worker_loses_no_file() -> None:
    targets = [(str(i), False) for i in range(200)]
    results = list(in_workers(targets, _die_on_seven, 2))
    assert len(results) == len(targets)
    assert "7" not in results
    handed_back = [t for t, r in zip(targets, results, strict=True) if r is None]
    assert ("7", False) in handed_back  # the parent checks whatever was not reported
    assert all(r == t[0] for t, r in zip(targets, results, strict=True) if r is not None)


class _NoProcesses(SpawnContext):
    """A multiprocessing context on a platform that cannot start processes (a sandbox, a process limit)."""

    def Process(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
        raise OSError(11, "Resource temporarily unavailable")


def test_no_worker_can_start_so_the_parent_checks_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(multiprocessing, "get_context", lambda method=None: _NoProcesses())
    targets = [(str(i), False) for i in range(100)]
    assert list(in_workers(targets, _die_on_seven, 2)) == [None] * 100
