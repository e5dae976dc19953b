"""``binpack-webhook certs --local-dir``: the files, their modes, idempotence, errors, and a real TLS handshake."""

from __future__ import annotations

import argparse
import socket
import ssl
import stat
import threading
from pathlib import Path

import pytest

from webhook.certs import cli as certs


def run_certs(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="binpack-webhook")
    certs.add_parser(parser.add_subparsers())
    args = parser.parse_args(["certs", *argv])
    result: int = args.func(args)
    return result


def test_writes_the_four_files_then_keeps_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "certs"
    argv = ("--local-dir", str(target), "--service", "guard", "--namespace", "ns", "--ip-address", "127.0.0.1")
    assert run_certs(*argv) == 0
    first = capsys.readouterr().out
    assert first.startswith("certs: create-ca: ") and "tls.crt" in first
    files = {p.name: p for p in target.iterdir()}
    assert set(files) == {"ca.crt", "ca.key", "tls.crt", "tls.key"}
    assert stat.S_IMODE(files["ca.key"].stat().st_mode) == 0o600
    assert stat.S_IMODE(files["tls.key"].stat().st_mode) == 0o600
    before = {name: (p.read_bytes(), p.stat().st_mtime_ns) for name, p in files.items()}
    assert run_certs(*argv) == 0
    assert capsys.readouterr().out.strip().endswith("nothing written")
    assert {name: (p.read_bytes(), p.stat().st_mtime_ns) for name, p in files.items()} == before


def test_a_tls_client_trusting_ca_crt_accepts_the_server(tmp_path: Path) -> None:
    assert run_certs("--local-dir", str(tmp_path), "--service", "guard", "--namespace", "ns") == 0
    server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_ctx.load_cert_chain(tmp_path / "tls.crt", tmp_path / "tls.key")
    client_ctx = ssl.create_default_context(cafile=str(tmp_path / "ca.crt"))
    with socket.create_server(("127.0.0.1", 0)) as listener:
        listener.settimeout(10)
        port = listener.getsockname()[1]

        def serve_once() -> None:
            conn, _ = listener.accept()
            with server_ctx.wrap_socket(conn, server_side=True) as tls:
                tls.sendall(b"ok")

        thread = threading.Thread(target=serve_once, daemon=True)
        thread.start()
        with (
            socket.create_connection(("127.0.0.1", port), timeout=10) as raw,
            client_ctx.wrap_socket(raw, server_hostname="guard.ns.svc") as tls,
        ):
            assert tls.recv(2) == b"ok"
        thread.join(timeout=10)
    # a client expecting another service name refuses the same certificate
    with pytest.raises(ssl.SSLCertVerificationError):
        check_hostname(client_ctx, tmp_path, "guard.other.svc")


def check_hostname(client_ctx: ssl.SSLContext, directory: Path, hostname: str) -> None:
    server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_ctx.load_cert_chain(directory / "tls.crt", directory / "tls.key")
    with socket.create_server(("127.0.0.1", 0)) as listener:
        listener.settimeout(10)

        def serve_once() -> None:
            conn, _ = listener.accept()
            try:
                with server_ctx.wrap_socket(conn, server_side=True):
                    pass
            except (ssl.SSLError, OSError):
                pass

        thread = threading.Thread(target=serve_once, daemon=True)
        thread.start()
        try:
            with socket.create_connection(listener.getsockname(), timeout=10) as raw:
                client_ctx.wrap_socket(raw, server_hostname=hostname).close()
        finally:
            thread.join(timeout=10)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--ip-address", "not-an-ip"), "--ip-address: not an IP address"),
        (("--serving-validity-days", "400", "--ca-validity-days", "300"), "--serving-validity-days must be shorter"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert run_certs("--local-dir", str(tmp_path), "--service", "guard", *argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_non_positive_validity_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run_certs("--local-dir", str(tmp_path), "--service", "guard", "--ca-validity-days", "0")
    assert exited.value.code == 2
    assert "must be at least 1" in capsys.readouterr().err


def test_secrets_are_required_without_local_dir(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_certs("--service", "guard") == 2
    assert "--ca-secret and --tls-secret are required" in capsys.readouterr().err


def test_an_unusable_directory_is_one_line_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert run_certs("--local-dir", str(blocker / "sub"), "--service", "guard") == 1
    err = capsys.readouterr().err
    assert err.startswith(f"binpack-webhook certs: {blocker / 'sub'}: ") and err.count("\n") == 1


def test_garbage_certificate_files_are_replaced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ca.crt").write_text("not a certificate")
    assert run_certs("--local-dir", str(tmp_path), "--service", "guard") == 0
    assert "create-ca: ca.crt: not a PEM certificate bundle" in capsys.readouterr().out
    assert (tmp_path / "ca.crt").read_bytes().startswith(b"-----BEGIN CERTIFICATE-----")
