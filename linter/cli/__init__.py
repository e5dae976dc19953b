"""``binpack-lint``: one argparse parser with one sub-command per module; the console-script entry.

``binpack-lint [lint] [OPTIONS] PATH...`` lints (``lint`` is the default sub-command, so a first
argument that names no sub-command starts a lint: a file literally named ``rules`` is ``./rules``);
``rules`` lists the rules, ``rule BPLnnn`` documents one, ``explain`` scores a pod node by node,
``migrate FILE`` rewrites a removed-version scheduler config or a legacy Policy for 1.36.

Adding a sub-command is one module ``linter/cli/<name>.py`` that exposes

* ``NAME`` (the word on the command line) and ``HELP`` (one line for ``binpack-lint --help``);
* ``add_parser(subparsers) -> argparse.ArgumentParser``: registers its parser and arguments;
* ``run(args, out, err) -> int``: does the work, writes to ``out``/``err``, returns the exit code;

and one entry in ``COMMANDS`` below. Heavy imports (the engine, the scoring model) belong inside
``run`` so that ``--help`` and the other sub-commands stay fast.

One error convention for every sub-command: a usage error (argparse's, or a
:class:`~linter.cli.common.UsageError` / :class:`~linter.config.ConfigError` raised by ``run``)
is ONE line on stderr, ``binpack-lint <sub>: error: <reason>`` (``binpack-lint: error: ...`` for
``lint``, the default), and exit code 2; never a traceback. Options may follow positional
arguments in every sub-command; after ``--`` everything is positional.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TextIO

from linter.cli import explain, lint, migrate, rule, rules
from linter.cli.common import EXIT_FINDINGS, EXIT_USAGE, PROG, CliParser, UsageError
from linter.config import ConfigError

COMMANDS: tuple[ModuleType, ...] = (lint, rules, rule, explain, migrate)
DEFAULT = lint


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The one parser, and each sub-command's parser by name."""
    parser = CliParser(
        prog=PROG,
        description="Lint kube-scheduler, legacy Policy and Volcano scheduler configs and PriorityClasses, "
        "explain how the scheduler scores a pod, and migrate old scheduler configs to v1.",
        epilog=f"Without a sub-command, '{PROG} PATH...' is '{PROG} lint PATH...'. "
        "Exit codes: 0 clean, 1 error findings, 2 usage/config/unreadable.",
    )
    subparsers = parser.add_subparsers(title="sub-commands", metavar="{" + ",".join(c.NAME for c in COMMANDS) + "}")
    return parser, {command.NAME: command.add_parser(subparsers) for command in COMMANDS}


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Entry point of ``binpack-lint`` and ``python -m linter``; returns the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = out or sys.stdout
    err = err or sys.stderr
    _tolerant_streams()
    parser, subparsers = build_parser()
    if args[:1] in (["-h"], ["--help"]):
        parser.print_help(out)
        return 0
    command = next((c for c in COMMANDS if args[:1] == [c.NAME]), None)
    if command is not None:
        args = args[1:]
    else:
        command = DEFAULT
    sub = subparsers[command.NAME]
    try:
        # options may follow positionals (`binpack-lint a.yaml -f json`); argparse's intermixed
        # mode mishandles `--`, so after an explicit `--` the plain parser is used
        options = sub.parse_args(args) if "--" in args else sub.parse_intermixed_args(args)
        code: int = command.run(options, out, err)
        return code
    except SystemExit as exc:  # --help (0) or a usage error CliParser already wrote (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    except (UsageError, ConfigError) as exc:
        err.write(f"{sub.prog}: error: {exc}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `binpack-lint ... | head`: the reader left, nothing more to say
        _silence_stdout()
        return EXIT_FINDINGS
    except Exception as exc:  # the last resort outside per-file checking (reporter, config): one line
        err.write(f"{sub.prog}: internal error: {type(exc).__name__}: {exc}\n")
        return EXIT_USAGE


def _tolerant_streams() -> None:
    """File names may not be valid UTF-8 (os gives them as surrogate escapes): never crash printing them."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
