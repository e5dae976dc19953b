"""X.509 building blocks for the webhook's own certificates: make a CA, make a serving certificate, read them back.

Everything here is computation over PEM bytes (``cryptography``); nothing touches files or the network. Keys are
RSA 2048, the cert-manager default, so the serving certificate's key usages (digitalSignature + keyEncipherment)
mean what they say for every TLS client the apiserver may use.

``not_before`` is set a few minutes in the past so that an apiserver whose clock runs slightly behind the Job's
still accepts a certificate issued a moment ago.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

RSA_KEY_BITS = 2048
CLOCK_SKEW = timedelta(minutes=5)


class CertificateDataError(ValueError):
    """PEM data that cannot be read as the certificate or key it should be."""


@dataclass(frozen=True)
class KeyPair:
    """A certificate and its private key, both PEM."""

    cert_pem: bytes
    key_pem: bytes


@dataclass(frozen=True)
class CertInfo:
    """What the planner needs to know about one certificate."""

    subject: str
    not_before: datetime
    not_after: datetime
    is_ca: bool
    dns_names: frozenset[str]
    ip_addresses: frozenset[str]
    fingerprint: str

    def fraction_elapsed(self, now: datetime) -> float:
        """How much of the validity period has passed at ``now`` (0.0 at not_before, 1.0 at not_after)."""
        total = (self.not_after - self.not_before).total_seconds()
        if total <= 0:
            return 1.0
        return (now - self.not_before).total_seconds() / total

    def renewal_time(self, fraction: float) -> datetime:
        """The moment at which ``fraction`` of the validity period has passed."""
        return self.not_before + (self.not_after - self.not_before) * fraction


def _new_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=RSA_KEY_BITS)


def _key_pem(key: rsa.RSAPrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def generate_ca(now: datetime, validity: timedelta, common_name: str) -> KeyPair:
    """A self-signed CA that may sign leaf certificates only (pathLen 0)."""
    key = _new_key()
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    public = key.public_key()
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - CLOCK_SKEW)
        .not_valid_after(now + validity)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .sign(key, hashes.SHA256())
    )
    return KeyPair(cert.public_bytes(serialization.Encoding.PEM), _key_pem(key))


def generate_serving(
    ca: KeyPair, dns_names: tuple[str, ...], ip_addresses: tuple[str, ...], now: datetime, validity: timedelta
) -> KeyPair:
    """A TLS server certificate for ``dns_names``/``ip_addresses`` signed by ``ca``; never outlives the CA."""
    if not dns_names and not ip_addresses:
        raise ValueError("a serving certificate needs at least one DNS name or IP address")
    ca_cert = x509.load_pem_x509_certificate(ca.cert_pem)
    ca_key = serialization.load_pem_private_key(ca.key_pem, password=None)
    if not isinstance(ca_key, rsa.RSAPrivateKey):
        raise CertificateDataError("ca.key: not an RSA private key")
    key = _new_key()
    sans: list[x509.GeneralName] = [x509.DNSName(n) for n in dns_names]
    sans += [x509.IPAddress(ipaddress.ip_address(a)) for a in ip_addresses]
    common_name = dns_names[0] if dns_names else ip_addresses[0]
    not_after = min(now + validity, ca_cert.not_valid_after_utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)]))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - CLOCK_SKEW)
        .not_valid_after(not_after)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=True,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName(sans), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    return KeyPair(cert.public_bytes(serialization.Encoding.PEM), _key_pem(key))


def load_cert(pem: bytes, what: str) -> x509.Certificate:
    """Parse one PEM certificate; ``what`` names the file or Secret key in the error message."""
    try:
        return x509.load_pem_x509_certificate(pem)
    except ValueError as exc:
        raise CertificateDataError(f"{what}: not a PEM certificate ({exc})") from None


def load_certs(pem: bytes, what: str) -> list[x509.Certificate]:
    """Parse a PEM bundle (zero or more certificates)."""
    if not pem.strip():
        return []
    try:
        return x509.load_pem_x509_certificates(pem)
    except ValueError as exc:
        raise CertificateDataError(f"{what}: not a PEM certificate bundle ({exc})") from None


def describe(cert: x509.Certificate) -> CertInfo:
    """The facts about ``cert`` that renewal decisions depend on."""
    try:
        is_ca = bool(cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca)
    except x509.ExtensionNotFound:
        is_ca = False
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        dns = frozenset(san.get_values_for_type(x509.DNSName))
        ips = frozenset(str(a) for a in san.get_values_for_type(x509.IPAddress))
    except x509.ExtensionNotFound:
        dns, ips = frozenset(), frozenset()
    return CertInfo(
        subject=cert.subject.rfc4514_string(),
        not_before=cert.not_valid_before_utc,
        not_after=cert.not_valid_after_utc,
        is_ca=is_ca,
        dns_names=dns,
        ip_addresses=ips,
        fingerprint=cert.fingerprint(hashes.SHA256()).hex(),
    )


def key_matches(cert: x509.Certificate, key_pem: bytes) -> bool:
    """True when ``key_pem`` is the private key of ``cert``."""
    try:
        key = serialization.load_pem_private_key(key_pem, password=None)
    except (ValueError, TypeError):
        return False
    public = cert.public_key()
    pem = serialization.Encoding.PEM
    spki = serialization.PublicFormat.SubjectPublicKeyInfo
    return bool(key.public_key().public_bytes(pem, spki) == public.public_bytes(pem, spki))


def signed_by(cert: x509.Certificate, issuer: x509.Certificate) -> bool:
    """True when ``issuer``'s key signed ``cert`` (RSA PKCS#1 v1.5, as ``generate_serving`` does)."""
    if cert.issuer != issuer.subject:
        return False
    public = issuer.public_key()
    if not isinstance(public, rsa.RSAPublicKey) or cert.signature_hash_algorithm is None:
        return False
    try:
        public.verify(cert.signature, cert.tbs_certificate_bytes, padding.PKCS1v15(), cert.signature_hash_algorithm)
    except InvalidSignature:
        return False
    return True


def utc(moment: datetime) -> datetime:
    """``moment`` as an aware UTC datetime (naive values are taken to be UTC)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
