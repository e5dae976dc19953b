"""Certificate planning and issuing (webhook.certs, webhook.certs.x509) with real keys and a real path validator.

Chains are checked with cryptography's X.509 verifier (RFC 5280 + CA/B web PKI profile) at an explicit time, so
"trusted", "expired" and "wrong name" are answers of an independent validator, not of the code under test.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from cryptography import x509
from cryptography.x509 import DNSName
from cryptography.x509.oid import ExtendedKeyUsageOID
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError

from webhook.certs import x509 as certs_x509
from webhook.certs.cli import service_dns_names
from webhook.certs.plan import Action, CertMaterial, CertPolicy, issue, make_plan

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
NAMES = ("guard", "guard.binpack-system", "guard.binpack-system.svc", "guard.binpack-system.svc.cluster.local")
POLICY = CertPolicy(dns_names=NAMES)


def load_bundle(pem: bytes) -> list[x509.Certificate]:
    return x509.load_pem_x509_certificates(pem)


def leaf(material: CertMaterial) -> x509.Certificate:
    return x509.load_pem_x509_certificate(material.tls_cert)


def trusted(material: CertMaterial, bundle: bytes, at: datetime, name: str = "guard.binpack-system.svc") -> bool:
    """Does a client trusting ``bundle`` accept ``material``'s serving certificate for ``name`` at ``at``?"""
    verifier = PolicyBuilder().store(Store(load_bundle(bundle))).time(at).build_server_verifier(DNSName(name))
    try:
        verifier.verify(leaf(material), [])
    except VerificationError:
        return False
    return True


def two_thirds(cert: x509.Certificate) -> datetime:
    start, end = cert.not_valid_before_utc, cert.not_valid_after_utc
    return start + (end - start) * 2 / 3


@pytest.fixture(scope="module")
def fresh() -> CertMaterial:
    plan = make_plan(CertMaterial(), NOW, POLICY)
    assert plan.action is Action.CREATE_CA
    return issue(plan, CertMaterial(), NOW, POLICY)


def test_service_dns_names_are_the_four_service_forms() -> None:
    assert service_dns_names("guard", "binpack-system") == NAMES
    assert service_dns_names("s", "n", "corp.local")[-1] == "s.n.svc.corp.local"


def test_serving_certificate_names_validity_and_usages(fresh: CertMaterial) -> None:
    cert = leaf(fresh)
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert san.get_values_for_type(x509.DNSName) == list(NAMES)
    assert cert.not_valid_after_utc == NOW + timedelta(days=90)
    assert cert.not_valid_before_utc <= NOW
    usage = cert.extensions.get_extension_for_class(x509.KeyUsage)
    assert usage.critical and usage.value.digital_signature and usage.value.key_encipherment
    assert not usage.value.key_cert_sign
    eku = cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert list(eku) == [ExtendedKeyUsageOID.SERVER_AUTH]
    assert cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca is False
    for name in NAMES:
        assert trusted(fresh, fresh.ca_bundle, NOW, name)
    assert not trusted(fresh, fresh.ca_bundle, NOW, "guard.other-namespace.svc")
    assert not trusted(fresh, fresh.ca_bundle, NOW + timedelta(days=91))


def test_ca_is_a_long_lived_leaf_only_ca(fresh: CertMaterial) -> None:
    (ca,) = load_bundle(fresh.ca_bundle)
    constraints = ca.extensions.get_extension_for_class(x509.BasicConstraints)
    assert constraints.critical and constraints.value.ca and constraints.value.path_length == 0
    usage = ca.extensions.get_extension_for_class(x509.KeyUsage).value
    assert usage.key_cert_sign and usage.crl_sign
    assert ca.not_valid_after_utc == NOW + timedelta(days=1825)
    assert ca.issuer == ca.subject
    assert certs_x509.key_matches(ca, fresh.ca_key)


def test_valid_certificates_are_kept_byte_for_byte(fresh: CertMaterial) -> None:
    for later in (NOW, NOW + timedelta(days=1), two_thirds(leaf(fresh)) - timedelta(minutes=1)):
        plan = make_plan(fresh, later, POLICY)
        assert plan.action is Action.KEEP, plan.reason
        assert issue(plan, fresh, later, POLICY) is fresh


def test_serving_certificate_is_renewed_at_two_thirds_of_its_life(fresh: CertMaterial) -> None:
    due = two_thirds(leaf(fresh))
    assert make_plan(fresh, due - timedelta(seconds=1), POLICY).action is Action.KEEP
    plan = make_plan(fresh, due, POLICY)
    assert plan.action is Action.ISSUE_SERVING and "2/3" in plan.reason
    renewed = issue(plan, fresh, due, POLICY)
    # same CA, new serving certificate and key
    assert (renewed.ca_bundle, renewed.ca_key) == (fresh.ca_bundle, fresh.ca_key)
    assert renewed.tls_cert != fresh.tls_cert and renewed.tls_key != fresh.tls_key
    assert leaf(renewed).not_valid_after_utc == due + timedelta(days=90)
    assert trusted(renewed, fresh.ca_bundle, due)
    assert make_plan(renewed, due, POLICY).action is Action.KEEP


