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


def _bpl501(tmp_path: Path, *texts: str) -> list[tuple[str, str]]:
    for i, text in enumerate(texts):
        (tmp_path / f"{i}.yaml").write_text(text)
    # a long message is cut short; the detail then holds it whole
    return [(Path(f.path).name, f.detail or f.message) for f in lint_paths([str(tmp_path)]).findings
            if f.rule == "BPL501"]


def test_an_update_to_global_default_false_gives_the_default_up(tmp_path: Path) -> None:
    # applied in order: the second apply of default-a is an update that un-defaults it, so default-b is allowed
    assert _bpl501(tmp_path, pc("default-a", 100, default=True), pc("default-a", 100, default=False),
                   pc("default-b", 200, default=True)) == []


def test_an_update_the_api_server_refuses_does_not_make_a_default(tmp_path: Path) -> None:
    # 1.yaml changes the value (422, BPL503), so batch never becomes the default and default-b is allowed
    assert _bpl501(tmp_path, pc("batch", 10), pc("batch", 11, default=True), pc("default-b", 200, default=True)) == []


def test_an_update_making_a_second_default_names_the_current_one(tmp_path: Path) -> None:
    hits = _bpl501(tmp_path, pc("batch", 10), pc("default-b", 200, default=True), pc("batch", 10, default=True))
    assert [name for name, _ in hits] == ["2.yaml"]
    assert hits[0][1].endswith('priorityclasses.scheduling.k8s.io "batch" is forbidden: PriorityClass default-b is '
                               "already marked as default. Only one default can exist")
    assert f"'default-b' at {tmp_path / '1.yaml'}:6" in hits[0][1]


def test_redefinition_changing_value_or_policy_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(pc("batch", 10))
    (tmp_path / "b.yaml").write_text(pc("batch", 10, policy="Never"))
    (tmp_path / "c.yaml").write_text(pc("batch", 10, policy="PreemptLowerPriority"))
    (tmp_path / "d.yaml").write_text(pc("batch", 11))
    hits = [f for f in lint_paths([str(tmp_path)]).findings if f.rule == "BPL503"]
    got = [(Path(f.path).name, f.line, str(f.severity)) for f in hits]
    assert got == [("b.yaml", 6, "error"), ("c.yaml", 4, "warning"), ("d.yaml", 5, "error")]


def _meta_pc(metadata: str, value: int = 100, *, default: bool = False) -> str:
    text = f"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n{metadata}value: {value}\n"
    return text + ("globalDefault: true\n" if default else "")


def _findings(tmp_path: Path, name: str, text: str) -> list[tuple[str, int, int, str]]:
    path = tmp_path / name
    path.write_text(text)
    # a long message is cut short; the detail then holds it whole
    return [(f.rule, f.line, f.column, f.detail or f.message) for f in lint_paths([str(path)]).findings]


def test_a_namespace_is_cleared_not_rejected(tmp_path: Path) -> None:
    # BeforeCreate/BeforeUpdate clear the namespace of a cluster-scoped object before validating it
    assert _findings(tmp_path, "ns.yaml", _meta_pc("  name: batch-low\n  namespace: default\n")) == []


def test_null_fields_are_read_as_go_reads_them(tmp_path: Path) -> None:
    # encoding/json leaves the zero value for null: the API server stores these as if they were left out
    nulls = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: batch-low\n"
    meta = "  namespace: null\n  labels: null\n  annotations: null\n  generateName: null\n  finalizers: null\n"
    assert _findings(tmp_path, "meta.yaml", _meta_pc("  name: batch-low\n" + meta)) == []
    got = _findings(tmp_path, "null.yaml", nulls + "value: null\nglobalDefault: null\ndescription: null\n"
                    "preemptionPolicy: null\n")
    assert got == [("BPL502", 1, 1, "PriorityClass 'batch-low' has no value: the API server stores 0")]
    got = _findings(tmp_path, "nometa.yaml", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: null\n"
                    "value: 5\n")
    assert got == [("BPL500", 3, 11, "metadata.name: Required value: name or generateName is required")]


