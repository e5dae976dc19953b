"""Rule documentation rendered from the rule modules themselves.

A rule's module docstring is its documentation (habit 1): a first paragraph, then fixed
headings (*What it does*, *Why it matters*, *Example (fails)*, *Use instead (passes)*,
optionally *Options*) each followed by an indented body. This module parses that shape once
and renders it for ``binpack-lint rule BPLnnn``, for ``binpack-lint rules`` and for the
Markdown rule table in the docs. It never prints.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType

from linter.findings import Severity

HEADINGS = ("What it does", "Why it matters", "Example (fails)", "Use instead (passes)", "Options")
_HEADING_LINE = re.compile(r"^(" + "|".join(re.escape(h) for h in HEADINGS) + r"):\s*$")
# Sections whose body may be a config snippet, fenced in Markdown when it looks like one.
_EXAMPLE_SECTIONS = frozenset({"Example (fails)", "Use instead (passes)"})
_LOOKS_LIKE_CONFIG = re.compile(r"^\s*(- |[{\[]|[\w\"'./-]+:(\s|$))", re.MULTILINE)


@dataclass(frozen=True)
class RuleDoc:
    """Everything a user-facing listing needs to know about one rule."""

    code: str
    name: str
    severity: Severity
    summary: str
    formats: tuple[str, ...]
    title: str  # the docstring's first paragraph
    sections: tuple[tuple[str, str], ...]  # (heading, dedented body) in docstring order

    def section(self, heading: str) -> str | None:
        return next((body for h, body in self.sections if h == heading), None)

    def as_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "name": self.name,
            "severity": self.severity.value,
            "summary": self.summary,
            "formats": list(self.formats),
        }


def parse_docstring(docstring: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """Split a rule docstring into its title paragraph and its (heading, body) sections."""
    lines = textwrap.dedent(docstring).strip("\n").splitlines()
    title_lines: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    for line in lines:
        match = _HEADING_LINE.match(line)
        if match:
            sections.append((match.group(1), []))
        elif sections:
            sections[-1][1].append(line)
        else:
            title_lines.append(line)
    title = " ".join(part.strip() for part in _first_paragraph(title_lines))
    return title, tuple((h, textwrap.dedent("\n".join(body)).strip("\n")) for h, body in sections)


def _first_paragraph(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if not line.strip():
            if out:
                break
            continue
        out.append(line)
    return out


def doc_for(rule: ModuleType) -> RuleDoc:
    title, sections = parse_docstring(rule.__doc__ or "")
    formats = tuple(sorted(getattr(rule, "FORMATS", ()) or ()))
    return RuleDoc(str(rule.CODE), str(rule.NAME), rule.SEVERITY, str(rule.SUMMARY), formats, title, sections)


@lru_cache(maxsize=1)
def all_rule_docs() -> tuple[RuleDoc, ...]:
    """Every registered rule, by code."""
    from linter import rules

    return tuple(doc_for(rule) for _, rule in sorted(rules.by_code().items()))


def rule_doc(code: str) -> RuleDoc | None:
    """The documentation of one rule (code compared case-insensitively), or None if there is no such rule."""
    wanted = code.strip().upper()
    return next((d for d in all_rule_docs() if d.code == wanted), None)


def redirect_for(code: str) -> str | None:
    """The code that replaced a retired code, if ``code`` was retired."""
    from linter import rules

    return rules.REDIRECTS.get(code.strip().upper())


# --- rendering -----------------------------------------------------------------------------

def render_rule_text(doc: RuleDoc) -> str:
    """The terminal page for ``binpack-lint rule BPLnnn``."""
    out = [f"{doc.code} {doc.name} (default severity: {doc.severity.value})", "", doc.title]
    if doc.formats and doc.formats != ("*",):
        out += ["", "Checks: " + ", ".join(doc.formats)]
    for heading, body in doc.sections:
        out += ["", heading + ":", textwrap.indent(body, "    ") if body else "    (none)"]
    return "\n".join(out) + "\n"


def render_rule_markdown(doc: RuleDoc) -> str:
    """One rule as a Markdown section (examples in fenced YAML blocks)."""
    out = [f"### {doc.code} `{doc.name}`", "", f"*Default severity: {doc.severity.value}.* {doc.title}"]
    for heading, body in doc.sections:
        out += ["", f"**{heading}**", ""]
        fenced = heading in _EXAMPLE_SECTIONS and _LOOKS_LIKE_CONFIG.search(body)
        out += (["```yaml", body, "```"] if fenced else [body])
    return "\n".join(out) + "\n"


def render_table_text(docs: tuple[RuleDoc, ...]) -> str:
    """Aligned columns: code, name, severity, summary."""
    if not docs:
        return ""
    name_width = max(len(d.name) for d in docs)
    return "".join(
        f"{d.code}  {d.name:<{name_width}}  {d.severity.value:<7}  {d.summary}\n" for d in docs
    )


def render_table_markdown(docs: tuple[RuleDoc, ...]) -> str:
    """The rule table for README/docs; ``|`` in summaries is escaped so the table stays intact."""
    rows = ["| Code | Name | Severity | Summary |", "| --- | --- | --- | --- |"]
    rows += [
        f"| {d.code} | `{d.name}` | {d.severity.value} | {d.summary.replace('|', chr(92) + '|')} |" for d in docs
    ]
    return "\n".join(rows) + "\n"
