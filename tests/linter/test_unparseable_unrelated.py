"""An unparseable file that names none of the supported formats is not ours: it never fails a run.

A Helm template in a repository that runs the pre-commit hook is the usual case. A broken file that
does name a supported kind keeps its BPL001 error, and so does any file linted with ``--kind``.
"""

from __future__ import annotations

import json

import pytest

from linter.engine import lint_text
from linter.findings import Severity
from linter.settings import LintSettings

HELM_TEMPLATE = (
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n"
    "data:\n  {{- toYaml .Values.extra | nindent 2 }}\n"
)


def _codes(text: str, settings: LintSettings | None = None) -> list[tuple[str, Severity]]:
    return [(f.rule, f.severity) for f in lint_text(text, "f.yaml", settings or LintSettings())]


def test_helm_template_is_not_checked() -> None:
    assert _codes(HELM_TEMPLATE) == [("BPL004", Severity.WARNING)]


@pytest.mark.parametrize("marker", [
    "kind: KubeSchedulerConfiguration",
    "apiVersion: kubescheduler.config.k8s.io/v1",
    "kind: PriorityClass",
    '{"kind": "Policy", "predicates": [',
    'actions: "enqueue, allocate"',
    "tiers:",
])
def test_broken_file_naming_a_supported_format_stays_an_error(marker: str) -> None:
    assert ("BPL001", Severity.ERROR) in _codes(marker + "\nbroken: [1, 2\n")


def test_forced_kind_keeps_the_syntax_error() -> None:
    assert _codes(HELM_TEMPLATE, LintSettings(kind="kube-scheduler")) == [("BPL001", Severity.ERROR)]


def _configmap(key: str, value: str) -> str:
    return json.dumps({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}, "data": {key: value}})


def test_a_helm_template_inside_a_configmap_is_not_checked_either() -> None:
    assert _codes(_configmap("values.yaml", "{{ .Values.x }}\n")) == [("BPL004", Severity.WARNING)]


@pytest.mark.parametrize(("key", "value"), [
    ("config.yaml", "kind: KubeSchedulerConfiguration\nbroken: [1, 2\n"),
    ("volcano-scheduler.conf", "{{ .Values.x }}\n"),  # the key itself names Volcano's conf
    ("policy.cfg", "{{ .Values.x }}\n"),
])
def test_a_broken_configmap_value_of_ours_stays_an_error(key: str, value: str) -> None:
    assert _codes(_configmap(key, value)) == [("BPL001", Severity.ERROR)]
