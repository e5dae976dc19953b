"""Name checks and Go value rendering with apimachinery's texts (k8s.io/apimachinery/pkg/util/validation)."""

from __future__ import annotations

import pytest

from linter.formats.priorityclass import validate as pc
from linter.gofmt import aggregate, go_quote
from linter.k8snames import (
    dns1123_subdomain_errors,
    is_extended_resource_name,
    label_value_errors,
    qualified_name_errors,
)


def test_dns_subdomain_accepts_and_rejects() -> None:
    assert dns1123_subdomain_errors("a.b-c.d") == []
    assert len(dns1123_subdomain_errors("-a")) == 1
    too_long = "a" * 254
    errs = dns1123_subdomain_errors(too_long)
    assert errs == ["must be no more than 253 characters"]
    assert dns1123_subdomain_errors("A" * 254)[0] == "must be no more than 253 characters"
    assert len(dns1123_subdomain_errors("A" * 254)) == 2


def test_qualified_names() -> None:
    # 1.35+ texts (content.IsLabelKey): "a valid label key", lengths in "bytes"
    assert qualified_name_errors("example.com/foo") == []
    assert qualified_name_errors("/foo") == ["prefix part must be non-empty"]
    assert qualified_name_errors("a/b/c")[0].startswith("a valid label key must consist of")
    assert qualified_name_errors("x/" + "a" * 64)[0] == "name part must be no more than 63 bytes"
    assert qualified_name_errors("a" * 254 + "/x")[0] == "prefix part must be no more than 253 bytes"


def test_label_values() -> None:
    assert label_value_errors("") == []
    assert label_value_errors("My_value.1") == []
    assert label_value_errors("a" * 64) == ["must be no more than 63 bytes"]
    assert label_value_errors("-a") == [
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
        "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
        "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"]


@pytest.mark.parametrize(("name", "extended"), [
    ("example.com/foo", True), ("cpu", False), ("kubernetes.io/foo", False), ("requests.example.com/x", False),
    ("nvidia.com/gpu", True),
])
def test_extended_resource_names(name: str, extended: bool) -> None:
    assert is_extended_resource_name(name) is extended


def test_go_quote_escapes_like_strconv_quote() -> None:
    assert go_quote('a"b\\c\n\x01é') == '"a\\"b\\\\c\\n\\x01é"'


def test_generate_name_is_checked_with_its_trailing_dash_masked() -> None:
    # the API server generates the name (generateName + 5 random characters) before validating
    assert pc.validate_create({"metadata": {"generateName": "batch-"}, "value": 1}) == []
    errs = pc.validate_create({"metadata": {"generateName": "Batch-"}, "value": 1})
    assert [(e.field, e.bad_value) for e in errs] == [("metadata.generateName", "Batch-"),
                                                      ("metadata.name", "Batch-xxxxx")]
    errs = pc.validate_create({"metadata": {"generateName": "Batch-", "name": "ok"}, "value": 1})
    assert [e.field for e in errs] == ["metadata.generateName"]


def test_invalid_message_aggregates_and_deduplicates() -> None:
    errors = pc.validate_create({"metadata": {"name": "x"}, "value": 2_000_000_000, "preemptionPolicy": ""})
    message = pc.invalid_message("x", errors)
    assert message.startswith('PriorityClass.scheduling.k8s.io "x" is invalid: [value: Forbidden')
    assert message.endswith("preemptionPolicy: Required value]")
    assert aggregate(["a", "a"]) == "a"


def test_update_compares_defaulted_preemption_policy() -> None:
    old = {"metadata": {"name": "x"}, "value": 1}
    assert pc.validate_update(old, {**old, "preemptionPolicy": "PreemptLowerPriority"}) == []
    errs = pc.validate_update(old, {**old, "preemptionPolicy": "Never"})
    assert [str(e) for e in errs] == ['preemptionPolicy: Invalid value: "Never": field is immutable']


def test_existing_default_is_the_lowest_value_first_in_order() -> None:
    classes = [{"metadata": {"name": n}, "value": v, "globalDefault": True} for n, v in
               (("b", 5), ("a", 3), ("c", 3))]
    assert pc.name_of(pc.existing_default(classes) or {}) == "a"
    assert pc.global_default_conflict(classes[1], classes, update=True) is None
    assert pc.global_default_conflict(classes[0], classes, update=True) == "a"
