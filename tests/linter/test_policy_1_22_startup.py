"""What kube-scheduler 1.22 said at start-up about a legacy Policy, beyond ``ValidatePolicy``.

Texts from the 1.22 sources: the legacy registry (pkg/scheduler/framework/plugins/legacy_registry.go,
errors returned since 1.21), the RequestedToCapacityRatio plugin's args validation and
``validateExtenders`` with 1.22's ``IsQualifiedName``.
"""

from __future__ import annotations

import json
from typing import Any

from linter.engine import lint_text
from linter.formats.policy.handler import HANDLER, PolicyContext
from linter.source import parse_documents


def _analyze(body: dict[str, Any]) -> PolicyContext:
    text = json.dumps({"kind": "Policy", "apiVersion": "v1", **body})
    return HANDLER.analyze(parse_documents(text, "p.json", is_json=True)[0])


def _rtcr(shape: list[dict[str, int]]) -> dict[str, Any]:
    return {"requestedToCapacityRatioArguments": {"shape": shape}}


def test_unknown_names_get_the_registry_errors_of_1_22() -> None:
    ctx = _analyze({"predicates": [{"name": "CheckNodeMemoryPressure"}],
                    "priorities": [{"name": "MostRequested", "weight": 1}]})
    assert [e.message for e in ctx.registry] == ['predicate type not found for "CheckNodeMemoryPressure"',
                                                 'priority type not found for "MostRequested"']
    findings = [f.message for f in lint_text(json.dumps({"kind": "Policy", "apiVersion": "v1", "priorities": [
        {"name": "MostRequested", "weight": 1}]}), "p.json") if f.rule == "BPL302"]
    assert findings == ['kube-scheduler 1.22 exits with: priority type not found for "MostRequested"']


def test_argument_members_other_than_one() -> None:
    ctx = _analyze({"predicates": [{"name": "p", "argument": {}}],
                    "priorities": [{"name": "q", "weight": 3, "argument": {
                        "labelPreference": {"label": "a"}, "serviceAntiAffinity": {"label": "b"}}}]})
    assert [e.message for e in ctx.registry] == [
        "exactly 1 predicate argument is required, numArgs: 0, predicate {p 0x...}",
        "exactly 1 priority argument is required, numArgs: 2, priority {q 3 0x...}"]


def test_priority_names_1_22_no_longer_registered() -> None:
    ctx = _analyze({"priorities": [{"name": "RequestedToCapacityRatioPriority", "weight": 1},
                                   {"name": "ResourceLimitsPriority", "weight": 1}]})
    assert [e.message for e in ctx.registry] == [
        'priority type not found for "RequestedToCapacityRatioPriority"',
        'priority type not found for "ResourceLimitsPriority"']


def test_plugin_names_are_registry_keys_and_bare_nodelabel_dereferences_nil() -> None:
    assert not _analyze({"priorities": [{"name": "RequestedToCapacityRatio", "weight": 1}]}).registry
    bare = _analyze({"priorities": [{"name": "NodeLabel", "weight": 1}, {"name": "ServiceAffinity", "weight": 1}]})
    assert [(e.message, e.pointer) for e in bare.registry] == [
        ("panic: runtime error: invalid memory address or nil pointer dereference", ("priorities", 0, "name")),
        ("panic: runtime error: invalid memory address or nil pointer dereference", ("priorities", 1, "name"))]
    filled = _analyze({"priorities": [{"name": "NodeLabel", "weight": 1}, {
        "name": "prefer-ssd", "weight": 1, "argument": {"labelPreference": {"label": "ssd", "presence": True}}}]})
    assert not filled.registry and not filled.validation


def test_a_registered_name_keeps_its_plugin_and_drops_rtcr_arguments() -> None:
    ctx = _analyze({"priorities": [{"name": "LeastRequestedPriority", "weight": 2,
                                    "argument": _rtcr([{"utilization": 50, "score": 11}])}]})
    assert not ctx.validation and not ctx.registry
    assert ctx.model is not None and ctx.rtcr is None


def test_rtcr_arguments_use_the_1_22_sorted_text() -> None:
    ctx = _analyze({"priorities": [{"name": "binpack", "weight": 2, "argument": _rtcr(
        [{"utilization": 50, "score": 1}, {"utilization": 40, "score": 2}])}]})
    assert [e.message for e in ctx.validation] == [
        "shape[1].utilization: Invalid value: 40: utilization values must be sorted in increasing order"]


def test_rtcr_plugin_is_not_built_when_the_registry_failed_first() -> None:
    ctx = _analyze({"predicates": [{"name": "Bogus"}], "priorities": [
        {"name": "binpack", "weight": 2, "argument": _rtcr([{"utilization": 50, "score": 11}])}]})
    assert [e.message for e in ctx.registry] == ['predicate type not found for "Bogus"']
    assert ctx.validation == []


def test_extender_resource_name_with_two_slashes_uses_the_1_22_text() -> None:
    ctx = _analyze({"extenders": [{"urlPrefix": "http://x", "managedResources": [{"name": "a/b/c"}]}]})
    assert [e.message for e in ctx.validation] == [
        'extenders[0].managedResources[0].name: Invalid value: "a/b/c": a qualified name must consist of '
        "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "
        "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
        "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' "
        "(e.g. 'example.com/MyName')"]
