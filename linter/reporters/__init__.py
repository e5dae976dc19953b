"""Output formats behind one name table, each seeing the whole run: start, finding..., finish.

A reporter only formats: it gets plain findings in sorted order and a summary, writes to the
stream it was given, and decides nothing (the exit code is the CLI's). Format modules are
imported only when chosen, so ``binpack-lint`` pays for the one it uses.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, TextIO

from linter.findings import Finding

# name -> module under linter.reporters that defines ``Reporter``
REPORTERS: dict[str, str] = {
    "text": "text",
    "json": "json",
    "sarif": "sarif",
    "github": "github",
    "junit": "junit",
}
FORMAT_CHOICES = ("auto", *REPORTERS)


@dataclass(frozen=True)
class RunInfo:
    """What a reporter may want to know before the first finding."""

    tool_name: str = "binpack-lint"
    tool_version: str | None = None  # None: looked up when a format asks (importlib.metadata costs ~25 ms)
    root: str = field(default_factory=os.getcwd)  # relative paths/URIs are computed against it

    def version(self) -> str:
        if self.tool_version is not None:
            return self.tool_version
        import linter

        return str(linter.__version__)


@dataclass(frozen=True)
class RunSummary:
    """The outcome of a run, handed to ``finish``."""

    paths: Sequence[str]  # every file that was read, in the order it was read
    files: int
    errors: int
    warnings: int
    exit_code: int


class Reporter(Protocol):
    def start(self, info: RunInfo) -> None: ...

    def finding(self, finding: Finding) -> None: ...

    def finish(self, summary: RunSummary) -> None: ...


def resolve_format(name: str, environ: dict[str, str] | None = None) -> str:
    """``auto`` is ``github`` inside GitHub Actions (GITHUB_ACTIONS=true), ``text`` elsewhere."""
    if name != "auto":
        return name
    env = os.environ if environ is None else environ
    return "github" if env.get("GITHUB_ACTIONS") == "true" else "text"


def create(name: str, out: TextIO, err: TextIO, *, quiet: bool = False) -> Reporter:
    """A fresh reporter for a resolved format name (see ``resolve_format``)."""
    module = importlib.import_module(f"linter.reporters.{REPORTERS[name]}")
    reporter: Reporter = module.Reporter(out, err, quiet=quiet)
    return reporter
