"""The webhook's settings: one frozen object, read from the environment once and passed explicitly.

Every field can be set through ``BINPACK_GUARD_<FIELD IN UPPER SNAKE CASE>`` (for example
``BINPACK_GUARD_TOP=5``); keyword overrides (the CLI's flags) win over the environment.
An empty variable counts as unset. Bad values raise ``SettingsError`` with a one-line
message naming the variable. Booleans read ``true``/``false`` (also ``1``/``0``, ``yes``/``no``, ``on``/``off``).

``client_ca_file`` turns on client-certificate verification: the TLS context asks every client for a certificate
(``CERT_OPTIONAL``, or ``CERT_REQUIRED`` with ``client_cert_required``) and only a caller whose certificate chains to
that CA (and carries ``apiserver_client_name``, if set) counts as the apiserver, the only caller allowed to drive
the globalDefault Lease claim.

``benchmark_routes`` (off by default, keep it off in production) adds ``/bench/allow-all``: an
admission endpoint that reads, decodes and logs a review like the real ones and then allows it
without looking, the fair baseline for ``benchmarks/webhook_bench.py``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from linter.settings import SCHEDULERS

ENV_PREFIX = "BINPACK_GUARD_"
MIB = 1024 * 1024
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
TRUE_WORDS = ("true", "1", "yes", "on")
FALSE_WORDS = ("false", "0", "no", "off")


def _is_host_port(value: str) -> bool:
    host, _, port = value.rpartition(":")
    return bool(host) and port.isdigit() and 0 < int(port) < 65536


class SettingsError(ValueError):
    """A setting has a value the webhook cannot use."""


@dataclass(frozen=True)
class Settings:
    bind: str = "0.0.0.0:8443"
    metrics_bind: str = ""  # HOST:PORT of the plain-HTTP metrics listener (webhook.server.metricsport); "" = none
    tls_cert_file: str | None = None
    tls_private_key_file: str | None = None
    client_ca_file: str | None = None  # CA that signed the apiserver's webhook client certificate
    client_cert_required: bool = False  # CERT_REQUIRED (refuse every handshake without one) vs CERT_OPTIONAL
    apiserver_client_name: str = ""  # if set, the client certificate's CN or a DNS SAN must equal it
    kubeconfig: str | None = None
    cluster_file: str | None = None  # a kubectl dump instead of an apiserver (reloaded when it changes)
    scheduler_config: str | None = None
    volcano_config: str | None = None
    volcano_scheduler_name: str = "volcano"
    scheduler_build: str = "kube-scheduler"  # the build --scheduler-config is written for (binpack-lint --scheduler)
    top: int = 10
    workers: int = 2
    threads: int = 4
    lease_namespace: str | None = None
    lease_name: str = "binpack-guard-global-default"
    # The API server takes objects of up to 3 MiB of JSON, and an UPDATE review carries two of them
    # (object and oldObject) plus the envelope: 7 MiB refuses no review the API server can send.
    max_body_bytes: int = 7 * MIB
    # ConfigMap linting runs in a child process with these bounds (webhook.server.boundedlint); the time
    # budget, counted from the review's arrival (webhook.server.deadline), stays under the chart's 3 s
    # ConfigMap webhook timeout so the answer arrives in time.
    lint_timeout_ms: int = 2500
    # The time budget of one pod / PriorityClass review, counted from its arrival: its wait for room to
    # decode, then a live PriorityClass read (pods) or the globalDefault Lease claim (PriorityClasses) get
    # only what is left of it. The chart sets each to its webhook's timeoutSeconds minus 0.5 s.
    pod_timeout_ms: int = 2500
    priority_class_timeout_ms: int = 2500
    lint_memory_mib: int = 256
    log_level: str = "INFO"
    # How long a new worker waits for its cache to sync before it takes connections (then it answers
    # reviews with HTTP 503 until synced). The chart's startupProbe allows this long plus a margin.
    sync_wait_seconds: int = 120
    benchmark_routes: bool = False

    def __post_init__(self) -> None:
        for name, minimum in (("top", 0), ("workers", 1), ("threads", 1), ("max_body_bytes", 1),
                              ("lint_timeout_ms", 1), ("pod_timeout_ms", 1),
                              ("priority_class_timeout_ms", 1), ("lint_memory_mib", 64), ("sync_wait_seconds", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
                raise SettingsError(f"{env_name(name)}: must be an integer >= {minimum}, got {value!r}")
        if self.log_level.upper() not in LOG_LEVELS:
            raise SettingsError(f"{env_name('log_level')}: must be one of {', '.join(LOG_LEVELS)}")
        if not isinstance(self.benchmark_routes, bool):
            raise SettingsError(f"{env_name('benchmark_routes')}: must be true or false, got {self.benchmark_routes!r}")
        if self.client_cert_required and not self.client_ca_file:
            raise SettingsError(f"{env_name('client_cert_required')}: needs {env_name('client_ca_file')}")
        if self.scheduler_build not in SCHEDULERS:
            raise SettingsError(f"{env_name('scheduler_build')}: must be {' or '.join(SCHEDULERS)}, "
                                f"got {self.scheduler_build!r}")
        if self.metrics_bind and not _is_host_port(self.metrics_bind):
            raise SettingsError(f"{env_name('metrics_bind')}: must be HOST:PORT, got {self.metrics_bind!r}")
        if self.metrics_bind and self.metrics_bind == self.bind:
            raise SettingsError(f"{env_name('metrics_bind')}: must differ from {env_name('bind')} ({self.bind})")
        if not self.volcano_scheduler_name:
            raise SettingsError(f"{env_name('volcano_scheduler_name')}: must not be empty")

    @classmethod
    def from_env(cls, environ: Mapping[str, str], **overrides: Any) -> Settings:
        """Read ``BINPACK_GUARD_*`` from ``environ``; overrides that are None count as not given."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(overrides) - set(fields))
        if unknown:
            raise SettingsError(f"unknown setting(s): {', '.join(unknown)}")
        values: dict[str, Any] = {}
        for name, field in fields.items():
            raw = environ.get(env_name(name), "")
            if raw != "":
                values[name] = _convert(name, raw, field.default)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


def env_name(field_name: str) -> str:
    return ENV_PREFIX + field_name.upper()


def _convert(name: str, raw: str, default: object) -> object:
    if isinstance(default, bool):
        word = raw.strip().lower()
        if word in TRUE_WORDS or word in FALSE_WORDS:
            return word in TRUE_WORDS
        raise SettingsError(f"{env_name(name)}: must be true or false, got {raw!r}")
    if isinstance(default, int) and not isinstance(default, bool):
        try:
            return int(raw.strip(), 10)
        except ValueError:
            raise SettingsError(f"{env_name(name)}: not an integer: {raw!r}") from None
    return raw
