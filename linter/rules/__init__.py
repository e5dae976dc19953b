"""The rule registry: an explicit tuple per format, assembled here; nothing is discovered.

A rule is a module ``linter/rules/<format>/bplNNN_<slug>.py`` (yamllint/ruff style):

* its docstring is the rule's documentation (``binpack-lint rule BPLnnn``), with the headings
  *What it does*, *Why it matters*, *Example (fails)*, *Use instead (passes)*;
* ``CODE``: the permanent ``BPLnnn`` identifier, taken from its wing's ``codes`` module (the one
  place the string is written; file-level codes from ``linter.filecodes``); ``NAME``: kebab-case
  slug; ``SUMMARY``: one line; ``SEVERITY``: the default :class:`~linter.findings.Severity`;
  ``FORMATS``: the document kinds it checks (``kube-scheduler``, ``legacy-policy``, ``volcano``,
  ``priorityclass``, or ``*`` for the engine's own file-level rules);
* ``check(ctx)``: yields :class:`~linter.findings.Violation` for one document's format context,
  with its logic imported from the format's wing ``linter.formats.<format>``;
* optionally ``check_corpus(contexts)``: yields ``(ctx, Violation)`` once per run over every
  document of its formats (cross-file rules such as "one globalDefault").

Codes are permanent and grouped by hundreds: BPL0xx files, parsing and decoding; BPL1xx
kube-scheduler validation and plugin construction; BPL2xx scoring and weighting; BPL3xx
the legacy Policy; BPL4xx Volcano; BPL5xx PriorityClasses. A removed rule keeps its code in
``REDIRECTS`` and the code is never reused.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from types import ModuleType
from typing import Any

from linter.rules.core import RULES as CORE_RULES
from linter.rules.kubesched import RULES as KUBE_SCHEDULER_RULES
from linter.rules.policy import RULES as LEGACY_POLICY_RULES
from linter.rules.priorityclass import RULES as PRIORITY_CLASS_RULES
from linter.rules.volcano import RULES as VOLCANO_RULES

ALL_RULES: tuple[ModuleType, ...] = (
    *CORE_RULES,
    *KUBE_SCHEDULER_RULES,
    *LEGACY_POLICY_RULES,
    *VOLCANO_RULES,
    *PRIORITY_CLASS_RULES,
)

# Retired codes -> the code that replaced them (none yet). Codes here are never reused.
REDIRECTS: dict[str, str] = {}


@lru_cache(maxsize=1)
def by_code() -> dict[str, ModuleType]:
    table: dict[str, ModuleType] = {}
    for rule in ALL_RULES:
        if rule.CODE in table:
            raise RuntimeError(f"rule code {rule.CODE} is used by {table[rule.CODE].__name__} and {rule.__name__}")
        if rule.CODE in REDIRECTS:
            raise RuntimeError(f"rule code {rule.CODE} was retired and cannot be reused")
        table[rule.CODE] = rule
    return table


@lru_cache(maxsize=16)
def for_format(kind: str) -> tuple[Any, ...]:
    return tuple(r for r in by_code().values() if kind in r.FORMATS and hasattr(r, "check"))


@lru_cache(maxsize=1)
def names_to_codes() -> dict[str, str]:
    return {r.NAME: code for code, r in by_code().items()}


def code_of_name(name: str) -> str | None:
    """The code of the rule called ``name`` (``invalid-fit-args`` -> ``BPL150``), case-insensitive."""
    return names_to_codes().get(name.strip().lower())


def corpus_rules() -> Iterator[Any]:
    return (r for r in by_code().values() if hasattr(r, "check_corpus"))
