"""What ``binpack-lint explain`` does once its arguments are parsed (``linter.cli.explain`` parses them).

Exit codes: 0 explained; 1 the scheduler config (SCHED) is invalid (its findings are
printed, nothing is scored); 2 bad STATE/POD or usage, with one line naming the file,
object and field.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any, TextIO

from linter.findings import Severity
from linter.model import KubeSchedulerModel, SchedulerModel, default_kube_scheduler_model
from linter.scoring.apivalidation import resource_refusal
from linter.scoring.imagelocality import pod_images
from linter.scoring.quantity import QuantityError

from .compute import explain_dump, select_profile
from .dump import describe
from .inputs import ExplainInputError, load_cluster, load_cluster_objects, load_pod, read_text
from .nonfinite import dumps
from .plot import render_plot
from .render_preemption import render_preemption, render_preemption_plot
from .render_text import render_text
from .runtimeclass import RuntimeClassRejection, admit_runtime_class

__all__ = ["check_local_inputs", "run"]

EXIT_OK, EXIT_INVALID_CONFIG, EXIT_BAD_INPUT = 0, 1, 2


def _load_model(path: str, err: TextIO, build: dict[str, Any]) -> SchedulerModel | None:
    text = read_text(path, "SCHED")
    # The engine pulls in every rule: load it only when a config is given.
    from linter.engine import load_scheduler_model
    from linter.formats.policy.codes import REMOVED as POLICY_REMOVED
    from linter.settings import LintSettings

    # Explaining an old Policy is the point of the legacy engine: "the Policy API is gone" stays
    # on stderr as a warning instead of blocking the explanation.
    settings = LintSettings(severity_overrides={POLICY_REMOVED: Severity.WARNING}, **build)
    model, findings = load_scheduler_model(text, path, settings)
    for f in findings:
        err.write(f.as_text() + "\n")
    if model is None and not findings:
        err.write(f"{path}:1:1: error [explain] not a scheduler configuration\n")
    return model


def _local_inputs(args: argparse.Namespace, err: TextIO) -> tuple[SchedulerModel, Mapping[str, Any]] | None:
    """SCHED (None: invalid, its findings written to ``err``) and POD, read and checked, and ``--profile``
    looked up: everything that needs no cluster. Bad POD or profile: ExplainInputError."""
    if args.config:
        model = _load_model(args.config, err, getattr(args, "build", {}))
        if model is None:
            return None
    else:
        model = default_kube_scheduler_model()
    pod = load_pod(read_text(args.pod, "POD"), args.pod)
    if isinstance(model, KubeSchedulerModel):
        select_profile(model, args.profile, pod)
    return model, pod


def check_local_inputs(args: argparse.Namespace, err: TextIO) -> int | None:
    """What :func:`run` reports about SCHED, POD and ``--profile``, before anything reads a cluster (``kubectl
    binpack`` calls it before it lists the live cluster): the exit code when one is bad, else None."""
    try:
        return EXIT_INVALID_CONFIG if _local_inputs(args, err) is None else None
    except ExplainInputError as exc:
        err.write(f"binpack-lint explain: error: {exc}\n")
        return EXIT_BAD_INPUT


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Score ``args.pod`` on ``args.cluster`` under ``args.config``; writes the explanation to ``out``.
    SCHED and POD are checked first, so a bad one is reported before STATE (any size) is read."""
    try:
        local = _local_inputs(args, err)
        if local is None:
            return EXIT_INVALID_CONFIG
        model, pod = local
        refusal = resource_refusal(pod)
        if refusal is not None:  # scored anyway: hand-written pods (and the scoring vectors) often skip limits
            err.write(f"binpack-lint explain: warning: POD {args.pod}: {describe(pod)}: {refusal} (the API server "
                      "would refuse this pod; it is explained as written)\n")
        dump = load_cluster(args.cluster, frozenset(pod_images(pod).refs))  # RuntimeClasses change no image
        try:
            pod = admit_runtime_class(pod, dump.runtime_classes)
        except RuntimeClassRejection as exc:
            raise ExplainInputError(f"POD {args.pod}: spec.runtimeClassName: {exc} "
                                    "(the API server would reject this pod)") from None
        try:
            doc = explain_dump(model, dump, pod, args.profile, lambda: load_cluster_objects(args.cluster))
        except LookupError as exc:
            raise ExplainInputError(f"POD {args.pod}: spec.priorityClassName: {exc} "
                                    "(the API server would reject this pod)") from None
        except QuantityError as exc:
            raise ExplainInputError(f"STATE {args.cluster}: {exc}") from None
        except ValueError as exc:  # a model the scorer cannot run (e.g. an unknown strategy)
            err.write(f"binpack-lint explain: error: SCHED {args.config}: {exc}\n")
            return EXIT_INVALID_CONFIG
    except ExplainInputError as exc:
        err.write(f"binpack-lint explain: error: {exc}\n")
        return EXIT_BAD_INPUT
    if args.format == "json":
        out.write(dumps(doc) + "\n")  # NaN and the infinities as Go's strings
    else:
        out.write(render_text(doc))
        if doc.get("preemption") is not None:  # only a pod that fits nowhere gets the section
            out.write("\n" + render_preemption(doc["preemption"]))
        if args.plot:
            out.write("\n" + render_plot(doc))
            if doc.get("preemption") is not None:
                out.write("\n" + render_preemption_plot(doc["preemption"]))
    return EXIT_OK
