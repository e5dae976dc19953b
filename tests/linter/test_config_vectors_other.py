"""The legacy-policy and volcano cases of vectors/config.json, run through the real engine.

Every case goes through ``linter.engine.lint_text`` (ConfigMap wrappers included) and,
for the exact ordered texts, through the format handler on the parsed (unwrapped) document.
Expected values come only from the vector file.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from paths import SHARED

from linter.engine import lint_text, load_scheduler_model
from linter.findings import Finding, Severity
from linter.formats.policy.codes import REMOVED as REMOVED_CODE
from linter.formats.policy.handler import HANDLER as POLICY
from linter.formats.volcano.handler import HANDLER as VOLCANO
from linter.model import VolcanoModel
from linter.source import Document, parse_documents
from linter.unwrap import embedded_documents, is_configmap

VECTORS = SHARED / "vectors"
CASES: list[dict[str, Any]] = json.loads((VECTORS / "config.json").read_text())["cases"]
LEGACY = [c for c in CASES if c["kind"] == "legacy-policy"]
VOLCANO_CASES = [c for c in CASES if c["kind"] == "volcano"]

NEGATIVE_WEIGHT_CODES = {"BPL405", "BPL406"}
# Volcano log lines the linter knows how to predict (the rest of runtimeLog is scheduling detail).
PREDICTED_LOGS = ("Failed to get plugin", "Could not parse argument", "binpack weight is zero")


def _path(case: dict[str, Any]) -> str:
    if case.get("wrapper"):
        return "configmap.yaml"
    if case["kind"] == "legacy-policy":
        return "policy.json" if case["text"].lstrip().startswith("{") else "policy.yaml"
    return "volcano-scheduler.conf"


def _inner_document(case: dict[str, Any]) -> Document:
    """The configuration document itself (the ConfigMap value for wrapped cases)."""
    path = _path(case)
    docs = parse_documents(case["text"], path, is_json=path.endswith(".json"))
    if case.get("wrapper"):
        assert is_configmap(docs[0].data)
        inner, problems = embedded_documents(docs[0])
        assert not problems
        docs = [d for d in inner if d.embedded_key == case["wrapper"]["key"]]
    assert len(docs) == 1
    return docs[0]


def _errors(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity is Severity.ERROR]


@pytest.mark.parametrize("case", LEGACY, ids=[c["id"] for c in LEGACY])
def test_legacy_policy_case(case: dict[str, Any]) -> None:
    expected = case["expected"]
    assert expected["accepted"] is False
    findings = lint_text(case["text"], _path(case))
    assert any(f.rule == REMOVED_CODE and f.severity is Severity.ERROR for f in findings), findings
    ctx = POLICY.analyze(_inner_document(case))
    assert [e.message for e in ctx.validation] == expected["legacyValidationErrors"]
    prefix = "kube-scheduler 1.22 rejects this Policy: "
    reported = sorted(f.message.removeprefix(prefix) for f in findings if f.rule == "BPL301")
    assert reported == sorted(expected["legacyValidationErrors"])
    if not expected["legacyValidationErrors"]:
        assert ctx.model is not None
        assert {f.rule for f in _errors(findings)} == {REMOVED_CODE}


@pytest.mark.parametrize("case", VOLCANO_CASES, ids=[c["id"] for c in VOLCANO_CASES])
def test_volcano_case(case: dict[str, Any]) -> None:
    expected = case["expected"]
    path = _path(case)
    findings = lint_text(case["text"], path)
    if expected["accepted"]:
        # Volcano loads it: the only errors allowed are binpack-guard's own "no negative weights" policy
        assert {f.rule for f in _errors(findings)} <= NEGATIVE_WEIGHT_CODES, findings
        ctx = VOLCANO.analyze(_inner_document(case))
        assert ctx.rejection is None and isinstance(ctx.model, VolcanoModel)
        assert list(ctx.model.actions) == expected["actions"]
        got = [{"binpack.weight": b.weight, "resources": dict(b.resources)} for b in ctx.model.binpack]
        assert got == expected["binpack"]
        model, _ = load_scheduler_model(case["text"], path)
        if not _errors(findings):  # the engine hands out the same model when nothing is an error
            assert model == ctx.model
    else:
        error = expected["error"]
        if error.startswith("yaml: line"):  # a syntax error: the engine's parser reports it (BPL001)
            assert any(f.rule == "BPL001" for f in findings), findings
            return
        ctx = VOLCANO.analyze(_inner_document(case))
        assert ctx.rejection == error and ctx.model is None
        # a yaml.v2 type error lists one "line N: ..." per problem; each gets its own finding
        pieces = error.split("\n  ")[1:] if error.startswith("yaml: unmarshal errors:") else [error]
        for piece in pieces:
            assert any(piece in f"{f.message}\n{f.detail}" for f in _errors(findings)), (piece, findings)
    for line in case["expected"].get("runtimeLog", []):
        message = line if isinstance(line, str) else json.dumps(line)
        if message.startswith(PREDICTED_LOGS):
            assert any(message in f"{f.message}\n{f.detail}" for f in findings), (message, findings)
