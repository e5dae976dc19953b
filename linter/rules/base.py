"""What a rule module is, and what its ``check`` yields.

A rule is a module (yamllint/ruff style) with these attributes:

* ``CODE``: permanent ``BPLnnn`` identifier; ``NAME``: kebab-case slug; ``SUMMARY``: one line;
* ``SEVERITY``: the default :class:`~linter.findings.Severity`;
* ``FORMATS``: the document kinds it checks (``kube-scheduler``, ``legacy-policy``, ``volcano``,
  ``priorityclass``, or ``*`` for the engine's own file-level rules);
* a docstring with the headings *What it does*, *Why it matters*, *Example (fails)*,
  *Use instead (passes)* — it is the rule's documentation (``binpack-lint rule BPLnnn``);
* ``check(ctx)``: yields :class:`Violation` for one document's format context;
* optionally ``check_corpus(contexts)``: yields ``(ctx, Violation)`` once per run over every
  document of its formats (cross-file rules such as "one globalDefault").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from linter.findings import Severity
from linter.source import Pointer


@dataclass(frozen=True)
class Violation:
    """A rule's report: the message and where, as a JSON pointer into the document.

    ``position`` (document-local 1-based line, column) overrides the pointer when a rule knows
    a more exact place (e.g. a duplicate key). ``severity`` overrides the rule's default for
    rules whose severity depends on the case.
    """

    message: str
    pointer: Pointer = ()
    on_key: bool = False
    position: tuple[int, int] | None = None
    severity: Severity | None = None


class Rule(Protocol):
    CODE: str
    NAME: str
    SUMMARY: str
    SEVERITY: Severity
    FORMATS: frozenset[str]
    __doc__: str | None

    def check(self, ctx: Any) -> Iterable[Violation]: ...
