"""``binpack-webhook certs``: its arguments, then the plan carried out on a directory or on Secrets.

Exit codes: 0 done (or nothing to do), 1 the store could not be read or written, 2 bad arguments.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime, timedelta

from webhook.certs import local
from webhook.certs.plan import DEFAULT_CA_DAYS, DEFAULT_SERVING_DAYS, CertPolicy, service_dns_names


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``binpack-webhook certs``."""
    p = subparsers.add_parser(
        "certs",
        help="create or renew the webhook's CA and serving certificate (idempotent)",
        description="Create, keep or renew the webhook's certificates; store them in Secrets and write the CA "
        "bundle into the webhook configurations' caBundle, or (--local-dir) into a directory.",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--local-dir", metavar="DIR", help="write ca.crt, ca.key, tls.crt, tls.key here instead")
    where.add_argument("--kubeconfig", metavar="PATH", help="kubeconfig file (default: in-cluster config)")
    p.add_argument("--service", required=True, help="Service name the certificate is for")
    p.add_argument("--namespace", default="default", help="namespace of the Service and the Secrets")
    p.add_argument("--cluster-domain", default="cluster.local", help="cluster DNS domain (default cluster.local)")
    p.add_argument("--extra-dns-name", action="append", default=[], metavar="NAME", help="additional DNS SAN")
    p.add_argument("--ip-address", action="append", default=[], metavar="IP", help="IP SAN, e.g. 127.0.0.1")
    p.add_argument("--ca-secret", metavar="NAME", help="Secret holding ca.crt (bundle) and ca.key")
    p.add_argument("--tls-secret", metavar="NAME", help="Secret (kubernetes.io/tls) mounted by the server")
    p.add_argument("--mutating-webhook-configuration", action="append", default=[], metavar="NAME")
    p.add_argument("--validating-webhook-configuration", action="append", default=[], metavar="NAME")
    p.add_argument(
        "--owner-mutating-webhook-configuration",
        metavar="NAME",
        help="make both Secrets owned by this MutatingWebhookConfiguration, so they go when it goes",
    )
    p.add_argument("--serving-validity-days", type=_positive_int, default=DEFAULT_SERVING_DAYS)
    p.add_argument("--ca-validity-days", type=_positive_int, default=DEFAULT_CA_DAYS)
    p.set_defaults(func=run)


def _positive_int(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def policy_from_args(args: argparse.Namespace) -> CertPolicy:
    names = service_dns_names(args.service, args.namespace, args.cluster_domain) + tuple(args.extra_dns_name)
    return CertPolicy(
        dns_names=tuple(dict.fromkeys(names)),
        ip_addresses=tuple(dict.fromkeys(args.ip_address)),
        serving_validity=timedelta(days=args.serving_validity_days),
        ca_validity=timedelta(days=args.ca_validity_days),
    )


def run(args: argparse.Namespace) -> int:
    """Entry point of ``binpack-webhook certs``: 0 done, 1 could not read or write, 2 bad arguments."""
    try:
        policy = policy_from_args(args)
        if args.serving_validity_days >= args.ca_validity_days:
            raise ValueError("--serving-validity-days must be shorter than --ca-validity-days")
        for ip in policy.ip_addresses:
            _check_ip(ip)
    except ValueError as exc:
        print(f"binpack-webhook certs: {exc}", file=sys.stderr)
        return 2
    now = datetime.now(UTC)
    if args.local_dir:
        return local.reconcile(args.local_dir, now, policy)
    if not args.ca_secret or not args.tls_secret:
        print("binpack-webhook certs: --ca-secret and --tls-secret are required without --local-dir", file=sys.stderr)
        return 2
    from webhook.certs import kube  # imports the kubernetes client: only when Secrets are the store

    return kube.reconcile(args, now, policy)


def _check_ip(text: str) -> None:
    import ipaddress

    try:
        ipaddress.ip_address(text)
    except ValueError:
        raise ValueError(f"--ip-address: not an IP address: {text!r}") from None
