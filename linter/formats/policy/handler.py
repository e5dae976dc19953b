"""The legacy scheduler Policy format (``kind: Policy``, Kubernetes 1.16-1.22): recognise and check it once.

No kube-scheduler since 1.23 reads this file (BPL300 says so on every Policy). The context
also keeps what the last release that did read it (1.22) would have said, so the user can
fix it if they still run such a cluster, and the RequestedToCapacityRatio priority as a
:class:`~linter.model.LegacyPolicyModel` for ``binpack-lint explain`` and the v1 migration hint.

``model`` is filled whenever the Policy decodes and 1.22 would have accepted it, even though
BPL300 (an error) is always reported: callers that explain legacy files ignore BPL300.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from linter import schema
from linter.formats.policy.validate import LegacyError, first_rtcr, registry_errors, validation_errors
from linter.gozero import as_int
from linter.model import (
    DEFAULT_RESOURCES,
    LegacyPolicyModel,
    LegacyRtcrPriority,
    ResourceWeight,
    SchedulerModel,
    ShapePoint,
)
from linter.source import Document

KIND = "legacy-policy"
SCHEMA_NAME = "legacy-policy-v1"
CONFIGMAP_KEY = "policy.cfg"
# The legacy group ("" / v1) and, from 1.19, kubescheduler.config.k8s.io/v1; absent = the decoder's default.
API_VERSIONS = (None, "v1", "kubescheduler.config.k8s.io/v1")


@dataclass
class PolicyContext:
    document: Document
    model: SchedulerModel | None = None  # a LegacyPolicyModel when set
    kind: str = KIND
    schema_errors: list[schema.SchemaError] = field(default_factory=list)
    decodes: bool = True  # False when 1.22's strict decoder refused the file (type, unknown or duplicate key)
    validation: list[LegacyError] = field(default_factory=list)  # 1.22 validation, exact texts
    registry: list[LegacyError] = field(default_factory=list)  # 1.22 legacy registry start-up errors

    @property
    def data(self) -> dict[str, Any]:
        return self.document.data if isinstance(self.document.data, dict) else {}

    @property
    def rtcr(self) -> LegacyRtcrPriority | None:
        return self.model.rtcr if isinstance(self.model, LegacyPolicyModel) else None


def legacy_model(policy: dict[str, Any]) -> LegacyPolicyModel:
    """The RTCR priority as 1.22 built it: shape as written (0..10), resources default cpu:1, memory:1."""
    found = first_rtcr(policy)
    if found is None:
        return LegacyPolicyModel(rtcr=None)
    index, args = found
    priority = policy["priorities"][index]
    shape = tuple(ShapePoint(as_int(p.get("utilization")), as_int(p.get("score")))
                  for p in args.get("shape") or [] if isinstance(p, dict))
    resources = tuple(ResourceWeight(str(r.get("name") or ""), as_int(r.get("weight")))
                      for r in args.get("resources") or [] if isinstance(r, dict))
    return LegacyPolicyModel(rtcr=LegacyRtcrPriority(
        name=str(priority.get("name") or ""), weight=as_int(priority.get("weight")), shape=shape,
        resources=resources or DEFAULT_RESOURCES))


class PolicyHandler:
    kind = KIND

    def matches(self, data: Any) -> bool:
        """``kind: Policy`` of the scheduler's groups only: audit.k8s.io, Kyverno, ... have a Policy too."""
        return isinstance(data, dict) and data.get("kind") == "Policy" and data.get("apiVersion") in API_VERSIONS

    def analyze(self, document: Document) -> PolicyContext:
        ctx = PolicyContext(document)
        ctx.schema_errors = schema.validate(document, SCHEMA_NAME)  # also says so when the root is no mapping
        # 1.22 read the Policy with the scheduler scheme's strict, case-sensitive decoder: a wrong type,
        # an unknown key or a repeated one made it refuse the whole file
        ctx.decodes = (isinstance(document.data, dict) and not ctx.schema_errors
                       and not document.duplicate_keys)
        if ctx.decodes:
            ctx.validation = validation_errors(document.data)
            ctx.registry = registry_errors(document.data)
            if not ctx.validation and not ctx.registry:
                ctx.model = legacy_model(document.data)
        return ctx


HANDLER = PolicyHandler()
