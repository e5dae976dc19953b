"""Scheduler-config ConfigMaps judged with the real linter engine (same verdict as the CLI)."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

import pytest
from webhook_helpers import FOLDERS, fixture_review, request_of, review

from linter.engine import lint_text
from linter.findings import Finding, Severity
from webhook.admission.decide import configmaps
from webhook.admission.decide.configmaps import MAX_WARNING_CHARS, SELECTOR_LABEL, format_finding
from webhook.server.boundedlint import BoundedLinter


def _configmap(data: dict[str, str], *, labelled: bool = True) -> dict[str, Any]:
    labels = {SELECTOR_LABEL: "true"} if labelled else {"app": "x"}
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "cm", "namespace": "ns", "labels": labels},
        "data": data,
    }


def _recorded(folder: str, name: str) -> dict[str, Any]:
    return fixture_review(folder, name)


@pytest.mark.parametrize("folder", FOLDERS)
def test_negative_cpu_weight_update_is_denied_at_its_line(folder: str) -> None:
    document = _recorded(folder, "configmap-update-kube-scheduler-config.json")
    decision = configmaps.decide(request_of(document))
    assert (decision.allowed, decision.code, decision.reason) == (False, 422, "Invalid")
    text = document["request"]["object"]["data"]["config.yaml"]
    weight_line = next(i for i, line in enumerate(text.splitlines(), 1) if "weight: -1" in line)
    assert f"config.yaml:{weight_line}:" in decision.message
    errors = [f for f in lint_text(text, "config.yaml") if f.severity is Severity.ERROR]
    assert errors and format_finding(errors[0]) in decision.message
    assert decision.message.startswith('ConfigMap "scheduler-binpack" holds an invalid scheduler configuration: ')


@pytest.mark.parametrize("folder", FOLDERS)
@pytest.mark.parametrize(
    "name", ["configmap-create-kube-scheduler-config.json", "configmap-create-volcano-config.json"]
)
def test_recorded_valid_configs_are_allowed_with_the_linters_warnings(folder: str, name: str) -> None:
    document = _recorded(folder, name)
    decision = configmaps.decide(request_of(document))
    assert decision.allowed
    findings = [
        f
        for key, text in document["request"]["object"]["data"].items()
        for f in lint_text(text, key)
        if f.rule != "BPL004"
    ]
    assert not any(f.severity is Severity.ERROR for f in findings)
    assert len(decision.warnings) == len(findings)
    for warning, finding in zip(decision.warnings, findings, strict=True):
        assert len(warning) < 120
        assert warning.startswith(format_finding(finding)[: MAX_WARNING_CHARS - 3])


def test_values_that_are_not_scheduler_configs_are_ignored() -> None:
    obj = _configmap({"README.md": "just some notes", "settings.json": '{"a": 1}'})
    decision = configmaps.decide(request_of(review("ConfigMap", "CREATE", obj)))
    assert decision.allowed and decision.warnings == ()


def test_unlabelled_configmaps_and_deletes_are_not_linted() -> None:
    def refuse(data: Mapping[str, str]) -> list[Finding]:
        raise AssertionError("the linter must not run")

    broken = {"config.yaml": "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nbogus: 1\n"}
    unlabelled = configmaps.decide(
        request_of(review("ConfigMap", "CREATE", _configmap(broken, labelled=False))), refuse
    )
    assert unlabelled.allowed
    deleted = configmaps.decide(request_of(review("ConfigMap", "DELETE", None, _configmap(broken))), refuse)
    assert deleted.allowed


def test_long_and_many_warnings_are_capped() -> None:
    many = [Finding("k", i, 1, "BPL201", Severity.WARNING, "w" * 300) for i in range(1, 40)]
    decision = configmaps.decide(request_of(review("ConfigMap", "CREATE", _configmap({"k": "x"}))), lambda data: many)
    assert decision.allowed
    assert all(len(w) < 120 for w in decision.warnings)
    assert len(decision.warnings) == configmaps.MAX_WARNINGS + 1 and "19 more" in decision.warnings[-1]


def test_other_kinds_and_non_string_data_are_bad_requests() -> None:
    pod_review = review("Pod", "CREATE", {"metadata": {"name": "p"}})
    assert configmaps.decide(request_of(pod_review)).code == 400
    bad = _configmap({"k": "v"})
    bad["data"] = {"k": 5}
    assert configmaps.decide(request_of(review("ConfigMap", "CREATE", bad))).code == 400


def test_configmaps_are_judged_for_the_configured_scheduler_build() -> None:
    text = ("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
            "- plugins:\n    score:\n      enabled: [{name: NodeResourcesAllocatable}]\n")
    document = review("ConfigMap", "CREATE", _configmap({"config.yaml": text}))
    plain = configmaps.decide(request_of(document), configmaps.linter_for("kube-scheduler"))
    assert not plain.allowed and "[BPL151]" in plain.message
    custom = configmaps.decide(request_of(document), configmaps.linter_for("scheduler-plugins"))
    assert custom.allowed


def test_the_bounded_child_judges_for_the_configured_build() -> None:
    text = ("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
            "- plugins:\n    score:\n      enabled: [{name: NodeResourcesAllocatable}]\n")
    for build, allowed in (("kube-scheduler", False), ("scheduler-plugins", True)):
        linter = BoundedLinter(timeout_seconds=60, memory_mib=512, scheduler_build=build)
        try:
            decision = configmaps.decide(request_of(review("ConfigMap", "CREATE", _configmap({"c.yaml": text}))),
                                         linter)
        finally:
            linter.close()
        assert decision.allowed is allowed, (build, decision.message)


def _profiles(count: int) -> str:
    head = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
    return head + "".join(f"- schedulerName: s{i}\n" for i in range(count))


def test_bounded_linter_gives_the_in_process_verdict() -> None:
    data = {"good.yaml": _profiles(2), "bad.yaml": _profiles(1) + "bogus: 1\n", "notes": "hello \ud800",
            "volcano-scheduler.conf": ""}
    linter = BoundedLinter(timeout_seconds=60, memory_mib=512)
    try:
        assert linter(data) == configmaps.lint_in_process(data)
    finally:
        linter.close()


@pytest.mark.parametrize(("timeout", "memory", "reason"), [
    (0.05, 512, "took longer than the 0.05 s budget"),
    (60, 64, "needed more than the 64 MiB memory budget"),
])
def test_a_configmap_over_the_lint_budget_is_denied_with_the_reason(timeout: float, memory: int, reason: str) -> None:
    linter = BoundedLinter(timeout_seconds=timeout, memory_mib=memory)
    try:
        big = review("ConfigMap", "CREATE", _configmap({"c.yaml": _profiles(30000)}))
        decision = configmaps.decide(request_of(big), linter)
    finally:
        linter.close()
    assert not decision.allowed and decision.code == 422
    assert reason in decision.message and "was not checked" in decision.message


def test_a_configmap_whose_budget_went_to_waiting_is_denied_saying_so() -> None:
    linter = BoundedLinter(timeout_seconds=1.5, memory_mib=512)
    try:
        small = review("ConfigMap", "CREATE", _configmap({"c.yaml": _profiles(1)}))
        decision = configmaps.decide(request_of(small), linter.until(time.monotonic() - 0.1))  # deadline passed
    finally:
        linter.close()
    assert (decision.allowed, decision.code) == (False, 422)
    assert decision.message == ('ConfigMap "cm" was not checked: the 1.5 s budget was spent waiting before linting '
                                "could start; lint it with binpack-lint before applying it")


VOLCANO_REFUSAL = ("volcano-scheduler.conf:1:1 [BPL400] Volcano rejects this file and keeps its previous "
                   "configuration: failed to find Action (an empty action name)")


@pytest.mark.parametrize(("data", "denial"), [
    # Volcano reads the key volcano-scheduler.conf whatever it holds: no actions is its refusal
    ({"volcano-scheduler.conf": "configurations:\n- name: enqueue\n"}, VOLCANO_REFUSAL),
    ({"volcano-scheduler.conf": ""}, VOLCANO_REFUSAL),
    # kube-scheduler 1.22's --policy-configmap reads the key policy.cfg
    ({"policy.cfg": '{"predicates": 5}'}, "policy.cfg:1:16 [BPL050] predicates: must be a list or null, not 5"),
    # a value that is not YAML is a config's error only under a config-file key
    ({"README.md": "Use kind: KubeSchedulerConfiguration\n  - foo: [\n"}, None),
    ({"config.yaml": ""}, None),
    ({"values.yaml": "{{ .Values.x }}\n"}, None),  # a Helm template that names none of our formats
    ({"config.yaml": "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n\tbad\n"},
     "config.yaml:3:1 [BPL001] invalid YAML: found a tab character that violates indentation"),
])
def test_each_key_is_read_as_binpack_lint_reads_the_configmap(data: dict[str, str], denial: str | None) -> None:
    obj = _configmap(data)
    cli_errors = [f for f in lint_text(json.dumps(obj), "cm.yaml") if f.severity is Severity.ERROR]
    decision = configmaps.decide(request_of(review("ConfigMap", "CREATE", obj)))
    assert decision.allowed is (not cli_errors)
    if denial is None:
        assert decision.allowed and decision.warnings == ()
    else:
        assert not decision.allowed and denial in decision.message


PARALLELISM_ZERO = ("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
                    "parallelism: 0\n")


@pytest.mark.parametrize(("comment", "allowed"), [
    ("# binpack-lint: disable-file=BPL100\n", True),
    ("# binpack-lint: disable=BPL100\n", False),  # a line's comment covers only its own value's lines
])
def test_a_disable_file_comment_in_one_value_covers_the_whole_configmap_as_in_its_manifest(
        comment: str, allowed: bool) -> None:
    data = {"notes.yaml": comment, "config.yaml": PARALLELISM_ZERO}
    manifest = "kind: ConfigMap\napiVersion: v1\nmetadata: {name: cm}\ndata:\n" + "".join(
        f"  {key}: |\n" + "".join(f"    {line}\n" for line in value.splitlines()) for key, value in data.items())
    cli = [(f.rule, f.severity) for f in lint_text(manifest, "cm.yaml")]
    decision = configmaps.decide(request_of(review("ConfigMap", "CREATE", _configmap(data))))
    assert decision.allowed is allowed
    assert (Severity.ERROR not in {severity for _, severity in cli}) is allowed
    if allowed:  # the comment silenced a finding, so it is no stale suppression (BPL008) either
        assert cli == [] and decision.warnings == ()
    else:
        assert decision.message == ('ConfigMap "cm" holds an invalid scheduler configuration: '
                                    "config.yaml:3:14 [BPL100] parallelism: Invalid value: 0: should be an integer "
                                    "value greater than zero")
        assert decision.warnings == ("notes.yaml:1:25 [BPL008] suppression of BPL100 silenced nothing: no BPL100 "
                                     "finding on this line or the next; remove ...",)


def _has_go_control_character(text: str) -> bool:
    """Go's ``unicode.IsControl``, which ``net.NewWarningHeader`` refuses (the API server then drops the warning)."""
    return any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in text)


