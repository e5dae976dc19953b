"""Go's base64.StdEncoding.Decode (encoding/json's []byte decoding): newlines skipped, Go's error offsets."""

from __future__ import annotations

import base64
import datetime
import random

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from linter.engine import lint_text
from linter.gobase64 import CorruptInputError, std_decode


@pytest.mark.parametrize(("text", "data"), [
    ("", b""), ("QQ==", b"A"), ("QUI=", b"AB"), ("QUJD", b"ABC"),
    ("QUJD\nREVG\n", b"ABCDEF"),  # a block scalar's wrapped lines and final newline
    ("Q\r\nQ\n=\n=\n", b"A"),  # newlines between the padding characters too
])
def test_decodes_as_go_does_skipping_newlines(text: str, data: bytes) -> None:
    assert std_decode(text) == data


@pytest.mark.parametrize(("text", "offset"), [
    ("dGhpcyBpcyBhI@HRlc3Qgc3RyaW5nLg==", 13),  # the encoding/base64 documentation's example
    ("/etc/ca.crt", 7),  # '/etc' is a valid quantum; '.' is the first byte outside the alphabet
    ("-----BEGIN CERTIFICATE-----", 0),
    ("QUJD QUJD", 4),
    ("QQ", 0),  # a short last quantum: si - j
    ("QQ=", 3),  # "==" expected: the end of the input
    ("Q===", 1),  # padding after one character
    ("QQ==QQ==", 4),  # anything after the padding
    ("QUI=\nx", 5),  # ... newlines aside
])
def test_refusals_name_gos_offset(text: str, offset: int) -> None:
    with pytest.raises(CorruptInputError) as caught:
        std_decode(text)
    assert str(caught.value) == f"illegal base64 data at input byte {offset}"


def test_whatever_python_encodes_decodes_back() -> None:
    rng = random.Random(7)
    for _ in range(500):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(50)))
        assert std_decode(base64.b64encode(data).decode()) == data


def _self_signed_pem() -> bytes:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "extender-ca")])
    now = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(1).not_valid_before(now).not_valid_after(now + datetime.timedelta(days=1))
            .sign(key, hashes.SHA256()))
    return cert.public_bytes(serialization.Encoding.PEM)


def test_base64_wrapped_over_lines_is_accepted_as_go_accepts_it() -> None:
    pem = _self_signed_pem()  # a real certificate: the scheduler would load it
    encoded = base64.b64encode(pem).decode()
    wrapped = "\n".join(encoded[i:i + 20] for i in range(0, len(encoded), 20))
    body = "".join(f"      {line}\n" for line in wrapped.splitlines())
    text = ("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nextenders:\n"
            f"- urlPrefix: https://x\n  tlsConfig:\n    caData: |\n{body}")
    assert [f.rule for f in lint_text(text, "c.yaml")] == []