def test_generate_name_alone_is_accepted(tmp_path: Path) -> None:
    assert _findings(tmp_path, "gen.yaml", _meta_pc("  generateName: batch-\n")) == []
    # the generated name (random part shown as xxxxx) is validated like a written one
    got = _findings(tmp_path, "sys.yaml", _meta_pc("  generateName: system-\n"))
    assert [(rule, line, message) for rule, line, _, message in got] == [(
        "BPL500", 4, "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system "
        "use only. error: system-xxxxx is not a known system priority class")]


def test_generated_defaults_are_distinct_classes(tmp_path: Path) -> None:
    generated = _meta_pc("  generateName: batch-\n", default=True)
    got = _findings(tmp_path, "two.yaml", generated + "---\n" + generated)
    hits = [(rule, line, message) for rule, line, _, message in got if rule == "BPL501"]
    assert len(hits) == 1 and hits[0][1] == 13
    assert hits[0][2].endswith('priorityclasses.scheduling.k8s.io "batch-xxxxx" is forbidden: PriorityClass '
                               "batch-xxxxx is already marked as default. Only one default can exist")


_KEY_PATTERN = ("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
                "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")
_VALUE_PATTERN = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and "
                  "must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "
                  "regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")


def test_labels_and_annotations_are_validated_in_object_meta_order(tmp_path: Path) -> None:
    metadata = ('  name: Batch\n  labels:\n    "bad key!": ok\n    tier: "-x"\n  annotations:\n'
                '    "Example.com/Fine": x\n    a/b/c: x\n')
    got = _findings(tmp_path, "meta.yaml", _meta_pc(metadata, 1_000_000_001))
    assert [(line, message) for rule, line, _, message in got if rule == "BPL500"] == [
        (4, 'metadata.name: Invalid value: "Batch": a lowercase RFC 1123 subdomain must consist of lower case '
            "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
            "'example.com', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"),
        (6, f'metadata.labels: Invalid value: "bad key!": name part {_KEY_PATTERN}'),
        (7, f'metadata.labels: Invalid value: "-x": {_VALUE_PATTERN}'),
        (10, f'metadata.annotations: Invalid value: "a/b/c": a valid label key {_KEY_PATTERN} with an optional DNS '
             "subdomain prefix and '/' (e.g. 'example.com/MyName')"),
        (11, "value: Forbidden: maximum allowed value of a user defined priority is 1000000000"),
    ]


def test_annotations_over_256_kib_in_total_are_too_long(tmp_path: Path) -> None:
    half = "x" * (128 * 1024)
    metadata = f"  name: big\n  annotations:\n    a: {half}\n    b: {half}\n"
    got = _findings(tmp_path, "big.yaml", _meta_pc(metadata))
    assert [(rule, line, message) for rule, line, _, message in got] == [
        ("BPL500", 6, "metadata.annotations: Too long: may not be more than 262144 bytes")]
    metadata = f"  name: big\n  annotations:\n    a: {half[2:]}\n    b: {half}\n"  # 262144 bytes: at the limit
    assert _findings(tmp_path, "limit.yaml", _meta_pc(metadata)) == []


def test_a_default_the_api_server_refuses_does_not_block_a_later_one(tmp_path: Path) -> None:
    refused = _meta_pc("  name: default-a\n", 2_000_000_000, default=True)  # 422: above the user limit
    text = refused + "---\n" + _meta_pc("  name: default-b\n", default=True) + "---\n" + _meta_pc(
        "  name: default-c\n", default=True)
    hits = [(line, message) for rule, line, _, message in _findings(tmp_path, "m.yaml", text) if rule == "BPL501"]
    assert len(hits) == 1 and hits[0][0] == 20 and "'default-b' at " in hits[0][1]


def test_a_redefinition_of_a_refused_class_is_a_create(tmp_path: Path) -> None:
    # the first batch is refused (422: above the user limit), so it never exists: the second is a create
    (tmp_path / "a.yaml").write_text(pc("batch", 2_000_000_000))
    (tmp_path / "b.yaml").write_text(pc("batch", 10))
    (tmp_path / "c.yaml").write_text(pc("batch", 11))
    hits = [f for f in lint_paths([str(tmp_path)]).findings if f.rule == "BPL503"]
    # only the third apply is an update, of b.yaml's class
    assert [(Path(f.path).name, f.line, str(f.severity)) for f in hits] == [("c.yaml", 5, "error")]
    assert f"also defined at {tmp_path / 'b.yaml'}:4;" in hits[0].message