def test_control_characters_in_findings_are_escaped_so_the_api_server_keeps_the_warning() -> None:
    conf = 'actions: "enqueue, allocate"\n"ti\\x01ers\\u0085x\\x7f": 1\ntiers:\n- plugins:\n  - name: binpack\n'
    decision = configmaps.decide(
        request_of(review("ConfigMap", "CREATE", _configmap({"volcano-scheduler.conf": conf}))))
    assert decision.allowed
    assert decision.warnings == (
        'volcano-scheduler.conf:2:1 [BPL061] unknown field "ti\\x01ers\\x85x\\x7f": Volcano ignores it',
    )
    bad = 'actions: "enq\\x01ueue, allocate"\ntiers:\n- plugins:\n  - name: binpack\n'
    denied = configmaps.decide(request_of(review("ConfigMap", "CREATE", _configmap({"volcano-scheduler.conf": bad}))))
    assert not denied.allowed and not _has_go_control_character(denied.message)
    assert denied.message.endswith("failed to find Action enq\\x01ueue ('enq\\x01ueue' is not an action)")


BROKEN_WEIGHT = {
    "config.yaml": (
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
        "- plugins:\n    score:\n      enabled:\n      - name: NodeResourcesFit\n        weight: -1\n"
    )
}


def test_an_update_that_keeps_the_stored_data_is_allowed_with_its_errors_as_warnings() -> None:
    old = _configmap(BROKEN_WEIGHT)
    new = _configmap(BROKEN_WEIGHT)
    new["metadata"]["annotations"] = {"owner": "team-a"}
    decision = configmaps.decide(request_of(review("ConfigMap", "UPDATE", new, old)))
    errors = [f for f in lint_text(BROKEN_WEIGHT["config.yaml"], "config.yaml") if f.severity is Severity.ERROR]
    assert decision.allowed and errors
    assert decision.warnings[0] == (
        f'ConfigMap "cm": data unchanged, so this update is allowed; it holds {len(errors)} error(s)'
    )
    first = "error: " + format_finding(errors[0])
    shortened = first if len(first) <= MAX_WARNING_CHARS else first[: MAX_WARNING_CHARS - 3] + "..."
    assert decision.warnings[1] == shortened


