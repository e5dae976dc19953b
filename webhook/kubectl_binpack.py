"""``kubectl binpack explain -f pod.yaml``: ``binpack-lint explain`` on the live cluster of the current kubeconfig.

Installed as the ``kubectl-binpack`` console script, which kubectl finds on ``$PATH`` as the plugin
``kubectl binpack``. It lists every Node, Pod, PriorityClass, PodDisruptionBudget and RuntimeClass, and the
Services, ReplicaSets, StatefulSets, ReplicationControllers and Namespaces that PodTopologySpread and
InterPodAffinity read, through the webhook's kubernetes client (``webhook.cluster.kubeclient``, paginated, raw
JSON), writes them as one ``v1/List`` to a private temporary file and runs explain's own command on it, so the
output, the flags and the exit codes are exactly ``binpack-lint explain``'s (0 explained, 1 invalid scheduler
config, 2 bad input), plus 2 with one line when the cluster cannot be read. A kind of the second group that the
credentials may not list (HTTP 403) is left out with one warning line, since explain can answer without it. The
local inputs (the pod, the scheduler config, ``--profile``) are read and checked before the cluster is, so a
bad one costs no apiserver call.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn, TextIO

from linter.explain import command
from webhook.cluster.kubeclient import (
    ClientConfigError,
    KubeSource,
    kind_sources,
    load_client_configuration,
    runtime_class_source,
    spreading_sources,
)
from webhook.cluster.reflector import Expired, Forbidden, SourceError

PROG = "kubectl binpack"
PAGE = 500


class _OneLineParser(argparse.ArgumentParser):
    """Bad usage is one line and exit 2, as in binpack-lint and binpack-webhook (argparse adds the usage block).
    Not webhook.cli's parser: importing that module starts gunicorn's import, which a kubectl plugin has no use for."""

    def error(self, message: str) -> NoReturn:
        self.exit(command.EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(prog=PROG, description="binpack-guard against the current cluster")
    commands = parser.add_subparsers(dest="command", required=True, metavar="{explain}")
    p = commands.add_parser("explain", help="why the scheduler would score each node as it does for this pod")
    p.add_argument("-f", "--filename", dest="pod", metavar="POD", required=True, help="the pending Pod (YAML/JSON)")
    p.add_argument("--config", metavar="SCHED", help="KubeSchedulerConfiguration or Volcano config "
                   "(default: kube-scheduler 1.36 defaults)")
    p.add_argument("--profile", metavar="NAME", help="scheduler profile (default: the pod's schedulerName)")
    p.add_argument("-o", "--output", dest="format", choices=("text", "json"), default="text")
    p.add_argument("--plot", action="store_true", help="draw the strategy's score line with the nodes marked")
    p.add_argument("--kubeconfig", help="kubeconfig file (default: $KUBECONFIG, ~/.kube/config)")
    return parser


# What explain reads from a cluster, in the cache's order, plus RuntimeClasses: the pod file is written by
# hand, so explain admits it as the RuntimeClass admission plugin would (the webhook's pods already are).
KINDS = (("Node", "v1"), ("Pod", "v1"), ("PriorityClass", "scheduling.k8s.io/v1"),
         ("PodDisruptionBudget", "policy/v1"), ("RuntimeClass", "node.k8s.io/v1"))
# What PodTopologySpread's default selector and InterPodAffinity's namespaceSelector read. Without one of them
# explain still answers (and says where it lacks an owner or a namespace), so a 403 is a warning, not the end.
SPREADING_KINDS = (("Service", "v1"), ("ReplicaSet", "apps/v1"), ("StatefulSet", "apps/v1"),
                   ("ReplicationController", "v1"), ("Namespace", "v1"))


def _list_kind(source: KubeSource, kind: str, api_version: str) -> list[Mapping[str, Any]]:
    items: list[Mapping[str, Any]] = []
    token: str | None = None
    while True:
        page = source.list_page(PAGE, token)
        items += [{**item, "kind": kind, "apiVersion": api_version} for item in page.items]
        token = page.continue_token
        if not token:
            return items


def list_cluster(kubeconfig: str | None, warnings: TextIO) -> dict[str, Any]:
    """Every object of KINDS and SPREADING_KINDS as one ``v1/List`` document; a SPREADING_KINDS kind the
    credentials may not list is left out with a warning line."""
    configuration = load_client_configuration(kubeconfig)
    items: list[Mapping[str, Any]] = []
    sources = [*kind_sources(configuration, 60), runtime_class_source(configuration, 60)]
    for source, (kind, api_version) in zip(sources, KINDS, strict=True):
        items += _list_kind(source, kind, api_version)
    for source, (kind, api_version) in zip(spreading_sources(configuration, 60), SPREADING_KINDS, strict=True):
        try:
            items += _list_kind(source, kind, api_version)
        except Forbidden as exc:
            print(f"{PROG} explain: warning: {exc}; explained without {source.kind}", file=warnings)
    return {"apiVersion": "v1", "kind": "List", "items": items}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    explain_args = argparse.Namespace(config=args.config, cluster=None, pod=args.pod,
                                      profile=args.profile, format=args.format, plot=args.plot)
    # the local files first: a typo in the pod fails at once, not after listing every pod of the cluster
    bad = command.check_local_inputs(explain_args, sys.stderr)
    if bad is not None:
        return bad
    try:
        cluster = list_cluster(args.kubeconfig, sys.stderr)
    except (ClientConfigError, SourceError, Expired) as exc:
        print(f"{PROG} explain: error: cannot read the cluster: {exc}", file=sys.stderr)
        return command.EXIT_BAD_INPUT
    with tempfile.NamedTemporaryFile("w", suffix=".json", prefix="kubectl-binpack-") as dump:
        json.dump(cluster, dump)
        dump.flush()
        explain_args.cluster = dump.name
        return command.run(explain_args, sys.stdout, sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
