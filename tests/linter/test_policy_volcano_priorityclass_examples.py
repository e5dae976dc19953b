"""The documentation examples of the legacy Policy, Volcano and PriorityClass rules are real:
each rule fires on its "Example (fails)" and not on its "Use instead (passes)".

Examples that show several files (``# a.yaml`` header lines) are written to separate temporary
files and linted together, so the cross-file rules are exercised the way a user runs them.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from jsonschema import Draft202012Validator

import schemas
from linter import schema
from linter.docs import doc_for
from linter.engine import lint_paths
from linter.rules.policy import RULES as POLICY_RULES
from linter.rules.priorityclass import RULES as PRIORITY_CLASS_RULES
from linter.rules.volcano import RULES as VOLCANO_RULES
from linter.source import parse_documents

RULES: tuple[ModuleType, ...] = (*POLICY_RULES, *VOLCANO_RULES, *PRIORITY_CLASS_RULES)


def _write(example: str, folder: Path, stem: str) -> list[str]:
    """One file per ``# name.yaml`` section (or one file for the whole example)."""
    files: list[tuple[str, list[str]]] = []
    for line in example.splitlines():
        header = line.strip()
        if header.startswith("# ") and header.endswith((".yaml", ".json")) and " " not in header[2:]:
            files.append((header[2:], []))
        elif header.startswith("# ") and not files:
            continue  # a comment before any content, e.g. "# keep one definition"
        else:
            if not files:
                files.append(("", []))
            files[-1][1].append(line)
    out = []
    for i, (name, lines) in enumerate(files):
        text = "\n".join(lines) + "\n"
        suffix = ".json" if text.lstrip().startswith("{") else ".yaml"
        path = folder / f"{stem}-{i}-{name or 'example' + suffix}"
        path.write_text(text)
        out.append(str(path))
    return out


@pytest.mark.parametrize("rule", RULES, ids=[r.CODE for r in RULES])
def test_rule_examples(rule: ModuleType, tmp_path: Path) -> None:
    doc = doc_for(rule)
    failing, passing = doc.section("Example (fails)"), doc.section("Use instead (passes)")
    assert failing and passing
    bad = lint_paths(_write(failing, tmp_path, "fails")).findings
    assert rule.CODE in {f.rule for f in bad}, bad
    good = lint_paths(_write(passing, tmp_path, "passes")).findings
    assert rule.CODE not in {f.rule for f in good}, good


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_shipped_examples() -> None:
    """examples/: the Volcano conf and the PriorityClasses are clean; the legacy Policy gets exactly the
    "removed in 1.23" error and its v1 migration hint."""
    volcano = EXAMPLES / "volcano-scheduler-binpack.conf"
    classes = EXAMPLES / "priorityclasses.yaml"
    policy = EXAMPLES / "legacy-policy-rtcr.json"
    assert lint_paths([str(volcano), str(classes)]).findings == []
    assert [f.rule for f in lint_paths([str(policy)]).findings] == ["BPL300", "BPL303"]


@pytest.mark.parametrize(("schema_name", "example"), [
    ("volcano-scheduler-conf", "volcano-scheduler-binpack.conf"),
    ("legacy-policy-v1", "legacy-policy-rtcr.json"),
    ("priorityclass-v1", "priorityclasses.yaml"),
])
def test_schemas_are_draft_2020_12_and_accept_the_examples(schema_name: str, example: str) -> None:
    Draft202012Validator.check_schema(schemas.load(schema_name))
    text = (EXAMPLES / example).read_text()
    for document in parse_documents(text, example, is_json=example.endswith(".json")):
        assert schema.validate(document, schema_name) == []


def test_volcano_schema_rejects_what_volcano_ignores() -> None:
    text = ('actions: "allocate"\ntiers:\n- plugins:\n  - name: binpack\n    enabledNodeOrder: true\n'
            "    arguments:\n      binpack.weight: \"10\"\n      binpack.resources: [a]\n")
    errors = schema.validate(parse_documents(text, "v.yaml")[0], "volcano-scheduler-conf")
    assert sorted(e.pointer[-1] for e in errors) == ["binpack.resources", "binpack.weight", "enabledNodeOrder"]
