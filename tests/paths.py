"""Where the test inputs live: the repository, and ``shared/`` beside it.

``../shared/vectors`` holds the ground-truth vectors (computed by the real Go code or measured on a real
kube-scheduler 1.36); ``../shared/fixtures`` the AdmissionReviews and list/watch traffic recorded from a
real kube-apiserver. CI clones the repository anywhere with ``shared/`` next to it; the environment
variable ``BINPACK_GUARD_SHARED`` overrides the location.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("BINPACK_GUARD_SHARED", ROOT.parent / "shared"))
VECTORS = SHARED / "vectors"
FIXTURES = SHARED / "fixtures"
