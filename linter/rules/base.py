"""What a rule module is, and what its ``check`` yields.

A rule is a module (yamllint/ruff style) with these attributes:

* ``CODE``: permanent ``BPLnnn`` identifier; ``NAME``: kebab-case slug; ``SUMMARY``: one line;
* ``SEVERITY``: the default :class:`~linter.findings.Severity`;
* ``FORMATS``: the document kinds it checks (``kube-scheduler``, ``legacy-policy``, ``volcano``,
  ``priorityclass``, or ``*`` for the engine's own file-level rules);
* a docstring with the headings *What it does*, *Why it matters*, *Example (fails)*,
  *Use instead (passes)* — it is the rule's documentation (``binpack-lint rule BPLnnn``);
* ``check(ctx)``: yields :class:`~linter.findings.Violation` for one document's format context;
* optionally ``check_corpus(contexts)``: yields ``(ctx, Violation)`` once per run over every
  document of its formats (cross-file rules such as "one globalDefault").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from linter.findings import Severity, Violation


class Rule(Protocol):
    CODE: str
    NAME: str
    SUMMARY: str
    SEVERITY: Severity
    FORMATS: frozenset[str]
    __doc__: str | None

    def check(self, ctx: Any) -> Iterable[Violation]: ...
