"""Server TLS context that follows certificate rotation on disk without a restart.

gunicorn asks its ``ssl_context`` hook for a context on *every* new connection, so
``ReloadingTLSContext.current()`` is called per accept: at most once per ``check_interval`` it stats the
certificate and key files and, if they changed, builds a complete new ``SSLContext`` from them. The new
context replaces the old one only if it loaded cleanly, i.e. both files parse and the key matches the
certificate (``load_cert_chain`` checks that). A half-written file or a cert/key pair caught mid-rotation
therefore keeps the previous context, and the check is retried later. Connections already open keep the
context they were accepted with, so no in-flight request is dropped. TLS 1.2 is the minimum version, with an
explicit list of forward-secret AEAD suites (TLS 1.3 suites are fixed by OpenSSL and all qualify).

With a client CA the context asks for a client certificate (``CERT_OPTIONAL`` or ``CERT_REQUIRED``) and verifies
it; ``peer_names`` then reads the verified certificate's CN and DNS SANs from the request's socket, which is how
the routes recognise the apiserver (it presents the client certificate its AdmissionConfiguration names).
"""

from __future__ import annotations

import hashlib
import logging
import os
import ssl
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


# TLS 1.2 suites the Go TLS stack of kube-apiserver offers by default and that are forward-secret AEADs.
TLS12_CIPHERS = ":".join((
    "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
    "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
    "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
))


class TLSConfigError(Exception):
    """The certificate or key file cannot be used (one-line message naming the file)."""


def build_server_context(
    cert_file: str, key_file: str, client_ca_file: str | None = None, client_cert_required: bool = False
) -> ssl.SSLContext:
    """A TLS>=1.2 server context for ``cert_file``/``key_file`` (verifying client certificates against
    ``client_ca_file`` when given); raises TLSConfigError if a file is unusable."""
    for path in (cert_file, key_file, *([client_ca_file] if client_ca_file else [])):
        if not os.path.isfile(path):
            raise TLSConfigError(f"{path}: no such file")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2  # the apiserver speaks 1.2/1.3; nothing older is safe
    context.set_ciphers(TLS12_CIPHERS)
    context.set_alpn_protocols(["http/1.1"])  # the workers serve HTTP/1.1; never advertise h2
    try:
        context.load_cert_chain(certfile=cert_file, keyfile=key_file)
    except (ssl.SSLError, OSError, ValueError) as exc:
        raise TLSConfigError(f"{cert_file} / {key_file}: not a matching PEM certificate and key: {exc}") from None
    if client_ca_file:
        try:
            context.load_verify_locations(cafile=client_ca_file)
        except (ssl.SSLError, OSError, ValueError) as exc:
            raise TLSConfigError(f"{client_ca_file}: not a PEM CA certificate: {exc}") from None
        context.verify_mode = ssl.CERT_REQUIRED if client_cert_required else ssl.CERT_OPTIONAL
    return context


def peer_names(environ: Mapping[str, Any]) -> frozenset[str]:
    """CN and DNS SANs of the client certificate verified on this request's connection (empty if none)."""
    sock = environ.get("gunicorn.socket") or environ.get("gunicorn.sock")  # gthread/sync; gevent
    if not isinstance(sock, ssl.SSLSocket):
        return frozenset()
    try:
        cert = sock.getpeercert()
    except (ValueError, OSError):
        return frozenset()
    if not cert:
        return frozenset()
    subject: Any = cert.get("subject", ())  # ((("commonName", "x"),), ...) as the ssl module decodes it
    alt_names: Any = cert.get("subjectAltName", ())
    names = {str(pair[1]) for rdn in subject for pair in rdn if pair[0] == "commonName"}
    names |= {str(value) for kind, value in alt_names if kind == "DNS"}
    return frozenset(names)


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

    def __init__(
        self, cert_file: str, key_file: str, *, check_interval: float = 1.0, client_ca_file: str | None = None,
        client_cert_required: bool = False,
    ) -> None:
        self.cert_file, self.key_file, self.check_interval = cert_file, key_file, check_interval
        self._client = (client_ca_file, client_cert_required)
        self._files = (cert_file, key_file, *([client_ca_file] if client_ca_file else []))
        self._lock = threading.Lock()
        self._signature = _signature(*self._files)
        self._digest = _digest(*self._files)
        self._context = build_server_context(cert_file, key_file, *self._client)
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
            signature = _signature(*self._files)
            if signature == self._signature:
                return
            digest = _digest(*self._files)
            if digest == self._digest:  # touched but identical
                self._signature = signature
                return
            context = build_server_context(self.cert_file, self.key_file, *self._client)
            if _digest(*self._files) != digest:  # changed again while loading: retry later
                return
        except (OSError, TLSConfigError) as exc:
            log.warning("TLS files changed but are not usable yet (keeping the current certificate): %s", exc)
            return
        self._context, self._signature, self._digest = context, signature, digest
        self.reloads += 1
        log.info("TLS certificate reloaded from %s", self.cert_file)


# How often a worker waiting for usable TLS files tries them again, and how often it says so in the log.
FIRST_LOAD_POLL = 0.25
FIRST_LOAD_WARN_EVERY = 10.0


def load_when_usable(
    cert_file: str, key_file: str, *, heartbeat: Callable[[], object], client_ca_file: str | None = None,
    client_cert_required: bool = False, poll: float = FIRST_LOAD_POLL, warn_every: float = FIRST_LOAD_WARN_EVERY,
) -> ReloadingTLSContext:
    """A worker's first TLS context, waiting while the files are unusable (caught mid-rotation).

    A worker has no earlier certificate to fall back on, so it must not take connections before this
    returns: a handshake without a context closes the client's socket unread, which the client sees as a
    connection reset. ``heartbeat`` is called on every try so gunicorn's arbiter does not take the wait for
    a wedged worker; a warning is logged on the first failed try and then every ``warn_every`` seconds.
    """
    warned_at: float | None = None
    while True:
        try:
            return ReloadingTLSContext(cert_file, key_file, client_ca_file=client_ca_file,
                                       client_cert_required=client_cert_required)
        except (OSError, TLSConfigError) as exc:
            now = time.monotonic()
            if warned_at is None or now - warned_at >= warn_every:
                log.warning("TLS files not usable (waiting for them before taking connections): %s", exc)
                warned_at = now
        heartbeat()
        time.sleep(poll)
