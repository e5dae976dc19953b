"""Where the test inputs live: the repository, and ``shared/`` beside it (vectors and recorded fixtures).

CI clones the repository anywhere with ``shared/`` next to it; ``BINPACK_GUARD_SHARED`` overrides.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("BINPACK_GUARD_SHARED", ROOT.parent / "shared"))
