"""``binpack-lint``: arguments -> LintSettings -> engine -> reporter -> exit code.

The composition root of the command line, and deliberately thin: checking lives in
``linter.engine``, formatting in ``linter.reporters``, configuration in ``linter.config``.

Commands: ``binpack-lint [OPTIONS] PATH...`` lints; ``rules``, ``rule BPLnnn`` and ``explain``
are subcommands only as the FIRST argument (a file literally named ``rules`` is ``./rules``).
Exit codes: 0 no error finding; 1 an error finding (or any finding with ``--strict``); 2 a
usage or configuration error, an unreadable path (BPL002) or an internal error (BPL009).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from linter.config import ConfigError, ProjectConfig, discover, load, normalize_selector
from linter.findings import Finding, Severity
from linter.reporters import FORMAT_CHOICES, RunInfo, RunSummary, create, resolve_format
from linter.settings import KINDS, LintSettings

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
SUBCOMMANDS = ("rules", "rule", "explain")
CODE_UNREADABLE = "BPL002"
CODE_INTERNAL = "BPL009"
PROG = "binpack-lint"


class UsageError(Exception):
    """A problem with how the command was called; shown as one line, exit code 2."""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``binpack-lint`` and ``python -m linter``; returns the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    _tolerant_streams()
    try:
        if args and args[0] in SUBCOMMANDS:
            from linter import cli_rules

            return cli_rules.dispatch(args[0], args[1:], sys.stdout, sys.stderr)
        return lint_command(args, sys.stdout, sys.stderr)
    except SystemExit as exc:  # argparse's --help / usage errors
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    except (UsageError, ConfigError) as exc:
        sys.stderr.write(f"{PROG}: error: {exc}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `binpack-lint ... | head`: the reader left, nothing more to say
        _silence_stdout()
        return EXIT_FINDINGS
    except Exception as exc:  # the last resort outside per-file checking (reporter, config): one line, no traceback
        sys.stderr.write(f"{PROG}: internal error: {type(exc).__name__}: {exc}\n")
        return EXIT_USAGE


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Lint kube-scheduler, legacy Policy and Volcano scheduler configs and PriorityClasses.",
        epilog="Subcommands (first argument only): 'rules' lists the rules, 'rule BPLnnn' documents one, "
        "'explain' explains scores. Exit codes: 0 clean, 1 error findings, 2 usage/config/unreadable.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="files or directories (recursing into *.yaml, *.yml, *.json, *.conf, *.cfg); - for stdin")
    parser.add_argument("-f", "--format", default="auto", choices=FORMAT_CHOICES,
                        help="output format (default: auto = github under GitHub Actions, else text)")
    parser.add_argument("--kind", choices=KINDS, help="treat every document as this format instead of detecting it")
    parser.add_argument("--disable", action="append", default=[], metavar="CODES",
                        help="comma-separated rule codes or prefixes to turn off (repeatable)")
    parser.add_argument("--enable", action="append", default=[], metavar="CODES",
                        help="comma-separated rule codes or prefixes to turn on, winning over --disable")
    parser.add_argument("--config", metavar="FILE", help="use this config file instead of searching for one")
    parser.add_argument("--no-config", action="store_true", help="ignore project config files")
    parser.add_argument("--strict", action="store_true", default=None, help="warnings also make the exit code 1")
    parser.add_argument("-q", "--quiet", action="store_true", help="text format: no summary line on stderr")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    return parser


def lint_command(argv: list[str], out: TextIO, err: TextIO) -> int:
    parser = build_parser()
    # options may follow paths (`binpack-lint a.yaml -f json`); argparse's intermixed mode
    # mishandles `--`, so after an explicit `--` the plain parser is used
    options = parser.parse_args(argv) if "--" in argv else parser.parse_intermixed_args(argv)
    if options.version:
        out.write(f"{PROG} {_version()}\n")
        return EXIT_CLEAN
    if not options.paths:
        raise UsageError("no PATH given (use '-' for standard input; see --help)")
    if options.config and options.no_config:
        raise UsageError("--config and --no-config cannot be used together")
    project = _project_config(options.config, options.no_config)
    settings = build_settings(project, options)
    stdin_text, stdin_findings = _read_stdin() if "-" in options.paths else (None, [])
    run_findings, paths, files = lint_safely(options.paths, settings, stdin_text)
    findings = sorted(stdin_findings + run_findings)
    code = exit_code(findings, strict=settings.strict)
    reporter = create(resolve_format(options.format), out, err, quiet=options.quiet)
    reporter.start(RunInfo())
    for finding in findings:
        reporter.finding(finding)
    errors = sum(f.severity is Severity.ERROR for f in findings)
    reporter.finish(RunSummary(paths, files, errors, len(findings) - errors, code))
    return code


def exit_code(findings: Sequence[Finding], *, strict: bool) -> int:
    """2 for an unreadable path or an internal error, 1 for an error (any finding if strict), else 0."""
    errors = [f for f in findings if f.severity is Severity.ERROR]
    if any(f.rule in (CODE_UNREADABLE, CODE_INTERNAL) for f in errors):
        return EXIT_USAGE
    if errors or (strict and findings):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _project_config(explicit: str | None, disabled: bool) -> ProjectConfig:
    if disabled:
        return ProjectConfig()
    if explicit:
        if not os.path.isfile(explicit):
            raise ConfigError("config file not found", explicit)
        return load(explicit)
    found = discover(os.getcwd())
    return load(found) if found else ProjectConfig()


def _selectors(values: Sequence[str], option: str) -> frozenset[str]:
    selected: set[str] = set()
    for value in values:
        for part in value.split(","):
            if not part.strip():
                continue
            try:
                selected.add(normalize_selector(part))
            except ValueError as exc:
                raise UsageError(f"{option}: {exc}") from None
    return frozenset(selected)


def build_settings(project: ProjectConfig, options: argparse.Namespace) -> LintSettings:
    """Config file first, then the command line: a code named on the command line beats the file."""
    cli_disable = _selectors(options.disable, "--disable")
    cli_enable = _selectors(options.enable, "--enable")
    return LintSettings(
        kind=options.kind,
        disabled=(project.disable - cli_enable) | cli_disable,
        enabled=(project.enable - cli_disable) | cli_enable,
        severity_overrides=dict(project.severity),
        strict=bool(options.strict) or project.strict,
    )


def _read_stdin() -> tuple[str | None, list[Finding]]:
    from linter.engine import MAX_FILE_BYTES, decode_bytes

    raw = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    findings: list[Finding] = []
    if len(raw) > MAX_FILE_BYTES:
        findings.append(Finding("<stdin>", 1, 1, CODE_UNREADABLE, Severity.ERROR,
                                f"input is over the {MAX_FILE_BYTES // (1024 * 1024)} MiB limit for a config file"))
        return None, findings
    return decode_bytes(raw, "<stdin>", findings), findings


def lint_safely(paths: Sequence[str], settings: LintSettings,
                stdin_text: str | None) -> tuple[list[Finding], list[str], int]:
    """(findings, files read, file count). A crash in the engine is retried file by file so that
    one bad file costs one BPL009 finding, not the run (cross-file checks are lost in that case)."""
    from linter import engine

    try:
        run = engine.lint_paths(paths, settings, stdin_text)
        return run.findings, run.paths, run.files
    except Exception:  # a bug somewhere in the engine or a rule; isolate it below
        pass
    fallback = engine.LintRun()
    findings: list[Finding] = []
    for path, explicit in engine._expand(paths, fallback):
        text = stdin_text if path == "-" else engine._read(path, fallback)
        shown = "<stdin>" if path == "-" else path
        if text is None:
            continue
        fallback.paths.append(shown)
        try:
            findings.extend(engine.lint_text(text, shown, settings, explicit=explicit))
        except Exception as exc:  # RecursionError and MemoryError included: the last resort
            findings.append(Finding(shown, 1, 1, CODE_INTERNAL, Severity.ERROR,
                                    f"internal error while checking this file: {type(exc).__name__}: {exc}"[:500]))
    return sorted(set(fallback.findings + findings)), fallback.paths, len(fallback.paths)


def _version() -> str:
    import linter

    return str(linter.__version__)


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
