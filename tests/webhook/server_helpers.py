"""Helpers for the real-server tests: throw-away CAs and certificates, and a ``binpack-webhook serve`` process.

The server runs as a separate process (real gunicorn, real TLS) bound to 127.0.0.1 and pointed at a
``ReplayServer`` through ``--kubeconfig``, so the whole stack (client, cache, app) is exercised.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


@dataclass(frozen=True)
class KeyPair:
    cert: x509.Certificate
    key: ec.EllipticCurvePrivateKey

    @property
    def cert_pem(self) -> bytes:
        return self.cert.public_bytes(serialization.Encoding.PEM)

    @property
    def key_pem(self) -> bytes:
        return self.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption())

    @property
    def der(self) -> bytes:
        return self.cert.public_bytes(serialization.Encoding.DER)


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def make_ca(common_name: str) -> KeyPair:
    key = ec.generate_private_key(ec.SECP256R1())
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder().subject_name(_name(common_name)).issuer_name(_name(common_name))
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5)).not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                     content_commitment=False, key_encipherment=False, data_encipherment=False,
                                     key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    return KeyPair(cert, key)


def make_leaf(ca: KeyPair, common_name: str = "binpack-guard", *, client: bool = False) -> KeyPair:
    key = ec.generate_private_key(ec.SECP256R1())
    now = dt.datetime.now(dt.UTC)
    sans = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    cert = (
        x509.CertificateBuilder().subject_name(_name(common_name)).issuer_name(ca.cert.subject)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5)).not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName(sans), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.CLIENT_AUTH if client
                                              else x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca.key.public_key()), critical=False)
        .sign(ca.key, hashes.SHA256())
    )
    return KeyPair(cert, key)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def client_context(
    *cas: KeyPair, maximum: ssl.TLSVersion | None = None, identity: KeyPair | None = None, tmp: Path | None = None
) -> ssl.SSLContext:
    """Trusts ``cas``; presents ``identity`` as client certificate (written under ``tmp``) when given."""
    context = ssl.create_default_context(cadata="".join(ca.cert_pem.decode() for ca in cas))
    if maximum is not None:
        context.maximum_version = maximum
    if identity is not None:
        assert tmp is not None
        cert, key = tmp / f"client-{id(identity)}.crt", tmp / f"client-{id(identity)}.key"
        cert.write_bytes(identity.cert_pem)
        key.write_bytes(identity.key_pem)
        context.load_cert_chain(cert, key)
    return context


class ServerProcess:
    """``python -m webhook serve`` on 127.0.0.1:<free port>; stopped with SIGTERM (graceful).

    With ``gunicorn_app`` ("module:factory()", importable from ``pythonpath``) it runs plain gunicorn with
    ``webhook.server.gunicorn_conf`` instead, configured through the same ``BINPACK_GUARD_*`` variables.
    """

    def __init__(self, tmp: Path, kubeconfig: Path, *, tls: KeyPair | None, extra: list[str] | None = None,
                 env: dict[str, str] | None = None, gunicorn_app: str | None = None,
                 pythonpath: str = ".", kubeconfig_from_env: bool = False) -> None:
        self.port = free_port()
        self.cert_file, self.key_file = tmp / "tls.crt", tmp / "tls.key"
        args = [sys.executable, "-m", "webhook", "serve", "--bind", f"127.0.0.1:{self.port}", *(extra or [])]
        env = dict(env or {})
        if kubeconfig_from_env:
            env["BINPACK_GUARD_KUBECONFIG"] = str(kubeconfig)
        else:
            args += ["--kubeconfig", str(kubeconfig)]
        if tls is not None:
            self.cert_file.write_bytes(tls.cert_pem)
            self.key_file.write_bytes(tls.key_pem)
            args += ["--tls-cert-file", str(self.cert_file), "--tls-private-key-file", str(self.key_file)]
        clean = {k: v for k, v in os.environ.items() if not k.startswith("BINPACK_GUARD_")}
        if gunicorn_app is not None:
            clean.update({"BINPACK_GUARD_BIND": f"127.0.0.1:{self.port}", "BINPACK_GUARD_KUBECONFIG": str(kubeconfig)})
            if tls is not None:
                clean.update({"BINPACK_GUARD_TLS_CERT_FILE": str(self.cert_file),
                              "BINPACK_GUARD_TLS_PRIVATE_KEY_FILE": str(self.key_file)})
            args = [sys.executable, "-m", "gunicorn", "-c", "python:webhook.server.gunicorn_conf",
                    "--pythonpath", pythonpath, gunicorn_app]
        self.log_path = tmp / f"server-{self.port}.log"
        self._log = self.log_path.open("wb")
        self.proc = subprocess.Popen(args, env={**clean, **env}, stdout=self._log, stderr=subprocess.STDOUT)

    @property
    def address(self) -> tuple[str, int]:
        return ("127.0.0.1", self.port)

    def wait_listening(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited {self.proc.returncode}: {self.log()}")
            try:
                with socket.create_connection(self.address, timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"server did not listen within {timeout}s: {self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]

    def worker_pids(self) -> list[int]:
        """The gunicorn workers: the master's child processes (Linux ``/proc``)."""
        pids = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:  # the process ended while we looked
                continue
            if int(fields[1]) == self.proc.pid:
                pids.append(int(stat.parent.name))
        return pids

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(40)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()
