"""A worker's first TLS context: it waits, heartbeating, while the files are unusable, and warns sparingly."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from server_helpers import make_ca, make_leaf

from webhook.server.tls import load_when_usable


def test_waits_through_a_half_written_certificate_then_loads_the_whole_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    leaf = make_leaf(make_ca("first-load CA"))
    cert, key = tmp_path / "tls.crt", tmp_path / "tls.key"
    cert.write_bytes(leaf.cert_pem[:200])
    key.write_bytes(leaf.key_pem)
    beats: list[int] = []

    def heartbeat() -> None:
        beats.append(1)
        if len(beats) == 5:  # the writer finishes while the worker is waiting
            cert.write_bytes(leaf.cert_pem)

    with caplog.at_level(logging.WARNING, logger="webhook.server.tls"):
        context = load_when_usable(str(cert), str(key), heartbeat=heartbeat, poll=0.001, warn_every=3600)
    assert len(beats) == 5
    assert context.reloads == 0  # loaded once, from the whole file
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1, warnings  # one line for the whole wait, not one per try
    assert warnings[0].startswith("TLS files not usable (waiting for them before taking connections): ")
    assert str(cert) in warnings[0]


def test_a_missing_key_file_is_waited_for_too(tmp_path: Path) -> None:
    leaf = make_leaf(make_ca("first-load CA"))
    cert, key = tmp_path / "tls.crt", tmp_path / "tls.key"
    cert.write_bytes(leaf.cert_pem)
    tries: list[int] = []

    def heartbeat() -> None:
        tries.append(1)
        key.write_bytes(leaf.key_pem)

    load_when_usable(str(cert), str(key), heartbeat=heartbeat, poll=0.001)
    assert tries == [1]