def test_a_class_kubectl_or_the_decoder_refuses_is_never_updated(tmp_path: Path) -> None:
    unsent = pc("batch", 10).replace("apiVersion: scheduling.k8s.io/v1\n", "")  # kubectl: apiVersion not set
    undecoded = pc("batch", 10) + "color: red\n"  # strict decoding error: unknown field
    for first in (unsent, undecoded):
        (tmp_path / "a.yaml").write_text(first)
        (tmp_path / "b.yaml").write_text(pc("batch", 20))
        assert not [f for f in lint_paths([str(tmp_path)]).findings if f.rule == "BPL503"]


def _rules(tmp_path: Path, *texts: str) -> list[tuple[str, str, str]]:
    for i, text in enumerate(texts):
        (tmp_path / f"{i}.yaml").write_text(text)
    return [(Path(f.path).name, f.rule, f.detail or f.message) for f in lint_paths([str(tmp_path)]).findings
            if f.rule in OWN]


def test_a_class_refused_as_a_second_default_is_created_by_its_next_definition(tmp_path: Path) -> None:
    # 1.yaml is refused with 403 (default-a is the default), so batch does not exist and 2.yaml creates it
    got = _rules(tmp_path, pc("default-a", 100, default=True), pc("batch", 10, default=True), pc("batch", 20))
    assert [(name, rule) for name, rule, _ in got] == [("1.yaml", "BPL501")]


def test_a_later_definition_is_judged_by_the_update_checks_alone(tmp_path: Path) -> None:
    # the second apply is an update: the API server never runs the create checks (user value limit) on it
    got = _rules(tmp_path, pc("batch", 10), pc("batch", 2_000_000_000, policy="Sometimes"))
    assert [(name, rule) for name, rule, _ in got] == [("1.yaml", "BPL503")]
    assert got[0][2].endswith('PriorityClass.scheduling.k8s.io "batch" is invalid: [value: Forbidden: may not be '
                              'changed in an update., preemptionPolicy: Invalid value: "Sometimes": '
                              "field is immutable]")


def test_a_generated_class_does_not_give_up_the_default_of_another(tmp_path: Path) -> None:
    generated = _meta_pc("  generateName: g-\n", default=True)
    got = _rules(tmp_path, generated, _meta_pc("  generateName: g-\n"), pc("batch", 10, default=True))
    assert [(name, rule) for name, rule, _ in got] == [("2.yaml", "BPL501")]
    assert "PriorityClass g-xxxxx is already marked as default" in got[0][2]


def test_a_built_in_class_is_updated_not_created(tmp_path: Path) -> None:
    # kube-apiserver creates the built-in classes at start-up: kubectl apply patches them, so only the update
    # checks run (value and preemptionPolicy immutable), an omitted value is kept, and one can become the default
    got = _rules(tmp_path, pc("system-cluster-critical", 2_000_000_000, default=True),
                 "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: system-node-critical\n",
                 pc("default-b", 100, default=True), pc("system-node-critical", 5))
    assert [(name, rule) for name, rule, _ in got] == [("2.yaml", "BPL501"), ("3.yaml", "BPL503")]
    assert got[0][2].endswith('priorityclasses.scheduling.k8s.io "default-b" is forbidden: PriorityClass '
                              "system-cluster-critical is already marked as default. Only one default can exist")
    assert got[1][2].endswith('PriorityClass.scheduling.k8s.io "system-node-critical" is invalid: value: Forbidden: '
                              "may not be changed in an update.")
    alone = tmp_path / "alone"
    alone.mkdir()
    got = _rules(alone, pc("system-node-critical", 5, policy="Never"))
    assert [(rule, message) for _, rule, message in got] == [
        ("BPL500", "value: Forbidden: may not be changed in an update."),
        ("BPL500", 'preemptionPolicy: Invalid value: "Never": field is immutable')]
