"""Every kube-scheduler case of config.json and oracle-configs.json through ``linter.engine``.

Rejected files must get an error finding carrying the scheduler's own text (scheme errors
compared up to ``in scheme``); accepted ones no error finding and the effective model the real
scheduler reported.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from paths import SHARED

from linter.engine import lint_text, load_scheduler_model
from linter.findings import Finding, Severity
from linter.model import KubeSchedulerModel

VECTORS = SHARED / "vectors"
POLICY_CODES = {"BPL200"}  # binpack-guard's negative-weight policy may disagree with the scheduler


def _cases() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for c in json.loads((VECTORS / "config.json").read_text())["cases"]:
        if c["kind"] == "kube-scheduler":
            exp = c["expected"]
            out.append((c["id"], {"text": c["text"], "json": c["text"].lstrip().startswith("{"),
                                  "accepted": exp["accepted"], "errors": exp.get("errors", []),
                                  "effective": exp.get("effective"), "stage": exp["stage"]}))
    for c in json.loads((VECTORS / "oracle-configs.json").read_text())["cases"]:
        valid = c["verdict"] == "valid"
        out.append((f"oracle-{c['id']}", {"text": c["text"], "json": c["format"] == "json", "accepted": valid,
                                          "errors": [] if valid else [c["error"]], "effective": c.get("effective"),
                                          "stage": None}))
    return out


CASES = _cases()


def _path(case: dict[str, Any]) -> str:
    return "scheduler-config.json" if case["json"] else "scheduler-config.yaml"


def _errors(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity is Severity.ERROR and f.rule not in POLICY_CODES]


def _expected_text(error: str) -> str:
    return error.split(" in scheme ")[0] if " in scheme " in error else error


@pytest.mark.parametrize(("case_id", "case"), CASES, ids=[c[0] for c in CASES])
def test_verdict_and_text(case_id: str, case: dict[str, Any]) -> None:
    findings = lint_text(case["text"], _path(case))
    errors = _errors(findings)
    if case["accepted"]:
        assert errors == [], f"{case_id}: accepted by kube-scheduler but got {errors}"
        return
    assert errors, f"{case_id}: rejected by kube-scheduler but no error finding"
    messages = [f"{f.message}\n{f.detail}" for f in errors]  # the verbatim text may be the detail
    for expected in case["errors"]:
        want = _expected_text(expected)
        assert any(want in m for m in messages), f"{case_id}: no finding contains {want!r}; got {messages}"


def _strip(args: dict[str, Any] | None) -> dict[str, Any] | None:
    if args is None:
        return None
    return {k: v for k, v in args.items() if k not in ("apiVersion", "kind")}


@pytest.mark.parametrize(("case_id", "case"), [c for c in CASES if c[1]["accepted"]],
                         ids=[c[0] for c in CASES if c[1]["accepted"]])
def test_effective_model(case_id: str, case: dict[str, Any]) -> None:
    model, findings = load_scheduler_model(case["text"], _path(case))
    assert isinstance(model, KubeSchedulerModel), f"{case_id}: no model ({findings})"
    expected = case["effective"]["profiles"]
    assert [p.scheduler_name for p in model.profiles] == [p["schedulerName"] for p in expected]
    for got, want in zip(model.profiles, expected, strict=True):
        fit = got.built_fit.as_args() if got.built_fit is not None else None
        balanced = got.built_balanced.as_args() if got.built_balanced is not None else None
        assert fit == _strip(want["NodeResourcesFit"])
        assert balanced == _strip(want["NodeResourcesBalancedAllocation"])
        for plugin, weight in want["scorePluginWeights"].items():
            assert got.score_plugin_weights.get(plugin) == weight, plugin


def test_configmap_wrapped_case_positions_point_into_the_outer_file() -> None:
    case = next(c for c in json.loads((VECTORS / "config.json").read_text())["cases"]
                if c["id"] == "ks-in-configmap")
    tail = "\n            type: MostAllocated"
    broken = case["text"].replace("weight: 3" + tail, "weight: -3" + tail)
    findings = _errors(lint_text(broken, "cm.yaml"))
    assert [(f.rule, f.line) for f in findings] == [("BPL150", 22)]
    assert "resource weight of intel.com/bar not in valid range (0, 100]" in findings[0].message
