"""Keep the webhook's certificates in a local directory (``binpack-webhook certs --local-dir DIR``).

Used for local runs and tests: the server can be pointed at ``DIR/tls.crt`` and ``DIR/tls.key`` and a client
at ``DIR/ca.crt``. Files are replaced atomically (write a temporary file, then rename), keys are mode 0600, and
a file whose content would not change is not touched, so its mtime shows when it really changed.
"""

from __future__ import annotations

import os
import sys
import tempfile
from datetime import datetime
from pathlib import Path

from webhook.certs.plan import CertMaterial, CertPolicy, issue, make_plan
from webhook.certs.x509 import CertificateDataError

# file name -> CertMaterial field; keys are written before certificates so that a reader that notices the
# new certificate also finds its key.
FILES = (("ca.key", "ca_key"), ("ca.crt", "ca_bundle"), ("tls.key", "tls_key"), ("tls.crt", "tls_cert"))
PRIVATE = frozenset({"ca.key", "tls.key"})


def load(directory: Path) -> CertMaterial:
    """Read whatever is there; missing files count as empty."""
    values: dict[str, bytes] = {}
    for name, field in FILES:
        path = directory / name
        values[field] = path.read_bytes() if path.is_file() else b""
    return CertMaterial(**values)


def save(directory: Path, material: CertMaterial) -> list[str]:
    """Write the files whose content differs; returns their names."""
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    current = load(directory)
    written: list[str] = []
    for name, field in FILES:
        data: bytes = getattr(material, field)
        if data == getattr(current, field):
            continue
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{name}.")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.chmod(tmp, 0o600 if name in PRIVATE else 0o644)
            os.replace(tmp, directory / name)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        written.append(name)
    return written


def reconcile(directory: str, now: datetime, policy: CertPolicy) -> int:
    """Plan, issue and save; print one line saying what happened. Returns the process exit code."""
    path = Path(directory)
    try:
        current = load(path)
        plan = make_plan(current, now, policy)
        updated = issue(plan, current, now, policy)
        written = save(path, updated)
    except (OSError, CertificateDataError) as exc:
        print(f"binpack-webhook certs: {directory}: {exc}", file=sys.stderr)
        return 1
    changed = ", ".join(written) if written else "nothing written"
    print(f"certs: {plan.action.value}: {plan.reason}; {path}: {changed}")
    return 0
