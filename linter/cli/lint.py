"""``binpack-lint [lint] [OPTIONS] PATH...``: arguments -> LintSettings -> engine -> reporter -> exit code.

Deliberately thin: checking lives in ``linter.engine`` (which also isolates a crash in one file
as that file's BPL009 finding), formatting in ``linter.reporters``, configuration in
``linter.config``. Exit codes: 0 no error finding; 1 an error finding (or any finding with
``--strict``); 2 a usage or configuration error, an unreadable path (BPL002) or an internal
error (BPL009).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from linter.cli import fixing
from linter.cli.common import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, PROG, UsageError
from linter.config import ConfigError, ProjectConfig, discover, load, normalize_selector
from linter.filecodes import EMPTY_FILE, INTERNAL_ERROR, UNREADABLE_FILE, UNRECOGNIZED_DOCUMENT
from linter.findings import Finding, Severity
from linter.fixes import FilePlan
from linter.reporters import FORMAT_CHOICES, RunInfo, RunSummary, create, resolve_format
from linter.settings import KINDS, SCHEDULERS, LintSettings

NAME = "lint"
HELP = "lint files and directories (the default sub-command)"


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        NAME, prog=PROG, help=HELP,
        description="Lint kube-scheduler, legacy Policy and Volcano scheduler configs and PriorityClasses.",
        epilog="Other sub-commands: 'rules' lists the rules, 'rule BPLnnn' documents one, "
        "'explain' explains scores, 'migrate FILE' rewrites an old config for kube-scheduler 1.36. "
        "Exit codes: 0 clean, 1 error findings, 2 usage/config/unreadable.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="files or directories (recursing into *.yaml, *.yml, *.json, *.conf, *.cfg); - for stdin")
    parser.add_argument("-f", "--format", default="auto", choices=FORMAT_CHOICES,
                        help="output format (default: auto = github under GitHub Actions, else text)")
    parser.add_argument("--kind", choices=KINDS, help="treat every document as this format instead of detecting it")
    add_scheduler_option(parser)
    parser.add_argument("--disable", action="append", default=[], metavar="CODES",
                        help="comma-separated rule codes or prefixes to turn off (repeatable)")
    parser.add_argument("--enable", action="append", default=[], metavar="CODES",
                        help="comma-separated rule codes or prefixes to turn on, winning over --disable")
    parser.add_argument("--config", metavar="FILE", help="use this config file instead of searching for one")
    parser.add_argument("--no-config", action="store_true", help="ignore project config files")
    parser.add_argument("--strict", action="store_true", default=None, help="warnings also make the exit code 1")
    parser.add_argument("-j", "--jobs", type=_jobs, default=0, metavar="N",
                        help="check files in N processes (default 0: one per usable CPU; 1: no worker "
                        "processes). Workers start only from 40 files per worker; the report is the same")
    parser.add_argument("--fix", action="store_true",
                        help="repair the findings that have a safe fix (marked [*]: unused suppressions, BPL008) in "
                        "place, then report what is left; with -, print the fixed text and report on stderr")
    parser.add_argument("--diff", action="store_true",
                        help="print the fixes as a unified diff instead of writing them (exit 1 if there is any)")
    parser.add_argument("-q", "--quiet", action="store_true", help="text format: no summary line on stderr")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    return parser


def run(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from linter.engine import lint_paths  # here, not at the top: it loads every rule

    if options.version:
        out.write(f"{PROG} {_version()}\n")
        return EXIT_CLEAN
    if not options.paths:
        raise UsageError("no PATH given (use '-' for standard input; see --help)")
    if options.config and options.no_config:
        raise UsageError("--config and --no-config cannot be used together")
    if options.fix and options.diff:
        raise UsageError("--fix and --diff cannot be used together (--diff writes nothing)")
    if options.fix and "-" in options.paths and len(options.paths) > 1:
        raise UsageError("--fix with '-' prints the fixed standard input: give no other PATH")
    project = project_config(options.config, options.no_config)
    settings = build_settings(project, options)
    stdin_text, stdin_findings, stdin_bom = _read_stdin() if "-" in options.paths else (None, [], False)
    jobs = _worker_count(options.jobs)
    run = lint_paths(options.paths, settings, stdin_text, jobs=jobs)
    findings = sorted(stdin_findings + run.findings)
    planned = fixing.plans(findings, settings, stdin_text, stdin_bom)
    if options.diff:
        return _show_diff(planned, exit_code(findings, strict=settings.strict), options, out, err)
    failed = False
    if options.fix:
        if "-" in options.paths:
            fixed = planned[0].text if planned else stdin_text or ""
            fixing.print_exactly(out, ("\ufeff" if stdin_bom else "") + fixed)
            out = err  # stdout holds the fixed text: the report goes to stderr
        failed = _write_fixes(planned, options, err)
        if planned:  # report the fixed files as they are now
            stdin_text = planned[0].text if options.paths == ["-"] else stdin_text
            run = lint_paths(options.paths, settings, stdin_text, jobs=jobs)
            findings = sorted(stdin_findings + run.findings)
            planned = fixing.plans(findings, settings, stdin_text, stdin_bom)
    findings = fixing.mark(findings, planned)
    code = EXIT_USAGE if failed else exit_code(findings, strict=settings.strict)
    reporter = create(resolve_format(options.format), out, err, quiet=options.quiet)
    reporter.start(RunInfo())
    for finding in findings:
        reporter.finding(finding)
    errors = sum(f.severity is Severity.ERROR for f in findings)
    reporter.finish(RunSummary(run.paths, run.files, errors, len(findings) - errors, code))
    return code


def _show_diff(planned: Sequence[FilePlan], lint_code: int, options: argparse.Namespace,
               out: TextIO, err: TextIO) -> int:
    """``--diff``: the fixes as one unified diff; 2 if a path could not be read, 1 if there is a fix, else 0."""
    planned = fixing.one_per_file(planned)
    fixing.print_exactly(out, "".join(fixing.unified_diff(fix) for fix in planned))
    if not options.quiet and _text_format(options):
        err.write(f"{PROG}: {_count(planned)} can be fixed with --fix\n")
    return EXIT_USAGE if lint_code == EXIT_USAGE else EXIT_FINDINGS if planned else EXIT_CLEAN


def _write_fixes(planned: Sequence[FilePlan], options: argparse.Namespace, err: TextIO) -> bool:
    """Write every planned file (standard input was printed already); True if one could not be written."""
    written: list[FilePlan] = []
    failed = False
    for fix in fixing.one_per_file(planned):
        if fix.path == fixing.STDIN:
            written.append(fix)
        elif (reason := fixing.write(fix)) is not None:
            err.write(f"{PROG}: error: cannot write {fix.path}: {reason}\n")
            failed = True
        else:
            written.append(fix)
    if not options.quiet and _text_format(options):
        err.write(f"{PROG}: fixed {_count(written)}\n")
    return failed


def _count(planned: Sequence[FilePlan]) -> str:
    """``N findings in M files``."""
    findings = sum(len(p.fixed) for p in planned)
    files = len(planned)
    return f"{findings} finding{'s' if findings != 1 else ''} in {files} file{'s' if files != 1 else ''}"


def _text_format(options: argparse.Namespace) -> bool:
    return resolve_format(options.format) == "text"


def _jobs(value: str) -> int:
    try:
        jobs = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if jobs < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (one per CPU) or more, not {jobs}")
    return jobs


def _worker_count(jobs: int) -> int:
    """``jobs``, or for 0 the CPUs this process may run on."""
    from linter.cpus import usable_cpus

    return jobs or usable_cpus()


# "nothing here to check" warnings: a file that is not a scheduler config never fails a run, even --strict
NOT_CHECKED = frozenset({EMPTY_FILE, UNRECOGNIZED_DOCUMENT})


def exit_code(findings: Sequence[Finding], *, strict: bool) -> int:
    """2 for an unreadable path or an internal error, 1 for an error (with ``strict`` also a warning,
    except the ones saying a file holds nothing to check), else 0."""
    errors = [f for f in findings if f.severity is Severity.ERROR]
    if any(f.rule in (UNREADABLE_FILE, INTERNAL_ERROR) for f in errors):
        return EXIT_USAGE
    if errors or (strict and any(f.rule not in NOT_CHECKED for f in findings)):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def project_config(explicit: str | None, disabled: bool) -> ProjectConfig:
    """The project config named, else the one found from the working directory, else none."""
    if disabled:
        return ProjectConfig()
    if explicit:
        if not os.path.exists(explicit):
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
        **scheduler_settings(project, options.scheduler),
    )


def add_scheduler_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scheduler", choices=SCHEDULERS, default=None,
                        help="the scheduler build kube-scheduler configs are for: kube-scheduler (1.36, the default) "
                        "or scheduler-plugins (kubernetes-sigs/scheduler-plugins); overrides 'scheduler' in the "
                        "project config, whose 'plugins' list adds your own build's plugins")


def scheduler_settings(project: ProjectConfig, option: str | None) -> dict[str, Any]:
    """``scheduler``/``custom_plugins`` for LintSettings; a declared plugin the build already has is an error."""
    from linter.formats.kubesched.builds import resolve

    scheduler = option or project.scheduler or "kube-scheduler"
    taken = resolve(scheduler).plugins
    for name, _ in project.plugins:
        if name in taken:
            raise ConfigError(f"plugins: {name!r} is already registered by {scheduler} (a build cannot register "
                              f"a plugin name twice)", project.path)
    return {"scheduler": scheduler, "custom_plugins": project.plugins}


def _read_stdin() -> tuple[str | None, list[Finding], bool]:
    """Standard input's text (None if unreadable, the findings say why), and whether it starts with a BOM."""
    from linter.engine import MAX_FILE_BYTES, decode_bytes

    raw = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    findings: list[Finding] = []
    if len(raw) > MAX_FILE_BYTES:
        findings.append(Finding("<stdin>", 1, 1, UNREADABLE_FILE, Severity.ERROR,
                                f"input is over the {MAX_FILE_BYTES // (1024 * 1024)} MiB limit for a config file"))
        return None, findings, False
    return decode_bytes(raw, "<stdin>", findings), findings, raw.startswith(fixing.BOM)


def _version() -> str:
    import linter

    return str(linter.__version__)
