"""``binpack-lint rule BPLnnn`` (or the rule's name): one rule's documentation, rendered from its module docstring.

An unknown code is a usage error (exit 2), naming the code that replaced a retired one.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from linter.cli.common import EXIT_CLEAN, UsageError

NAME = "rule"
HELP = "show the documentation of one rule"


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        NAME, help=HELP, description="Show the documentation of one rule.")
    parser.add_argument("code", metavar="BPLnnn|NAME", help="a rule code (BPL150) or name (invalid-fit-args)")
    parser.add_argument("-f", "--format", choices=("text", "markdown", "json"), default="text")
    return parser


def run(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from linter.docs import redirect_for, render_rule_markdown, render_rule_text, rule_doc
    from linter.rules import code_of_name

    doc = rule_doc(code_of_name(options.code) or options.code)
    if doc is None:
        replacement = redirect_for(options.code)
        hint = f" (it was replaced by {replacement})" if replacement else "; see 'binpack-lint rules'"
        raise UsageError(f"unknown rule code {options.code!r}{hint}")
    if options.format == "json":
        payload = {**doc.as_dict(), "title": doc.title, "sections": dict(doc.sections)}
        out.write(json.dumps(payload, indent=2) + "\n")
    elif options.format == "markdown":
        out.write(render_rule_markdown(doc))
    else:
        out.write(render_rule_text(doc))
    return EXIT_CLEAN
