"""``binpack-webhook serve`` refuses bad usage with one line on stderr and exit code 2 (real subprocess)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from server_helpers import make_ca, make_leaf


def serve(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("BINPACK_GUARD_")}
    return subprocess.run([sys.executable, "-m", "webhook", "serve", *args], capture_output=True, text=True,
                          env={**clean, **(env or {})}, timeout=60)


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path, Path]:
    leaf, other = make_leaf(make_ca("a")), make_leaf(make_ca("b"))
    cert, key, wrong_key = tmp_path / "tls.crt", tmp_path / "tls.key", tmp_path / "other.key"
    cert.write_bytes(leaf.cert_pem)
    key.write_bytes(leaf.key_pem)
    wrong_key.write_bytes(other.key_pem)
    return cert, key, wrong_key


@pytest.mark.parametrize("args,env,expected", [
    (["--bind", "no-port"], {}, "--bind"),
    (["--top", "many"], {}, "--top"),
    ([], {"BINPACK_GUARD_WORKERS": "0"}, "BINPACK_GUARD_WORKERS"),
    ([], {"BINPACK_GUARD_TOP": "x"}, "BINPACK_GUARD_TOP"),
    (["--tls-cert-file", "/no/such.crt", "--tls-private-key-file", "/no/such.key"], {}, "/no/such.crt"),
    (["--tls-cert-file", "CERT"], {}, "--tls-private-key-file"),
    (["--tls-cert-file", "CERT", "--tls-private-key-file", "WRONG"], {}, "not a matching"),
    (["--kubeconfig", "/no/kubeconfig"], {}, "/no/kubeconfig"),
    (["--request-timeout", "0"], {}, "--request-timeout"),
    ([], {"BINPACK_GUARD_REQUEST_TIMEOUT": "soon"}, "BINPACK_GUARD_REQUEST_TIMEOUT"),
    (["--no-such-flag"], {}, "--no-such-flag"),
])
def test_bad_usage_is_one_line_and_exit_2(
    pair: tuple[Path, Path, Path], args: list[str], env: dict[str, str], expected: str
) -> None:
    cert, _, wrong_key = pair
    args = [str(cert) if a == "CERT" else str(wrong_key) if a == "WRONG" else a for a in args]
    result = serve(*args, env=env)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert expected in lines[0]
    assert "Traceback" not in result.stderr


def test_scheduler_config_problem_is_reported_before_start(tmp_path: Path, pair: tuple[Path, Path, Path]) -> None:
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text('{"apiVersion":"v1","kind":"Config","current-context":"c","clusters":[{"name":"c",'
                          '"cluster":{"server":"http://127.0.0.1:9"}}],"users":[{"name":"u","user":{}}],'
                          '"contexts":[{"name":"c","context":{"cluster":"c","user":"u"}}]}')
    broken = tmp_path / "scheduler.yaml"
    broken.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: [unclosed\n")
    result = serve("--kubeconfig", str(kubeconfig), "--scheduler-config", str(broken))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert str(broken) in result.stderr


def test_serve_help_names_each_flags_default_and_that_threads_is_unused() -> None:
    """Every ``serve`` flag whose setting has a default says it in ``--help``, as docs/server.md's table does."""
    import argparse
    import dataclasses

    from webhook.cli import build_parser
    from webhook.settings import Settings

    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    helps = {a.dest: a.help or "" for a in commands.choices["serve"]._actions}
    defaults = {f.name: f.default for f in dataclasses.fields(Settings) if f.name in helps and f.default}
    assert {"bind", "workers", "threads", "top", "lease_name", "log_level"} <= defaults.keys()
    missing = {name: default for name, default in defaults.items() if f"default {default}" not in helps[name]}
    assert not missing, f"serve --help leaves out these defaults: {missing}"
    assert helps["threads"].startswith("unused")
