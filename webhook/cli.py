"""``binpack-webhook``: ``serve`` (gunicorn + TLS + the admission app) and ``certs`` (see webhook.certs).

``serve`` flags override ``BINPACK_GUARD_<FLAG IN UPPER SNAKE>`` environment variables. Everything that
can be checked before forking is checked here (settings, bind address, TLS files, kubeconfig, scheduler
config files), so a bad invocation ends with one line on stderr and exit code 2, never a traceback or a
crash-looping worker. The flags are then exported to the environment, which is where
``webhook.server.gunicorn_conf`` and ``webhook.server.wsgi`` read them (the same path as running gunicorn directly).
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, cast

from gunicorn.app.base import BaseApplication

from linter.settings import SCHEDULERS
from webhook.certs import cli as certs_cli
from webhook.server.worker import REQUEST_TIMEOUT_ENV
from webhook.settings import Settings, SettingsError, env_name

READINESS_DIR_ENV = "BINPACK_GUARD_READINESS_DIR"  # webhook.server.readiness reads it (not imported here: cheap CLI)
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"  # read by prometheus_client when it is first imported

PROG = "binpack-webhook"
USAGE_ERROR = 2

# (flag, settings field, type, help)
SERVE_FLAGS: tuple[tuple[str, str, Callable[[str], Any], str], ...] = (
    ("--bind", "bind", str, "HOST:PORT to listen on (default 0.0.0.0:8443)"),
    ("--metrics-bind", "metrics_bind", str,
     "HOST:PORT of a plain-HTTP /metrics listener summing every worker (default: none; /metrics stays on --bind)"),
    ("--tls-cert-file", "tls_cert_file", str, "PEM certificate (chain); re-read when it changes"),
    ("--tls-private-key-file", "tls_private_key_file", str, "PEM private key matching --tls-cert-file"),
    ("--client-ca-file", "client_ca_file", str,
     "CA of the apiserver's webhook client certificate; only such callers may drive the globalDefault claim"),
    ("--apiserver-client-name", "apiserver_client_name", str, "CN or DNS SAN the apiserver's client cert must have"),
    ("--cluster-file", "cluster_file", str,
     "kubectl get nodes,pods,priorityclasses,pdb -A -o yaml dump to serve from instead of an apiserver"),
    ("--kubeconfig", "kubeconfig", str, "kubeconfig file (default: in-cluster, then $KUBECONFIG)"),
    ("--scheduler-config", "scheduler_config", str,
     "KubeSchedulerConfiguration file to score with (default: kube-scheduler 1.36's defaults)"),
    ("--volcano-config", "volcano_config", str, "Volcano scheduler config file to score with"),
    ("--scheduler-build", "scheduler_build", str,
     "build --scheduler-config is for: kube-scheduler or scheduler-plugins (default kube-scheduler)"),
    ("--volcano-scheduler-name", "volcano_scheduler_name", str, "schedulerName of Volcano pods (default volcano)"),
    ("--top", "top", int, "how many best nodes to report per pod (default 10)"),
    ("--workers", "workers", int, "gunicorn worker processes (default 2)"),
    ("--threads", "threads", int,
     "unused: a gevent worker serves all its connections from one thread; kept so old settings parse (default 4)"),
    ("--lease-namespace", "lease_namespace", str, "namespace of the globalDefault claim Lease (default: own)"),
    ("--lease-name", "lease_name", str, "name of the globalDefault claim Lease (default binpack-guard-global-default)"),
    ("--log-level", "log_level", str, "DEBUG, INFO, WARNING, ERROR or CRITICAL (default INFO)"),
)


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports bad usage as a single line (no usage dump) and exits 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog=PROG, description="binpack-guard admission webhook")
    commands = parser.add_subparsers(dest="command", required=True, metavar="{serve,review,certs}")
    serve = commands.add_parser("serve", help="run the admission webhook under gunicorn with TLS")
    for flag, field, kind, help_text in SERVE_FLAGS:
        serve.add_argument(flag, dest=field, type=kind, default=None,
                           help=f"{help_text} [env {env_name(field)}]")
    serve.add_argument("--request-timeout", type=float, default=None,
                       help=f"seconds before a stalled request is cut off (default 30) [env {REQUEST_TIMEOUT_ENV}]")
    serve.set_defaults(func=run_serve)
    review = commands.add_parser(
        "review", help="print the webhook's AdmissionReview response for each file (exit 1 if one is denied)")
    review.add_argument("reviews", nargs="+", metavar="REVIEW.json", help="AdmissionReview request files")
    review.add_argument("--cluster-file", help="cluster dump (kubectl get nodes,pods,priorityclasses,pdb -A -o yaml); "
                        "default: an empty cluster with the built-in PriorityClasses")
    review.add_argument("--scheduler-config", help="KubeSchedulerConfiguration to score with")
    review.add_argument("--volcano-config", help="Volcano scheduler config to score with")
    review.add_argument("--scheduler-build", choices=SCHEDULERS, default=None,
                        help="build --scheduler-config and labelled ConfigMaps are judged for, as the server's "
                        "--scheduler-build (default kube-scheduler)")
    review.add_argument("--top", type=int, default=None, help="best nodes per pod (default 10)")
    review.add_argument("--server", metavar="URL", help="send the reviews to this running webhook instead")
    review.add_argument("--patched", action="store_true",
                        help="print the allowed object with the response's patch applied, not the response")
    review.set_defaults(func=run_review)
    certs_cli.add_parser(cast("argparse._SubParsersAction[argparse.ArgumentParser]", commands))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    return func(args)


def _fail(message: str) -> int:
    print(f"{PROG} serve: {message}", file=sys.stderr)
    return USAGE_ERROR


def check_bind(bind: str) -> str | None:
    host, sep, port = bind.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        return f"{env_name('bind')} / --bind: expected HOST:PORT, got {bind!r}"
    return None


def check_serve(settings: Settings) -> str | None:
    """The first problem found before starting, as one line, or None."""
    from webhook.admission.scheduler_models import ModelLoadError, SchedulerModels
    from webhook.cluster.kubeclient import ClientConfigError, load_client_configuration  # kubernetes only for serve
    from webhook.server.tls import TLSConfigError, build_server_context

    problem = check_bind(settings.bind)
    if problem:
        return problem
    if bool(settings.tls_cert_file) != bool(settings.tls_private_key_file):
        return "--tls-cert-file and --tls-private-key-file must be given together"
    try:
        if settings.tls_cert_file and settings.tls_private_key_file:
            build_server_context(settings.tls_cert_file, settings.tls_private_key_file, settings.client_ca_file,
                                 settings.client_cert_required)
        elif settings.client_ca_file:
            return "--client-ca-file needs --tls-cert-file and --tls-private-key-file"
        if settings.cluster_file:
            from webhook.cluster.dumpfile import DumpFileError, load_view

            try:
                load_view(settings.cluster_file)
            except DumpFileError as exc:
                return str(exc)
        else:
            load_client_configuration(settings.kubeconfig)
        SchedulerModels(settings.scheduler_config, settings.volcano_config, settings.scheduler_build).current()
    except (TLSConfigError, ClientConfigError, ModelLoadError) as exc:
        return str(exc)
    return None


def run_review(args: argparse.Namespace) -> int:
    from webhook.errors import exception_line
    from webhook.review import EXIT_BAD_INPUT, run

    try:
        return run(args, sys.stdout, sys.stderr)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the last resort outside the per-file decisions (e.g. loading a file): one line
        print(f"{PROG} review: internal error: {exception_line(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT


def run_serve(args: argparse.Namespace) -> int:
    overrides = {field: getattr(args, field) for _, field, _, _ in SERVE_FLAGS}
    raw_timeout = args.request_timeout if args.request_timeout is not None else os.environ.get(REQUEST_TIMEOUT_ENV)
    if raw_timeout not in (None, ""):
        try:
            timeout = float(raw_timeout)
        except ValueError:
            timeout = math.nan
        if not (math.isfinite(timeout) and timeout > 0):
            return _fail(f"--request-timeout / {REQUEST_TIMEOUT_ENV}: must be a number of seconds > 0, "
                         f"got {raw_timeout!r}")
    try:
        settings = Settings.from_env(os.environ, **overrides)
    except SettingsError as exc:
        return _fail(str(exc))
    problem = check_serve(settings)
    if problem:
        return _fail(problem)
    for field, value in overrides.items():
        if value is not None:
            os.environ[env_name(field)] = str(value)
    if args.request_timeout is not None:
        os.environ[REQUEST_TIMEOUT_ENV] = str(args.request_timeout)
    if (settings.workers > 1 or settings.metrics_bind) and not os.environ.get(MULTIPROC_ENV):
        # Must happen before gunicorn_conf imports the app (and prometheus_client) in this master,
        # so that every forked worker writes its metrics where any worker's /metrics, and the
        # master's metrics listener, can sum them.
        os.environ[MULTIPROC_ENV] = tempfile.mkdtemp(prefix="binpack-guard-metrics-")
    if settings.workers > 1 and not os.environ.get(READINESS_DIR_ENV):
        # every worker's cache must be ready for the pod to be: see webhook.server.readiness
        os.environ[READINESS_DIR_ENV] = tempfile.mkdtemp(prefix="binpack-guard-readiness-")
    if not settings.tls_cert_file:
        print(f"{PROG} serve: warning: no TLS files given, serving plain HTTP (local testing only)",
              file=sys.stderr)
    WebhookServer().run()
    return 0


class WebhookServer(BaseApplication):  # type: ignore[misc]  # gunicorn is untyped
    """gunicorn in-process, configured like ``-c python:webhook.server.gunicorn_conf``."""

    def load_config(self) -> None:
        conf = importlib.import_module("webhook.server.gunicorn_conf")
        for key, value in vars(conf).items():
            if key in self.cfg.settings and value is not None:
                self.cfg.set(key, value)

    def load(self) -> Any:
        from webhook.server.wsgi import application

        return application()
