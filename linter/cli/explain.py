"""``binpack-lint explain``: score a pending pod on a cluster dump, node by node.

Exit codes: 0 explained; 1 the scheduler config (SCHED) is invalid (its findings are printed,
nothing is scored); 2 bad STATE/POD or usage, one line naming the file, object and field.
The work is ``linter.explain.command.run``, imported only when the command runs because it
loads the scoring model.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from linter.cli.lint import add_scheduler_option

NAME = "explain"
HELP = "explain how the scheduler scores a pending pod on each node"


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        NAME, help=HELP,
        description="Explain how kube-scheduler 1.36, a legacy Policy or Volcano binpack scores a pending pod. "
        "With kube-scheduler, a pod that fits on no node gets a preemption section: the node it would be "
        "nominated to, the victims and why, the PDBs violated, or why no preemption helps, and the exact "
        "FailedScheduling message.",
    )
    p.add_argument("--config", metavar="SCHED", help="KubeSchedulerConfiguration (bare or in a ConfigMap), "
                   "legacy Policy or volcano-scheduler.conf; default: kube-scheduler 1.36 defaults")
    p.add_argument("--cluster", metavar="STATE", required=True,
                   help="kubectl get nodes,pods,priorityclasses,pdb,runtimeclasses,services,replicasets,"
                   "statefulsets,replicationcontrollers,namespaces -A -o yaml|json output (or a YAML stream of those "
                   "kinds); PriorityClasses and PodDisruptionBudgets feed the preemption section, RuntimeClasses admit "
                   "the pod, Services, ReplicaSets, StatefulSets and ReplicationControllers give PodTopologySpread's "
                   "default selector, Namespaces' labels serve pod affinity namespaceSelectors; streamed, any size")
    p.add_argument("--pod", metavar="POD", required=True, help="the pending Pod (YAML or JSON)")
    p.add_argument("--profile", metavar="NAME", help="scheduler profile (default: the pod's schedulerName)")
    add_scheduler_option(p)
    p.add_argument("--project-config", metavar="FILE", dest="project_config",
                   help="project config to read 'scheduler' and 'plugins' from (default: searched for as lint does)")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text")
    p.add_argument("--plot", action="store_true",
                   help="draw the strategy's score line with the nodes marked; when the pod fits nowhere, also "
                   "the nominated node's requests before/after the evictions against allocatable")
    return p


def run(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from linter.cli.lint import project_config, scheduler_settings
    from linter.explain.command import run as explain  # here, not at the top: it loads the scoring model

    project = project_config(options.project_config, disabled=False)
    options.build = scheduler_settings(project, options.scheduler)
    return explain(options, out, err)
