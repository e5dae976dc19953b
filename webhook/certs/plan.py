"""Certificates for the webhook's HTTPS endpoint: decide what to do, then hand the result to a store.

The decision is a pure function of the stored material and the time (``make_plan``); ``issue`` carries it out
in memory; the stores (``webhook.certs.local`` for a directory, ``webhook.certs.kube`` for Secrets and the
webhook configurations' ``caBundle``) only read and write bytes; ``webhook.certs.cli`` is the command. Running
it twice in a row changes nothing the second time: valid certificates are kept byte for byte.

Life cycle (both thresholds are two thirds of the certificate's own life):

* serving certificate, short-lived (90 days by default): re-issued by the current CA once two thirds of its
  life have passed, or at once when it is missing, unreadable, not signed by the current CA, or its names differ;
* CA, long-lived (5 years by default): replaced once two thirds of its life have passed. The old CA stays in
  the trust bundle (``ca.crt``, which is what ``caBundle`` carries) until it expires, so an apiserver that still
  has the previous bundle and a pod that still serves the previous certificate keep trusting each other.

Stored form, identical in a directory and in Secrets: ``ca.crt`` = trust bundle with the current CA first,
``ca.key`` = current CA key, ``tls.crt``/``tls.key`` = serving certificate and key.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import Enum

from cryptography import x509
from cryptography.hazmat.primitives import serialization

from webhook.certs import x509 as certs_x509
from webhook.certs.x509 import CertificateDataError

RENEW_FRACTION = 2 / 3
DEFAULT_SERVING_DAYS = 90
DEFAULT_CA_DAYS = 1825


@dataclass(frozen=True)
class CertMaterial:
    """The stored state: PEM bytes, empty when absent."""

    ca_bundle: bytes = b""
    ca_key: bytes = b""
    tls_cert: bytes = b""
    tls_key: bytes = b""


@dataclass(frozen=True)
class CertPolicy:
    """What the certificates must look like and how long they live."""

    dns_names: tuple[str, ...]
    ip_addresses: tuple[str, ...] = ()
    serving_validity: timedelta = timedelta(days=DEFAULT_SERVING_DAYS)
    ca_validity: timedelta = timedelta(days=DEFAULT_CA_DAYS)
    ca_common_name: str = "binpack-guard-ca"


class Action(Enum):
    KEEP = "keep"
    ISSUE_SERVING = "issue-serving"
    ROTATE_CA = "rotate-ca"
    CREATE_CA = "create-ca"


@dataclass(frozen=True)
class Plan:
    """What to do, why, and which older CAs the trust bundle must keep (PEM, newest first)."""

    action: Action
    reason: str
    previous_cas: tuple[bytes, ...] = ()


def service_dns_names(service: str, namespace: str, cluster_domain: str = "cluster.local") -> tuple[str, ...]:
    """The four names by which pods (and the apiserver) can reach ``service``."""
    base = f"{service}.{namespace}.svc"
    return (service, f"{service}.{namespace}", base, f"{base}.{cluster_domain}")


def _pem(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.PEM)


def _still_trusted(certs: list[x509.Certificate], now: datetime, exclude: set[str]) -> tuple[bytes, ...]:
    """CA certificates from ``certs`` that have not expired, once each, minus the fingerprints in ``exclude``."""
    kept: list[bytes] = []
    seen = set(exclude)
    for cert in certs:
        info = certs_x509.describe(cert)
        if info.is_ca and info.not_after > now and info.fingerprint not in seen:
            seen.add(info.fingerprint)
            kept.append(_pem(cert))
    return tuple(kept)


def _ca_problem(bundle: list[x509.Certificate], ca_key: bytes, now: datetime) -> str | None:
    if not bundle:
        return "no CA certificate stored"
    ca = bundle[0]
    info = certs_x509.describe(ca)
    if not info.is_ca:
        return f"stored CA {info.subject} is not a CA certificate"
    if not certs_x509.key_matches(ca, ca_key):
        return "stored CA key is missing or does not match the CA certificate"
    if now >= info.not_after:
        return f"CA expired at {info.not_after.isoformat()}"
    if now < info.not_before:
        return f"CA is not valid before {info.not_before.isoformat()}"
    return None


def _serving_problem(material: CertMaterial, ca: x509.Certificate, now: datetime, policy: CertPolicy) -> str:
    """Why the serving certificate must be re-issued, or "" when it may stay."""
    if not material.tls_cert.strip():
        return "no serving certificate stored"
    try:
        cert = certs_x509.load_cert(material.tls_cert, "tls.crt")
    except CertificateDataError as exc:
        return str(exc)
    info = certs_x509.describe(cert)
    if not certs_x509.key_matches(cert, material.tls_key):
        return "serving key is missing or does not match the serving certificate"
    if not certs_x509.signed_by(cert, ca):
        return "serving certificate is not signed by the current CA"
    if info.dns_names != frozenset(policy.dns_names) or info.ip_addresses != frozenset(policy.ip_addresses):
        return "serving certificate names differ from the service's names"
    if now < info.not_before:
        return f"serving certificate is not valid before {info.not_before.isoformat()}"
    if info.fraction_elapsed(now) >= RENEW_FRACTION:
        return f"serving certificate passed 2/3 of its life at {info.renewal_time(RENEW_FRACTION).isoformat()}"
    return ""


def _serving_renewal(material: CertMaterial) -> str:
    """When a serving certificate that may stay becomes due (for the log line)."""
    info = certs_x509.describe(certs_x509.load_cert(material.tls_cert, "tls.crt"))
    return info.renewal_time(RENEW_FRACTION).isoformat()


def make_plan(material: CertMaterial, now: datetime, policy: CertPolicy) -> Plan:
    """Decide, without side effects, what ``material`` needs at ``now`` to satisfy ``policy``."""
    now = certs_x509.utc(now)
    try:
        bundle = certs_x509.load_certs(material.ca_bundle, "ca.crt")
    except CertificateDataError as exc:
        return Plan(Action.CREATE_CA, str(exc))
    problem = _ca_problem(bundle, material.ca_key, now)
    if problem is not None:
        return Plan(Action.CREATE_CA, problem, _still_trusted(bundle, now, set()))
    ca = bundle[0]
    ca_info = certs_x509.describe(ca)
    if ca_info.fraction_elapsed(now) >= RENEW_FRACTION:
        reason = f"CA passed 2/3 of its life at {ca_info.renewal_time(RENEW_FRACTION).isoformat()}"
        return Plan(Action.ROTATE_CA, reason, _still_trusted(bundle, now, set()))
    previous = _still_trusted(bundle[1:], now, {ca_info.fingerprint})
    problem = _serving_problem(material, ca, now, policy)
    if problem:
        return Plan(Action.ISSUE_SERVING, problem, previous)
    due = _serving_renewal(material)
    return Plan(Action.KEEP, f"certificates are valid; serving certificate renewal is due at {due}", previous)


def issue(plan: Plan, material: CertMaterial, now: datetime, policy: CertPolicy) -> CertMaterial:
    """Carry out ``plan``: returns ``material`` itself when nothing needs to change."""
    now = certs_x509.utc(now)
    if plan.action in (Action.CREATE_CA, Action.ROTATE_CA):
        name = f"{policy.ca_common_name} {now:%Y-%m-%dT%H:%M:%SZ}"
        ca = certs_x509.generate_ca(now, policy.ca_validity, name)
    else:
        current = certs_x509.load_certs(material.ca_bundle, "ca.crt")[0]
        ca = certs_x509.KeyPair(_pem(current), material.ca_key)
    bundle = ca.cert_pem + b"".join(plan.previous_cas)
    if plan.action is Action.KEEP:
        return material if bundle == material.ca_bundle else replace(material, ca_bundle=bundle)
    serving = certs_x509.generate_serving(ca, policy.dns_names, policy.ip_addresses, now, policy.serving_validity)
    return CertMaterial(ca_bundle=bundle, ca_key=ca.key_pem, tls_cert=serving.cert_pem, tls_key=serving.key_pem)
