"""A kube-scheduler static Pod manifest (``/etc/kubernetes/manifests/kube-scheduler.yaml``) that still
passes the flags of the removed legacy Policy API.

Recognised: ``kind: Pod`` whose container ``command``/``args`` run ``kube-scheduler`` (the first
command element's base name, or ``kube-scheduler`` as an argument of a wrapper). Found: every
``--policy-config-file``, ``--policy-configmap`` and ``--policy-configmap-namespace`` flag, in the
``--flag=value`` or ``--flag value`` spelling; kube-scheduler 1.23 and later refuse to start with
them (``unknown flag``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from linter.findings import Violation
from linter.model import SchedulerModel
from linter.source import Document, Pointer

KIND = "kube-scheduler-pod"
POLICY_FLAGS = ("--policy-config-file", "--policy-configmap", "--policy-configmap-namespace")


@dataclass(frozen=True)
class PolicyFlag:
    flag: str
    value: str | None
    pointer: Pointer


@dataclass
class SchedulerPodContext:
    document: Document
    model: SchedulerModel | None = None
    kind: str = KIND
    flags: list[PolicyFlag] = field(default_factory=list)


def _containers(data: Any) -> list[tuple[Pointer, dict[str, Any]]]:
    spec = data.get("spec") if isinstance(data, dict) else None
    out: list[tuple[Pointer, dict[str, Any]]] = []
    for group in ("initContainers", "containers"):
        items = spec.get(group) if isinstance(spec, dict) else None
        for i, c in enumerate(items if isinstance(items, list) else []):
            if isinstance(c, dict):
                out.append((("spec", group, i), c))
    return out


def _words(container: dict[str, Any]) -> list[tuple[Pointer, str]]:
    words: list[tuple[Pointer, str]] = []
    for key in ("command", "args"):
        values = container.get(key)
        for i, v in enumerate(values if isinstance(values, list) else []):
            if isinstance(v, str):
                words.append(((key, i), v))
    return words


def runs_kube_scheduler(container: dict[str, Any]) -> bool:
    words = [w for _, w in _words(container)]
    return any(w.rsplit("/", 1)[-1] == "kube-scheduler" for w in words[:2])


class SchedulerPodHandler:
    kind = KIND

    def matches(self, data: Any) -> bool:
        return (isinstance(data, dict) and data.get("kind") == "Pod"
                and any(runs_kube_scheduler(c) for _, c in _containers(data)))

    def analyze(self, document: Document) -> SchedulerPodContext:
        ctx = SchedulerPodContext(document)
        for base, container in _containers(document.data):
            if not runs_kube_scheduler(container):
                continue
            words = _words(container)
            for n, (pointer, word) in enumerate(words):
                flag, eq, value = word.partition("=")
                if flag not in POLICY_FLAGS:
                    continue
                if not eq:
                    value = words[n + 1][1] if n + 1 < len(words) else ""
                ctx.flags.append(PolicyFlag(flag, value or None, (*base, *pointer)))
        return ctx


HANDLER = SchedulerPodHandler()


def policy_flags(ctx: SchedulerPodContext) -> Iterator[Violation]:
    for flag in ctx.flags:
        how = (f"binpack-lint migrate --write {flag.value}, then replace this flag with --config={flag.value}"
               if flag.flag == "--policy-config-file" and flag.value else
               "binpack-lint migrate the Policy (from the ConfigMap's policy.cfg), then pass it with --config")
        yield Violation(f"{flag.flag} was removed in Kubernetes 1.23: kube-scheduler 1.36 refuses to start "
                        "(unknown flag); migrate the Policy with 'binpack-lint migrate' and pass it with --config",
                        flag.pointer, detail=f"Error: unknown flag: {flag.flag}\nfix: {how}")