def test_ca_rotation_keeps_the_old_ca_in_the_bundle_until_it_expires(fresh: CertMaterial) -> None:
    (old_ca,) = load_bundle(fresh.ca_bundle)
    due = two_thirds(old_ca)
    # the serving certificate has been renewed all along; take one that is itself still fresh at `due`
    current = issue(make_plan(fresh, due - timedelta(days=1), POLICY), fresh, due - timedelta(days=1), POLICY)
    assert make_plan(current, due - timedelta(seconds=1), POLICY).action is Action.KEEP
    plan = make_plan(current, due, POLICY)
    assert plan.action is Action.ROTATE_CA
    rotated = issue(plan, current, due, POLICY)
    new_ca, kept_old = load_bundle(rotated.ca_bundle)
    assert kept_old == old_ca and new_ca != old_ca
    assert certs_x509.key_matches(new_ca, rotated.ca_key)
    # overlap: the new bundle accepts both the pods' previous certificate and the new one
    assert trusted(current, rotated.ca_bundle, due) and trusted(rotated, rotated.ca_bundle, due)
    # ... and an apiserver still holding only the old bundle keeps accepting the previous certificate
    assert trusted(current, current.ca_bundle, due) and not trusted(rotated, current.ca_bundle, due)
    # the new serving certificate is signed by the new CA
    assert certs_x509.signed_by(leaf(rotated), new_ca)
    assert make_plan(rotated, due + timedelta(days=1), POLICY).action is Action.KEEP
    # once the old CA has expired it leaves the bundle
    after = old_ca.not_valid_after_utc + timedelta(days=1)
    again = issue(make_plan(rotated, after, POLICY), rotated, after, POLICY)
    assert load_bundle(again.ca_bundle) == [new_ca]
    assert trusted(again, again.ca_bundle, after)


def test_changed_service_names_reissue_the_serving_certificate(fresh: CertMaterial) -> None:
    moved = CertPolicy(dns_names=service_dns_names("guard", "elsewhere"))
    plan = make_plan(fresh, NOW, moved)
    assert plan.action is Action.ISSUE_SERVING and "names" in plan.reason
    renewed = issue(plan, fresh, NOW, moved)
    assert trusted(renewed, renewed.ca_bundle, NOW, "guard.elsewhere.svc")


@pytest.mark.parametrize(
    ("damage", "action", "reason"),
    [
        (lambda m, o: CertMaterial(tls_cert=m.tls_cert, tls_key=m.tls_key), Action.CREATE_CA, "no CA"),
        (lambda m, o: CertMaterial(b"garbage", m.ca_key, m.tls_cert, m.tls_key), Action.CREATE_CA, "ca.crt"),
        (lambda m, o: CertMaterial(m.ca_bundle, o.ca_key, m.tls_cert, m.tls_key), Action.CREATE_CA, "CA key"),
        (lambda m, o: CertMaterial(m.ca_bundle, m.ca_key, m.tls_cert, o.tls_key), Action.ISSUE_SERVING, "serving key"),
        (lambda m, o: CertMaterial(m.ca_bundle, m.ca_key, b"", b""), Action.ISSUE_SERVING, "no serving"),
        (lambda m, o: CertMaterial(m.ca_bundle, m.ca_key, b"junk", m.tls_key), Action.ISSUE_SERVING, "tls.crt"),
        (lambda m, o: CertMaterial(m.ca_bundle, m.ca_key, o.tls_cert, o.tls_key), Action.ISSUE_SERVING, "not signed"),
    ],
    ids=["no-ca", "garbage-ca", "wrong-ca-key", "wrong-tls-key", "no-serving", "garbage-serving", "foreign-serving"],
)
def test_damaged_material_is_replaced(
    fresh: CertMaterial, damage: Callable[[CertMaterial, CertMaterial], CertMaterial], action: Action, reason: str
) -> None:
    other = issue(make_plan(CertMaterial(), NOW, POLICY), CertMaterial(), NOW, POLICY)
    broken = damage(fresh, other)
    plan = make_plan(broken, NOW, POLICY)
    assert plan.action is action and reason in plan.reason, plan
    repaired = issue(plan, broken, NOW, POLICY)
    assert trusted(repaired, repaired.ca_bundle, NOW)
    assert make_plan(repaired, NOW, POLICY).action is Action.KEEP


def test_expired_ca_is_replaced_without_keeping_it(fresh: CertMaterial) -> None:
    (ca,) = load_bundle(fresh.ca_bundle)
    later = ca.not_valid_after_utc + timedelta(seconds=1)
    plan = make_plan(fresh, later, POLICY)
    assert plan.action is Action.CREATE_CA and "expired" in plan.reason and plan.previous_cas == ()
    assert len(load_bundle(issue(plan, fresh, later, POLICY).ca_bundle)) == 1


def test_serving_certificate_never_outlives_its_ca() -> None:
    short = CertPolicy(dns_names=NAMES, ca_validity=timedelta(days=30))
    material = issue(make_plan(CertMaterial(), NOW, short), CertMaterial(), NOW, short)
    (ca,) = load_bundle(material.ca_bundle)
    assert leaf(material).not_valid_after_utc == ca.not_valid_after_utc


def test_ip_addresses_are_subject_alternative_names() -> None:
    local = CertPolicy(dns_names=("localhost",), ip_addresses=("127.0.0.1",))
    material = issue(make_plan(CertMaterial(), NOW, local), CertMaterial(), NOW, local)
    info = certs_x509.describe(leaf(material))
    assert info.ip_addresses == frozenset({"127.0.0.1"}) and info.dns_names == frozenset({"localhost"})
