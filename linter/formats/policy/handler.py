"""The legacy scheduler Policy format (``kind: Policy``, Kubernetes 1.16-1.22): recognise and check it once.

No kube-scheduler since 1.23 reads this file (BPL300 says so on every Policy). The context
also keeps what the last release that did read it (1.22) would have said, so the user can
fix it if they still run such a cluster, and the RequestedToCapacityRatio priority as a
:class:`~linter.model.LegacyPolicyModel` for ``binpack-lint explain`` and the v1 migration hint.

``model`` is filled whenever the Policy decodes and 1.22 would have accepted it, even though
BPL300 (an error) is always reported: callers that explain legacy files ignore BPL300.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from linter import schema
from linter.formats.policy.validate import LegacyError, first_rtcr, registry_errors, validation_errors
from linter.gozero import as_int, as_list, as_map
from linter.model import (
    DEFAULT_RESOURCES,
    LegacyPolicyModel,
    LegacyRtcrPriority,
    ResourceWeight,
    SchedulerModel,
    ShapePoint,
)
from linter.source import Document, Pointer

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
    # a null point is Go's zero point {0, 0}, as the 1.22 plugin got it
    shape = tuple(ShapePoint(as_int(as_map(p).get("utilization")), as_int(as_map(p).get("score")))
                  for p in as_list(args.get("shape")))
    resources = tuple(ResourceWeight(str(r.get("name") or ""), as_int(r.get("weight")))
                      for r in args.get("resources") or [] if isinstance(r, dict))
    return LegacyPolicyModel(rtcr=LegacyRtcrPriority(
        name=str(priority.get("name") or ""), weight=as_int(priority.get("weight")), shape=shape,
        resources=resources or DEFAULT_RESOURCES))


def _floats(value: Any, pointer: Pointer) -> Iterator[tuple[Pointer, float]]:
    if isinstance(value, float):
        yield pointer, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _floats(item, (*pointer, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _floats(item, (*pointer, i))


def _go_ints(value: Any) -> Any:
    """``value`` with YAML's integral floats as ints: YAMLToJSON wrote ``1.0`` as ``1``, which decoded into
    the Policy's integer fields (a JSON ``1.0`` did not decode at all)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _go_ints(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_go_ints(item) for item in value]
    return value


def _json_floats(document: Document) -> list[schema.SchemaError]:
    """Numbers written with a fraction or exponent in a JSON Policy: every number field of the Policy is an
    integer, and 1.22's JSON decoder (json-iterator) refused ``1.0`` or ``1e2`` for one ("can not decode
    float as int"). In YAML, ``1.0`` went through YAMLToJSON as ``1`` and decoded."""
    out: list[schema.SchemaError] = []
    for pointer, value in _floats(document.data, ()):
        if value.is_integer():  # the schema already reports a fractional value
            line, column = document.locate(pointer)
            out.append(schema.SchemaError(pointer, f"{schema.dotted(pointer)}: must be an integer, not {value!r} "
                                                   "(1.22's JSON decoder refused a float for an integer field)",
                                          line, column))
    return out


class PolicyHandler:
    kind = KIND

    def matches(self, data: Any) -> bool:
        """``kind: Policy`` of the scheduler's groups only: audit.k8s.io, Kyverno, ... have a Policy too."""
        return isinstance(data, dict) and data.get("kind") == "Policy" and data.get("apiVersion") in API_VERSIONS

    def analyze(self, document: Document) -> PolicyContext:
        ctx = PolicyContext(document)
        ctx.schema_errors = schema.validate(document, SCHEMA_NAME)  # also says so when the root is no mapping
        if document.is_json:
            ctx.schema_errors = sorted(ctx.schema_errors + _json_floats(document),
                                       key=lambda e: (e.line, e.column, e.message))
        # 1.22 read the Policy with the scheduler scheme's strict, case-sensitive decoder: a wrong type,
        # an unknown key or a repeated one made it refuse the whole file
        ctx.decodes = (isinstance(document.data, dict) and not ctx.schema_errors
                       and not document.duplicate_keys)
        if ctx.decodes:
            policy = _go_ints(document.data)
            ctx.validation = validation_errors(policy)
            ctx.registry = registry_errors(policy)
            if not ctx.validation and not ctx.registry:
                ctx.model = legacy_model(policy)
        return ctx


HANDLER = PolicyHandler()