def test_adding_the_label_to_stored_data_is_allowed_but_changing_the_data_is_judged() -> None:
    unlabelled = _configmap(BROKEN_WEIGHT, labelled=False)
    labelled = _configmap(BROKEN_WEIGHT)
    assert configmaps.decide(request_of(review("ConfigMap", "UPDATE", labelled, unlabelled))).allowed
    changed = _configmap({"config.yaml": BROKEN_WEIGHT["config.yaml"] + "percentageOfNodesToScore: 50\n"})
    denied = configmaps.decide(request_of(review("ConfigMap", "UPDATE", changed, labelled)))
    assert (denied.allowed, denied.code) == (False, 422)
    created = configmaps.decide(request_of(review("ConfigMap", "CREATE", labelled)))
    assert (created.allowed, created.code) == (False, 422)


def test_an_unchanged_update_over_the_lint_budget_is_allowed_with_the_reason() -> None:
    def over_budget(data: Mapping[str, str]) -> list[Finding]:
        raise configmaps.LintLimitExceeded("took longer than the 2.5 s budget")

    stored = _configmap(BROKEN_WEIGHT)
    decision = configmaps.decide(request_of(review("ConfigMap", "UPDATE", stored, stored)), over_budget)
    assert decision.allowed
    assert decision.warnings == (
        'ConfigMap "cm": data unchanged, so this update is allowed; it was not checked: took longer than the '
        "2.5 s budget",
    )
