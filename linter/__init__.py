"""binpack-guard's linter: exact checks for kube-scheduler, legacy Policy and Volcano scheduler
configs and PriorityClasses.

Public API (imported on first use, so ``import linter`` and ``binpack-lint`` start fast)::

    lint_text(text, path, settings=None, *, explicit=True) -> list[Finding]
    lint_paths(paths, settings=None, stdin_text=None) -> LintRun  (.findings, .files, .paths)
    Finding, Severity, LintSettings, __version__
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from linter.engine import lint_paths, lint_text
    from linter.findings import Finding, Severity
    from linter.settings import LintSettings

    __version__: str

__all__ = ["Finding", "LintSettings", "Severity", "__version__", "lint_paths", "lint_text"]

_HOMES = {
    "lint_text": "linter.engine",
    "lint_paths": "linter.engine",
    "Finding": "linter.findings",
    "Severity": "linter.findings",
    "LintSettings": "linter.settings",
}
DISTRIBUTION = "binpack-guard"


def __getattr__(name: str) -> object:
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version(DISTRIBUTION)
        except PackageNotFoundError:  # running from a source tree that was never installed
            value = "0+unknown"
        globals()["__version__"] = value
        return value
    if name in _HOMES:
        import importlib

        value_obj: object = getattr(importlib.import_module(_HOMES[name]), name)
        globals()[name] = value_obj
        return value_obj
    raise AttributeError(f"module 'linter' has no attribute {name!r}")
