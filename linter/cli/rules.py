"""``binpack-lint rules``: every rule (code, name, default severity, summary) as text, JSON or Markdown."""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from linter.cli.common import EXIT_CLEAN

NAME = "rules"
HELP = "list every rule"


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(NAME, help=HELP, description="List every rule.")
    parser.add_argument("-f", "--format", choices=("text", "json", "markdown"), default="text")
    return parser


def run(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from linter.docs import all_rule_docs, render_table_markdown, render_table_text

    docs = all_rule_docs()
    if options.format == "json":
        out.write(json.dumps({"rules": [d.as_dict() for d in docs]}, indent=2) + "\n")
    elif options.format == "markdown":
        out.write(render_table_markdown(docs))
    else:
        out.write(render_table_text(docs))
    return EXIT_CLEAN
