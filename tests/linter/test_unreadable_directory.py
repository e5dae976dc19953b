"""A directory lint cannot list is an error with exit 2, never "no problems in 0 files"."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from linter.engine import CODE_UNREADABLE, lint_paths


def _unlistable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory whose listing fails with EACCES (root ignores chmod 000, so os.scandir refuses it)."""
    root = tmp_path / "configs"
    root.mkdir()
    real_scandir = os.scandir

    def refuse(path: object) -> object:
        if os.fspath(path) == str(root):  # type: ignore[call-overload]
            raise PermissionError(13, "Permission denied", str(root))
        return real_scandir(path)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "scandir", refuse)
    return root


def test_a_directory_that_cannot_be_listed_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _unlistable(tmp_path, monkeypatch)
    run = lint_paths([str(root)])
    assert run.files == 0
    assert [(f.path, f.rule, f.message) for f in run.findings] == [
        (str(root), CODE_UNREADABLE, "cannot read directory: Permission denied")]


def test_the_cli_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from linter.cli import main

    root = _unlistable(tmp_path, monkeypatch)
    assert main([str(root)]) == 2
    assert "cannot read directory" in capsys.readouterr().out
