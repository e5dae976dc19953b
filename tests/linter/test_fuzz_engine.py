"""Property tests (hypothesis) over the loader and the whole rule engine.

Inputs: arbitrary text, generated YAML documents that look like the formats binpack-lint
checks (so every handler and rule sees odd shapes), and real configs from the shared vectors
with random edits. Properties: the loader raises nothing but ``SourceError``; ``lint_text``
raises nothing at all; every finding is well-formed with line >= 1 and column >= 1 inside the file.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paths import SHARED

from linter.engine import lint_text
from linter.findings import Finding, Severity
from linter.settings import KINDS, LintSettings
from linter.source import SourceError, parse_documents

VECTORS = SHARED / "vectors"
# BINPACK_FUZZ_EXAMPLES=5000 for a longer hunt; the default keeps the suite quick
SETTINGS = settings(max_examples=int(os.environ.get("BINPACK_FUZZ_EXAMPLES", "150")), deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
CODE = re.compile(r"^BPL\d{3}$")


def real_configs() -> list[str]:
    texts: list[str] = []
    for name in ("config.json", "oracle-configs.json"):
        path = VECTORS / name
        if path.exists():
            texts += [case["text"] for case in json.loads(path.read_text())["cases"] if case.get("text")]
    priority = VECTORS / "priority.json"
    if priority.exists():
        for case in json.loads(priority.read_text())["cases"]:
            if isinstance(case.get("object"), dict):
                texts.append(yaml.safe_dump(case["object"], sort_keys=False))
    return texts or ["apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"]


REAL = real_configs()

API_VERSIONS = ["kubescheduler.config.k8s.io/v1", "kubescheduler.config.k8s.io/v1beta3",
                "kubescheduler.config.k8s.io/v1beta1", "scheduling.k8s.io/v1", "v1", "scheduling.k8s.io/v1beta1", None]
KIND_NAMES = ["KubeSchedulerConfiguration", "Policy", "PriorityClass", "ConfigMap", "List", "PriorityClassList", None]
WORDS = ["profiles", "schedulerName", "plugins", "pluginConfig", "score", "enabled", "disabled", "name", "args",
         "weight", "scoringStrategy", "type", "resources", "MostAllocated", "LeastAllocated",
         "RequestedToCapacityRatio", "requestedToCapacityRatio", "shape", "utilization", "score", "NodeResourcesFit",
         "NodeResourcesBalancedAllocation", "priorities", "predicates", "argument", "actions", "tiers", "arguments",
         "binpack.weight", "binpack.cpu", "binpack.resources", "value", "globalDefault", "preemptionPolicy",
         "metadata", "data", "items", "description", "percentageOfNodesToScore", "parallelism", "extenders",
         "leaderElection", "leaderElect", "ignoredResources", "*", "cpu", "memory", "nvidia.com/gpu", "0", "-1"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(WORDS), st.text(max_size=12),
)
keys = st.one_of(st.sampled_from(WORDS), st.text(max_size=8))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(keys, inner, max_size=5)), max_leaves=25)


@st.composite
def config_like(draw: st.DrawFn) -> dict[str, Any]:
    doc: dict[str, Any] = draw(st.dictionaries(keys, values, max_size=6))
    api, kind = draw(st.sampled_from(API_VERSIONS)), draw(st.sampled_from(KIND_NAMES))
    if api is not None:
        doc["apiVersion"] = api
    if kind is not None:
        doc["kind"] = kind
    if kind == "ConfigMap":
        inner = draw(config_like_inner())
        doc["data"] = {draw(st.sampled_from(["config.yaml", "scheduler.conf", "x"])): yaml.safe_dump(inner)}
    if kind and kind.endswith("List"):
        doc["items"] = [draw(config_like_inner()) for _ in range(draw(st.integers(0, 3)))]
    return doc


def config_like_inner() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"apiVersion": st.sampled_from(API_VERSIONS[:-1]),
                                  "kind": st.sampled_from(KIND_NAMES[:3])},
                                 optional={"profiles": values, "value": values, "actions": values, "tiers": values})


@st.composite
def mutated_real_config(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(REAL))
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["delete", "insert", "duplicate-line", "indent"]))
        if op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 20)):]
        elif op == "insert":
            text = text[:at] + draw(st.sampled_from([":", "-", " ", "\n", "{", "[", "'", '"', "&a", "*a", "#", "\t",
                                                     "0", "-1", "1e400", "\u00e9", "\ufeff"])) + text[at:]
        elif op == "duplicate-line":
            lines = text.splitlines(keepends=True)
            i = draw(st.integers(0, max(0, len(lines) - 1)))
            text = "".join(lines[: i + 1] + lines[i:])
        else:
            text = text[:at] + "  " + text[at:]
    return text


def check_findings(findings: list[Finding], text: str, path: str) -> None:
    last_line = text.count("\n") + 2  # an error may point just past the final newline
    for f in findings:
        assert isinstance(f, Finding) and f.path == path
        assert CODE.match(f.rule), f
        assert isinstance(f.severity, Severity)
        assert 1 <= f.line <= last_line, (f, last_line)
        assert f.column >= 1, f
        assert f.message and isinstance(f.message, str)


def lint_all_ways(text: str, path: str = "fuzz.yaml") -> None:
    check_findings(lint_text(text, path), text, path)


@SETTINGS
@given(st.text(max_size=300))
def test_loader_raises_only_source_errors_on_any_text(text: str) -> None:
    try:
        documents = parse_documents(text, "fuzz.yaml")
    except SourceError as exc:
        assert exc.line >= 1 and exc.column >= 1
        return
    for doc in documents:
        for pointer in doc.spots:
            line, column = doc.locate(pointer)
            assert line >= 1 and column >= 1


@SETTINGS
@given(st.text(max_size=300))
def test_engine_never_raises_on_any_text(text: str) -> None:
    lint_all_ways(text)


@SETTINGS
@given(config_like(), st.sampled_from(["yaml", "json", "flow"]))
def test_engine_never_raises_on_config_shaped_documents(doc: dict[str, Any], style: str) -> None:
    if style == "json":
        text, path = json.dumps(doc, allow_nan=True), "fuzz.json"
    else:
        text, path = yaml.safe_dump(doc, default_flow_style=(style == "flow"), allow_unicode=True), "fuzz.yaml"
    check_findings(lint_text(text, path), text, path)


@SETTINGS
@given(mutated_real_config())
def test_engine_never_raises_on_mutated_real_configs(text: str) -> None:
    lint_all_ways(text)


@SETTINGS
@given(mutated_real_config(), st.sampled_from(KINDS))
def test_forcing_any_kind_never_raises(text: str, kind: str) -> None:
    check_findings(lint_text(text, "fuzz.yaml", LintSettings(kind=kind)), text, "fuzz.yaml")


def test_every_real_config_lints_cleanly_shaped() -> None:
    for text in REAL:
        lint_all_ways(text)
