"""``binpack-lint migrate FILE [--write]``: the command line of :mod:`linter.migrate` (issue 8).

Prints the migrated file on stdout (or, with ``--write``, replaces the file atomically: a
temporary file in the same directory, fsync'd, then renamed over the original, keeping its
permission bits). What was changed goes to stderr; so do the linter's findings on the result.
Exit 0: the result is a config kube-scheduler 1.36 accepts and scores as the original did;
1: it is printed (or written) but a migration note or a lint finding is an error; 2: the
input could not be read or holds nothing to migrate (one line on stderr).
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from linter.atomicwrite import write_atomically
from linter.cli.common import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE
from linter.cli.lint import add_scheduler_option

NAME = "migrate"
HELP = "rewrite a removed-version scheduler config or a legacy Policy for kube-scheduler 1.36 (v1)"
DESCRIPTION = (
    "Rewrite a KubeSchedulerConfiguration of a removed apiVersion (v1alpha1, v1alpha2, v1beta1, v1beta2, v1beta3) "
    "or a legacy scheduler Policy (JSON or YAML), bare or inside a ConfigMap, as kubescheduler.config.k8s.io/v1 "
    "for kube-scheduler 1.36, keeping what it scores with. The result goes to stdout; what changed goes to stderr.")
EPILOG = ("Exit codes: 0 migrated (or already v1); 1 migrated as far as possible, but the result is not accepted "
          "or cannot score as the original did (the reasons are on stderr); 2 unreadable file or nothing to migrate.")
MAX_BYTES = 10 * 1024 * 1024
LABELS = {"change": "changed"}  # how a note's level reads on stderr: error, changed, unchanged


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("file", metavar="FILE", help="the config file to migrate")
    parser.add_argument("--write", action="store_true",
                        help="replace FILE with the result (atomically) instead of printing it")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only errors on stderr, not the changes")
    add_scheduler_option(parser)
    parser.add_argument("--project-config", metavar="FILE", dest="project_config",
                        help="project config to read 'scheduler' and 'plugins' from "
                        "(default: searched for as lint does)")
    return parser


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from linter.cli.lint import project_config, scheduler_settings
    from linter.findings import Severity  # here, not at the top: --help stays fast
    from linter.migrate import ERROR, MigrateError, check, migrate_text
    from linter.settings import LintSettings
    from linter.textfile import TextFileError, read_text

    # the build decides which plugin names the migrated config may use (out-of-tree ones included)
    build = LintSettings(**scheduler_settings(project_config(args.project_config, disabled=False), args.scheduler))

    path: str = args.file
    try:
        text = read_text(path, MAX_BYTES)
        migration = migrate_text(text)
    except (TextFileError, MigrateError) as exc:
        err.write(f"{path}: error: {exc}\n")
        return EXIT_USAGE
    findings = check(migration, path, build)
    for note in migration.notes:
        if note.level == ERROR or not args.quiet:
            err.write(f"{path}: {LABELS.get(note.level, note.level)}: {note.render()}\n")
    for finding in findings:
        if finding.severity is Severity.ERROR or not args.quiet:
            err.write(finding.as_text() + "\n")
    if args.write:
        if migration.changed:
            try:
                write_atomically(path, migration.text.encode("utf-8"))
            except OSError as exc:
                err.write(f"{path}: error: cannot write: {exc.strerror or exc}\n")
                return EXIT_USAGE
            if not args.quiet:
                err.write(f"{path}: written\n")
    else:
        out.write(migration.text)
    failed = migration.errors or any(f.severity is Severity.ERROR for f in findings)
    return EXIT_FINDINGS if failed else EXIT_CLEAN
