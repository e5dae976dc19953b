"""Legacy Policy rules as tables: each file under tests/data/configs/legacy-policy is linted through the
real engine and its findings, as (code, line, column), must equal the list in expected.json."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
import yaml

from linter.engine import lint_paths, lint_text, load_scheduler_model
from linter.formats.policy.codes import REMOVED as REMOVED_CODE
from linter.formats.policy.handler import HANDLER
from linter.formats.policy.migrate import v1_config, v1_snippet
from linter.model import LegacyPolicyModel
from linter.rules.policy import RULES
from linter.settings import LintSettings
from linter.source import parse_documents

DATA = Path(__file__).resolve().parents[1] / "data" / "configs" / "legacy-policy"
EXPECTED: dict[str, list[list[object]]] = json.loads((DATA / "expected.json").read_text())
OWN = {r.CODE for r in RULES}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_policy_table(name: str) -> None:
    findings = lint_paths([str(DATA / name)]).findings
    got = [[f.rule, f.line, f.column] for f in findings if f.rule in OWN or f.rule.startswith("BPL00")]
    assert got == EXPECTED[name]


def test_every_policy_rule_has_a_failing_table_case() -> None:
    seen = {code for rows in EXPECTED.values() for code, _, _ in rows}
    assert seen >= OWN, sorted(OWN - seen)


def test_every_table_file_has_an_expectation() -> None:
    assert {p.name for p in DATA.iterdir() if p.name != "expected.json"} == set(EXPECTED)


def test_removed_finding_is_reported_for_every_policy_even_a_valid_one() -> None:
    findings = lint_text('{"kind": "Policy", "apiVersion": "v1"}', "p.json")
    assert [f.rule for f in findings] == [REMOVED_CODE]


def test_model_and_migration_snippet_round_trip() -> None:
    text = (DATA / "rtcr-valid.json").read_text()
    ctx = HANDLER.analyze(parse_documents(text, "p.json", is_json=True)[0])
    assert isinstance(ctx.model, LegacyPolicyModel) and ctx.rtcr is not None
    policy = json.loads(text)
    written = policy["priorities"][1]
    args = written["argument"]["requestedToCapacityRatioArguments"]
    assert ctx.rtcr.weight == written["weight"]
    config = yaml.safe_load(v1_snippet(ctx.rtcr))
    assert config == v1_config(ctx.rtcr)
    profile = config["profiles"][0]
    assert profile["plugins"]["score"]["enabled"] == [{"name": "NodeResourcesFit", "weight": written["weight"]}]
    strategy = profile["pluginConfig"][0]["args"]["scoringStrategy"]
    assert strategy["type"] == "RequestedToCapacityRatio"
    assert strategy["requestedToCapacityRatio"]["shape"] == args["shape"]
    assert strategy["resources"] == args["resources"]
    migration = [f for f in lint_text(text, "p.json") if f.rule == "BPL303"]
    assert len(migration) == 1 and "resource nvidia.com/gpu has 150" in migration[0].detail


def test_rtcr_without_resources_migrates_with_cpu_and_memory() -> None:
    text = ('{"kind": "Policy", "apiVersion": "v1", "priorities": [{"name": "r", "weight": 4, "argument": '
            '{"requestedToCapacityRatioArguments": {"shape": [{"utilization": 0, "score": 10}]}}}]}')
    ctx = HANDLER.analyze(parse_documents(text, "p.json", is_json=True)[0])
    assert ctx.rtcr is not None
    assert [(r.name, r.weight) for r in ctx.rtcr.resources] == [("cpu", 1), ("memory", 1)]


def test_a_validation_failure_leaves_no_model() -> None:
    text = '{"kind": "Policy", "apiVersion": "v1", "priorities": [{"name": "LeastRequestedPriority"}]}'
    ctx = HANDLER.analyze(parse_documents(text, "p.json", is_json=True)[0])
    assert ctx.model is None and len(ctx.validation) == 1


def test_label_preference_weights_compare_with_the_latest_equal_weight_declaration() -> None:
    def prio(name: str, weight: int) -> str:
        return (f'{{"name": "{name}", "weight": {weight}, "argument": '
                f'{{"labelPreference": {{"label": "l", "presence": true}}}}}}')
    text = ('{"kind": "Policy", "apiVersion": "v1", "priorities": ['
            + ", ".join([prio("a", 1), prio("b", 1), prio("c", 2), prio("d", 1)]) + "]}")
    ctx = HANDLER.analyze(parse_documents(text, "p.json", is_json=True)[0])
    messages = [e.message for e in ctx.validation]
    assert len(messages) == 1 and '"c"' in messages[0] and messages[0].endswith('"b"')


def test_migration_snippet_is_a_config_kube_scheduler_accepts_with_the_same_scoring() -> None:
    ctx = HANDLER.analyze(parse_documents((DATA / "rtcr-valid.json").read_text(), "p.json", is_json=True)[0])
    assert ctx.rtcr is not None
    # v1 caps resource weights at 100 (BPL303 says so); migrate the rest
    rtcr = dataclasses.replace(ctx.rtcr, resources=tuple(r for r in ctx.rtcr.resources if r.weight <= 100))
    model, findings = load_scheduler_model(v1_snippet(rtcr), "scheduler-config.yaml")
    assert model is not None, findings
    profile = model.profiles[0]  # type: ignore[union-attr]
    assert profile.fit_weight == rtcr.weight
    assert profile.fit is not None and profile.fit.strategy == "RequestedToCapacityRatio"
    assert profile.fit.shape == rtcr.shape and profile.fit.resources == rtcr.resources


@pytest.mark.parametrize("api_version", ["audit.k8s.io/v1", "kyverno.io/v1"])
def test_other_apis_policy_kinds_are_not_scheduler_policies(api_version: str) -> None:
    text = f"apiVersion: {api_version}\nkind: Policy\nrules:\n- level: Metadata\n"
    assert not [f for f in lint_text(text, "audit-policy.yaml") if f.rule in OWN]


@pytest.mark.parametrize("api_version", ['"v1"', '"kubescheduler.config.k8s.io/v1"', None])
def test_scheduler_policy_api_versions(api_version: str | None) -> None:
    text = '{"kind": "Policy"' + (f', "apiVersion": {api_version}' if api_version else "") + "}"
    # kubescheduler.config.k8s.io/* is claimed by the kube-scheduler format unless the kind is forced
    assert [f.rule for f in lint_text(text, "p.json", LintSettings(kind="legacy-policy"))] == [REMOVED_CODE]
    if api_version != '"kubescheduler.config.k8s.io/v1"':
        assert [f.rule for f in lint_text(text, "p.json")] == [REMOVED_CODE]


def test_an_unknown_key_made_1_22_refuse_the_file_case_sensitively() -> None:
    # "Weight" is not "weight" for 1.22's strict json-iterator decoder: the file did not decode, so the
    # weight-0 validation error it would otherwise cause never happened
    text = ('{"kind": "Policy", "apiVersion": "v1", "priorities": [{"name": "LeastRequestedPriority", "Weight": 2}],'
            ' "extenders": [{"urlPrefix": "http://x", "enableHTTPS": true}]}')
    findings = [(f.rule, f.severity.value, f.message) for f in lint_text(text, "p.json") if f.rule != REMOVED_CODE]
    refused = "kube-scheduler 1.22 decoded the Policy strictly and refused the file"
    assert findings == [("BPL051", "error", f'unknown field "priorities[0].Weight": {refused}'),
                        ("BPL051", "error", f'unknown field "extenders[0].enableHTTPS": {refused}')]
    ctx = HANDLER.analyze(parse_documents(text, "p.json", is_json=True)[0])
    assert not ctx.decodes and ctx.model is None and not ctx.validation


def test_a_duplicate_key_made_1_22_refuse_the_file() -> None:
    text = "kind: Policy\napiVersion: v1\npriorities:\n- name: LeastRequestedPriority\n  weight: 0\n  weight: 1\n"
    findings = [(f.rule, f.severity.value, f.message) for f in lint_text(text, "p.yaml") if f.rule != REMOVED_CODE]
    assert findings == [("BPL052", "error", "duplicate key 'weight' (first on line 5); kube-scheduler 1.22 decoded "
                                            "the Policy strictly and refused the file")]


def test_null_is_a_zero_value_as_go_decoded_it() -> None:
    text = ('{"kind": "Policy", "apiVersion": "v1", "hardPodAffinitySymmetricWeight": null,'
            ' "alwaysCheckAllPredicates": null, "predicates": [{"name": "PodFitsResources", "argument": null}],'
            ' "priorities": [{"name": "binpack", "weight": 2, "argument": {"serviceAntiAffinity": null,'
            ' "requestedToCapacityRatioArguments": {"shape": [null, {"utilization": 100, "score": 10}],'
            ' "resources": null}}}], "extenders": [{"urlPrefix": null, "weight": null}]}')
    assert [f.rule for f in lint_text(text, "p.json")] == [REMOVED_CODE, "BPL303"]
    ctx = HANDLER.analyze(parse_documents(text, "p.json", is_json=True)[0])
    assert ctx.rtcr is not None and [(p.utilization, p.score) for p in ctx.rtcr.shape] == [(0, 0), (100, 10)]
    named_null = '{"kind": "Policy", "apiVersion": "v1", "predicates": [{"name": null}]}'
    ctx = HANDLER.analyze(parse_documents(named_null, "p.json", is_json=True)[0])
    assert [e.message for e in ctx.registry] == ['predicate type not found for ""']


def test_a_json_float_for_an_integer_did_not_decode_a_yaml_one_did() -> None:
    body = '"priorities": [{"name": "binpack", "weight": 2.0, "argument": {"requestedToCapacityRatioArguments": '
    shape = '{"shape": [{"utilization": 0, "score": 0}, {"utilization": 1e2, "score": 10}]}}}]'
    text = '{"kind": "Policy", "apiVersion": "v1", ' + body + shape + "}"
    schema_errors = [f.message for f in lint_text(text, "p.json") if f.rule == "BPL050"]
    assert schema_errors == [
        "priorities[0].weight: must be an integer, not 2.0 (1.22's JSON decoder refused a float for an integer "
        "field)",
        "priorities[0].argument.requestedToCapacityRatioArguments.shape[1].utilization: must be an integer, not "
        "100.0 (1.22's JSON decoder refused a float for an integer field)"]
    yaml_text = ("kind: Policy\napiVersion: v1\npriorities:\n- name: binpack\n  weight: 2.0\n  argument:\n"
                 "    requestedToCapacityRatioArguments:\n      shape:\n      - {utilization: 0, score: 0}\n"
                 "      - {utilization: 100.0, score: 10.0}\n")
    assert [f.rule for f in lint_text(yaml_text, "p.yaml")] == [REMOVED_CODE, "BPL303"]
    ctx = HANDLER.analyze(parse_documents(yaml_text, "p.yaml")[0])
    assert ctx.rtcr is not None and ctx.rtcr.weight == 2
    assert [(p.utilization, p.score) for p in ctx.rtcr.shape] == [(0, 0), (100, 10)]


def test_an_http_timeout_beyond_int64_did_not_decode() -> None:
    text = ('{"kind": "Policy", "apiVersion": "v1", "extenders": [{"urlPrefix": "http://x",'
            ' "httpTimeout": 9223372036854775808}]}')
    assert [f.rule for f in lint_text(text, "p.json")] == [REMOVED_CODE, "BPL050"]
