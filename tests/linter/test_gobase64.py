"""``[]byte`` fields (an extender's tlsConfig certData/keyData/caData) decode base64 as Go's
``base64.StdEncoding.Decode`` does, and a broken string names the byte Go's CorruptInputError names."""

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
from linter.gobase64 import CorruptInput, go_b64decode

# (input, decoded bytes or the offset Go reports), worked out from Go's decodeQuantum
CASES: list[tuple[str, bytes | int]] = [
    ("", b""), ("QQ==", b"A"), ("QUI=", b"AB"), ("QUJD", b"ABC"), ("QUJDRA==", b"ABCD"),
    ("QU\nJD", b"ABC"), ("QUJD\r\n", b"ABC"), ("QQ=\n=", b"A"), ("QR==", b"A"),  # newlines skipped, spare bits ignored
    ("QQ", 0), ("QUJDQQ", 4),  # an unfinished last quantum: its first byte
    ("QQ=", 3),  # "==" expected, input ends: the input's length
    ("Q===", 1), ("=", 0),  # padding too early: the "=" itself
    ("QQ==QQ==", 4), ("QUI=\nx", 5),  # anything after the padding
    ("QUJD-QUJD", 4), ("QUJDQU€", 6),  # a byte outside the alphabet (UTF-8 offsets)
]


@pytest.mark.parametrize(("text", "want"), CASES, ids=[repr(c[0]) for c in CASES])
def test_go_decoding(text: str, want: bytes | int) -> None:
    if isinstance(want, bytes):
        assert go_b64decode(text) == want
        return
    with pytest.raises(CorruptInput) as exc:
        go_b64decode(text)
    assert str(exc.value) == f"illegal base64 data at input byte {want}"


def test_whatever_python_encodes_decodes_back() -> None:
    rng = random.Random(7)
    for _ in range(500):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(50)))
        assert go_b64decode(base64.b64encode(data).decode()) == data


def test_the_finding_names_the_offset_of_the_bad_byte() -> None:
    text = ("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nextenders:\n"
            "- urlPrefix: https://x\n  tlsConfig: {caData: 'QUJDRA==-'}\n")
    (finding,) = lint_text(text, "c.yaml")
    assert (finding.rule, finding.line) == ("BPL016", 5)
    assert "illegal base64 data at input byte 8" in f"{finding.message}\n{finding.detail}"


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
