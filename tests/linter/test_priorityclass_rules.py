"""PriorityClass rules as tables (tests/data/configs/priorityclass, positions as (code, line, column)) and
the cross-file rules through ``lint_paths`` over real temporary files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linter.engine import lint_paths
from linter.rules.priorityclass import RULES

DATA = Path(__file__).resolve().parents[1] / "data" / "configs" / "priorityclass"
EXPECTED: dict[str, list[list[object]]] = json.loads((DATA / "expected.json").read_text())
OWN = {r.CODE for r in RULES}


def pc(name: str, value: int, *, default: bool | None = None, policy: str | None = None) -> str:
    text = f"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: {name}\nvalue: {value}\n"
    if default is not None:
        text += f"globalDefault: {'true' if default else 'false'}\n"
    if policy is not None:
        text += f"preemptionPolicy: {policy}\n"
    return text


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_priorityclass_table(name: str) -> None:
    findings = lint_paths([str(DATA / name)]).findings
    got = [[f.rule, f.line, f.column] for f in findings if f.rule in OWN or f.rule.startswith("BPL00")]
    assert got == EXPECTED[name]


def test_every_table_file_has_an_expectation() -> None:
    assert {p.name for p in DATA.iterdir() if p.name != "expected.json"} == set(EXPECTED)


def test_every_single_file_rule_has_a_failing_table_case() -> None:
    seen = {code for rows in EXPECTED.values() for code, _, _ in rows}
    assert seen >= OWN, sorted(OWN - seen)


def test_two_global_defaults_in_two_files(tmp_path: Path) -> None:
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    first.write_text(pc("default-batch", 100, default=True))
    second.write_text("# web\n" + pc("default-web", 1000, default=True))
    run = lint_paths([str(first), str(second)])
    hits = [f for f in run.findings if f.rule == "BPL501"]
    assert [(f.path, f.line, f.column) for f in hits] == [(str(second), 7, 16)]
    assert f"{first}:6" in hits[0].message and "'default-batch'" in hits[0].message
    alone = lint_paths([str(second)])
    assert not [f for f in alone.findings if f.rule == "BPL501"]


def test_every_extra_default_names_the_first(tmp_path: Path) -> None:
    paths = []
    for i, name in enumerate(["one", "two", "three"]):
        path = tmp_path / f"{i}.yaml"
        path.write_text(pc(name, i, default=True))
        paths.append(str(path))
    (tmp_path / "3.yaml").write_text(pc("four", 9, default=False))
    hits = [f for f in lint_paths([str(tmp_path)]).findings if f.rule == "BPL501"]
    assert [f.path for f in hits] == paths[1:]
    assert all(f"{paths[0]}:6" in f.message for f in hits)


def test_redefinition_changing_value_or_policy_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(pc("batch", 10))
    (tmp_path / "b.yaml").write_text(pc("batch", 10, policy="Never"))
    (tmp_path / "c.yaml").write_text(pc("batch", 10, policy="PreemptLowerPriority"))
    (tmp_path / "d.yaml").write_text(pc("batch", 11))
    hits = [f for f in lint_paths([str(tmp_path)]).findings if f.rule == "BPL503"]
    got = [(Path(f.path).name, f.line, str(f.severity)) for f in hits]
    assert got == [("b.yaml", 6, "error"), ("c.yaml", 4, "warning"), ("d.yaml", 5, "error")]
