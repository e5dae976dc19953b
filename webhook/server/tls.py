"""Server TLS context that follows certificate rotation on disk without a restart.

gunicorn asks its ``ssl_context`` hook for a context on *every* new connection, so
``ReloadingTLSContext.current()`` is called per accept: at most once per ``check_interval`` it stats the
certificate and key files and, if they changed, builds a complete new ``SSLContext`` from them. The new
context replaces the old one only if it loaded cleanly, i.e. both files parse and the key matches the
certificate (``load_cert_chain`` checks that). A half-written file or a cert/key pair caught mid-rotation
therefore keeps the previous context, and the check is retried later. Connections already open keep the
context they were accepted with, so no in-flight request is dropped. TLS 1.2 is the minimum version.
"""

from __future__ import annotations

import hashlib
import logging
import os
import ssl
import threading
import time
from pathlib import Path

log = logging.getLogger(__name__)


class TLSConfigError(Exception):
    """The certificate or key file cannot be used (one-line message naming the file)."""


def build_server_context(cert_file: str, key_file: str) -> ssl.SSLContext:
    """A TLS>=1.2 server context for ``cert_file``/``key_file``; raises TLSConfigError if they are unusable."""
    for path in (cert_file, key_file):
        if not os.path.isfile(path):
            raise TLSConfigError(f"{path}: no such file")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2  # the apiserver speaks 1.2/1.3; nothing older is safe
    context.set_alpn_protocols(["http/1.1"])  # gthread serves HTTP/1.1; never advertise h2
    try:
        context.load_cert_chain(certfile=cert_file, keyfile=key_file)
    except (ssl.SSLError, OSError, ValueError) as exc:
        raise TLSConfigError(f"{cert_file} / {key_file}: not a matching PEM certificate and key: {exc}") from None
    return context


def _signature(*paths: str) -> tuple[tuple[int, int, int], ...]:
    out = []
    for path in paths:
        st = os.stat(path)  # follows symlinks: Kubernetes secret volumes swap a ..data symlink
        out.append((st.st_mtime_ns, st.st_size, st.st_ino))
    return tuple(out)


def _digest(*paths: str) -> bytes:
    hasher = hashlib.sha256()
    for path in paths:
        hasher.update(Path(path).read_bytes())
        hasher.update(b"\0")
    return hasher.digest()


class ReloadingTLSContext:
    """Holds the current server context and swaps in a new one when the files on disk change."""

    def __init__(self, cert_file: str, key_file: str, *, check_interval: float = 1.0) -> None:
        self.cert_file, self.key_file, self.check_interval = cert_file, key_file, check_interval
        self._lock = threading.Lock()
        self._signature = _signature(cert_file, key_file)
        self._digest = _digest(cert_file, key_file)
        self._context = build_server_context(cert_file, key_file)
        self._checked_at = time.monotonic()
        self.reloads = 0

    def current(self) -> ssl.SSLContext:
        now = time.monotonic()
        if now - self._checked_at >= self.check_interval and self._lock.acquire(blocking=False):
            try:  # only one thread checks; the others keep using the current context meanwhile
                self._checked_at = now
                self._maybe_reload()
            finally:
                self._lock.release()
        return self._context

    def _maybe_reload(self) -> None:
        try:
            signature = _signature(self.cert_file, self.key_file)
            if signature == self._signature:
                return
            digest = _digest(self.cert_file, self.key_file)
            if digest == self._digest:  # touched but identical
                self._signature = signature
                return
            context = build_server_context(self.cert_file, self.key_file)
            if _digest(self.cert_file, self.key_file) != digest:  # changed again while loading: retry later
                return
        except (OSError, TLSConfigError) as exc:
            log.warning("TLS files changed but are not usable yet (keeping the current certificate): %s", exc)
            return
        self._context, self._signature, self._digest = context, signature, digest
        self.reloads += 1
        log.info("TLS certificate reloaded from %s", self.cert_file)
