"""``python -m linter``: the same command as ``binpack-lint``."""

import sys

from linter.cli import main

if __name__ == "__main__":
    sys.exit(main())
