"""What every sub-command of ``binpack-lint`` shares: exit codes, the usage error, the parser class."""

from __future__ import annotations

import argparse
from typing import NoReturn

PROG = "binpack-lint"
EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A problem with how the command was called; shown as one line, exit code 2."""


class CliParser(argparse.ArgumentParser):
    """argparse with the house error convention: one line ``<prog>: error: <reason>``, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")
