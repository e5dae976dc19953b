"""``binpack-lint explain``: score a pending pod on a cluster dump, node by node.

Exit codes: 0 explained; 1 the scheduler config (SCHED) is invalid (its findings are
printed, nothing is scored); 2 bad STATE/POD or usage, with one line naming the file,
object and field.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from linter.findings import Severity
from linter.model import SchedulerModel, default_kube_scheduler_model
from linter.scoring.quantity import QuantityError

from .compute import explain
from .inputs import ExplainInputError, load_pod, load_state, read_text
from .plot import render_plot
from .render_text import render_text

__all__ = ["main"]

EXIT_OK, EXIT_INVALID_CONFIG, EXIT_BAD_INPUT = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_BAD_INPUT, f"binpack-lint explain: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="binpack-lint explain",
        description="Explain how kube-scheduler 1.36, a legacy Policy or Volcano binpack scores a pending pod.",
    )
    p.add_argument("--config", metavar="SCHED", help="KubeSchedulerConfiguration (bare or in a ConfigMap), "
                   "legacy Policy or volcano-scheduler.conf; default: kube-scheduler 1.36 defaults")
    p.add_argument("--cluster", metavar="STATE", required=True,
                   help="kubectl get nodes,pods -A -o yaml|json output (or a YAML stream of Nodes and Pods)")
    p.add_argument("--pod", metavar="POD", required=True, help="the pending Pod (YAML or JSON)")
    p.add_argument("--profile", metavar="NAME", help="scheduler profile (default: the pod's schedulerName)")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text")
    p.add_argument("--plot", action="store_true", help="draw the strategy's score line with the nodes marked")
    return p


def _load_model(path: str, err: TextIO) -> SchedulerModel | None:
    text = read_text(path, "SCHED")
    # The engine pulls in every rule: load it only when a config is given.
    from linter.engine import load_scheduler_model
    from linter.formats.policy.codes import REMOVED as POLICY_REMOVED
    from linter.settings import LintSettings

    # Explaining an old Policy is the point of the legacy engine: "the Policy API is gone" stays
    # on stderr as a warning instead of blocking the explanation.
    settings = LintSettings(severity_overrides={POLICY_REMOVED: Severity.WARNING})
    model, findings = load_scheduler_model(text, path, settings)
    for f in findings:
        err.write(f"{f.path}:{f.line}:{f.column}: {f.severity} [{f.rule}] {f.message}\n")
    if model is None and not findings:
        err.write(f"{path}:1:1: error [explain] not a scheduler configuration\n")
    return model


def main(argv: list[str] | None = None, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    args = _parser().parse_args(argv)
    try:
        if args.config:
            model = _load_model(args.config, err)
            if model is None:
                return EXIT_INVALID_CONFIG
        else:
            model = default_kube_scheduler_model()
        nodes, pods = load_state(read_text(args.cluster, "STATE"), args.cluster)
        pod = load_pod(read_text(args.pod, "POD"), args.pod)
        try:
            doc = explain(model, nodes, pods, pod, args.profile)
        except QuantityError as exc:
            raise ExplainInputError(f"STATE {args.cluster}: {exc}") from None
        except ValueError as exc:  # a model the scorer cannot run (e.g. an unknown strategy)
            err.write(f"binpack-lint explain: error: SCHED {args.config}: {exc}\n")
            return EXIT_INVALID_CONFIG
    except ExplainInputError as exc:
        err.write(f"binpack-lint explain: error: {exc}\n")
        return EXIT_BAD_INPUT
    if args.format == "json":
        out.write(json.dumps(doc, indent=2) + "\n")
    else:
        out.write(render_text(doc))
        if args.plot:
            out.write("\n" + render_plot(doc))
    return EXIT_OK
