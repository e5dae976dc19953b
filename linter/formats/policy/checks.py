"""What each legacy Policy rule checks: one function per rule, named after its code's constant in
``codes``. The rule modules in ``linter.rules.policy`` hold the documentation and metadata and
take their ``check`` from here."""

from __future__ import annotations

from collections.abc import Iterator

from linter.duplicatekeys import duplicate_keys
from linter.findings import Violation
from linter.formats.policy.handler import PolicyContext
from linter.formats.policy.migrate import SCALE_NOTE, v1_caveats, v1_one_line
from linter.formats.policy.validate import RTCR_KEY, first_rtcr
from linter.model import shape_falls

STRICT_DETAIL = ("1.22 decoded --policy-config-file and the policy.cfg ConfigMap key with the scheduler scheme's "
                 "strict decoder, matching keys case-sensitively: it exited with 'invalid policy: strict decoder "
                 "error for ...'")


def schema(ctx: PolicyContext) -> Iterator[Violation]:
    for error in ctx.schema_errors:
        if not error.key:
            yield Violation(error.message, error.pointer)


def unknown_field(ctx: PolicyContext) -> Iterator[Violation]:
    for error in ctx.schema_errors:
        if error.key:
            yield Violation(f"{error.message}: kube-scheduler 1.22 decoded the Policy strictly and refused the file",
                            error.pointer, on_key=True, detail=STRICT_DETAIL)


def duplicate_key(ctx: PolicyContext) -> Iterator[Violation]:
    return duplicate_keys(ctx.document, "kube-scheduler 1.22 decoded the Policy strictly and refused the file")


def removed(ctx: PolicyContext) -> Iterator[Violation]:
    yield Violation("legacy scheduler Policy API removed in Kubernetes 1.23: no kube-scheduler since 1.23 reads "
                    "it; 'binpack-lint migrate' rewrites it as a KubeSchedulerConfiguration "
                    "(kubescheduler.config.k8s.io/v1)",
                    ("kind",), detail="--policy-config-file, --policy-configmap and --policy-configmap-namespace "
                    "were removed with the Policy API in Kubernetes 1.23")


def invalid(ctx: PolicyContext) -> Iterator[Violation]:
    for error in ctx.validation:
        yield Violation(f"kube-scheduler 1.22 rejects this Policy: {error.message}", error.pointer)


def unknown_name(ctx: PolicyContext) -> Iterator[Violation]:
    for error in ctx.registry:
        yield Violation(f"kube-scheduler 1.22 exits with: {error.message}", error.pointer)


def rtcr_migration(ctx: PolicyContext) -> Iterator[Violation]:
    rtcr = ctx.rtcr
    found = first_rtcr(ctx.data)
    if rtcr is None or found is None:
        return
    caveats = "".join(f"\nnote: {c}" for c in v1_caveats(rtcr))
    yield Violation(f"priority {rtcr.name!r} (weight {rtcr.weight}): the kubescheduler.config.k8s.io/v1 "
                    "equivalent is in the detail",
                    ("priorities", found[0], "argument", RTCR_KEY), on_key=True,
                    detail=f"{v1_one_line(rtcr)}\n{SCALE_NOTE}{caveats}")


def shape_spreads(ctx: PolicyContext) -> Iterator[Violation]:
    rtcr, found = ctx.rtcr, first_rtcr(ctx.data)
    if rtcr is None or found is None or not shape_falls(rtcr.shape):
        return
    low = min(rtcr.shape, key=lambda p: p.utilization)
    high = max(rtcr.shape, key=lambda p: p.utilization)
    yield Violation(f"priority {rtcr.name!r}: its shape scores {high.score} at {high.utilization}% utilization but "
                    f"{low.score} at {low.utilization}%, so emptier nodes win: it spreads pods instead of packing them",
                    ("priorities", found[0], "argument", RTCR_KEY, "shape"))
