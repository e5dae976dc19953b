"""The ``rules``, ``rule BPLnnn`` and ``explain`` subcommands of ``binpack-lint``.

``rules`` lists every rule (code, name, default severity, summary) as text, JSON or a
Markdown table; ``rule BPLnnn`` prints one rule's documentation rendered from its module
docstring (unknown code: exit 2); ``explain`` is handed to ``linter.explain.main`` untouched,
imported only then because it pulls in the scoring model.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import TextIO

from linter.docs import (
    all_rule_docs,
    redirect_for,
    render_rule_markdown,
    render_rule_text,
    render_table_markdown,
    render_table_text,
    rule_doc,
)

PROG = "binpack-lint"


def dispatch(command: str, argv: Sequence[str], out: TextIO, err: TextIO) -> int:
    if command == "explain":
        return _explain(list(argv), err)
    if command == "rules":
        return _rules(list(argv), out)
    return _rule(list(argv), out, err)


def _rules(argv: list[str], out: TextIO) -> int:
    parser = argparse.ArgumentParser(prog=f"{PROG} rules", description="List every rule.")
    parser.add_argument("-f", "--format", choices=("text", "json", "markdown"), default="text")
    options = parser.parse_args(argv)
    docs = all_rule_docs()
    if options.format == "json":
        out.write(json.dumps({"rules": [d.as_dict() for d in docs]}, indent=2) + "\n")
    elif options.format == "markdown":
        out.write(render_table_markdown(docs))
    else:
        out.write(render_table_text(docs))
    return 0


def _rule(argv: list[str], out: TextIO, err: TextIO) -> int:
    parser = argparse.ArgumentParser(prog=f"{PROG} rule", description="Show the documentation of one rule.")
    parser.add_argument("code", metavar="BPLnnn")
    parser.add_argument("-f", "--format", choices=("text", "markdown", "json"), default="text")
    options = parser.parse_args(argv)
    doc = rule_doc(options.code)
    if doc is None:
        replacement = redirect_for(options.code)
        hint = f" (it was replaced by {replacement})" if replacement else "; see 'binpack-lint rules'"
        err.write(f"{PROG}: error: unknown rule code {options.code!r}{hint}\n")
        return 2
    if options.format == "json":
        payload = {**doc.as_dict(), "title": doc.title, "sections": dict(doc.sections)}
        out.write(json.dumps(payload, indent=2) + "\n")
    elif options.format == "markdown":
        out.write(render_rule_markdown(doc))
    else:
        out.write(render_rule_text(doc))
    return 0


def _explain(argv: list[str], err: TextIO) -> int:
    from linter.explain import main as explain_main  # here, not at the top: it loads the scoring model

    return explain_main(argv)
