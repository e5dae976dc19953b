"""PriorityClass validation beyond the vectors: error joining, system classes, the one-default rule and the claim.

Expected texts are taken from vectors/priority.json and reference/priority.md (read at
test time), combined the way the reference says the API server combines them.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from webhook_helpers import (
    SHARED,
    VECTORS,
    InMemoryLeaseStore,
    builtin_priority_classes,
    priority_class,
    request_of,
    review,
)

from linter.engine import lint_text
from linter.findings import Severity
from webhook.admission.decide import priorityclasses
from webhook.admission.encode import Decision
from webhook.cluster.lease import LeaseDefaultClassClaim
from webhook.cluster.static import StaticClusterView

CASES = {c["id"]: c for c in json.loads((VECTORS / "priority.json").read_text())["cases"]}
REFERENCE = (SHARED / "reference" / "priority.md").read_text()
SYSTEM_DELETE = re.search(r"\(`(this is a system priority class and cannot be deleted)`, 403\)", REFERENCE)
NAME_ERROR = re.search(r"`(metadata\.name: Invalid value: \"High_Priority\": [^`]+)`", REFERENCE)


def _decide(
    operation: str,
    obj: dict[str, Any] | None,
    old: dict[str, Any] | None = None,
    *,
    view: StaticClusterView | None = None,
    claim: Any = None,
    dry_run: bool = False,
    until: float | None = None,
) -> Decision:
    document = review("PriorityClass", operation, obj, old, dry_run=dry_run)
    view = view or StaticClusterView(priority_classes=builtin_priority_classes())
    return priorityclasses.decide(request_of(document), view, claim, until)


def _invalid(name: str, errors: list[str]) -> str:
    joined = errors[0] if len(errors) == 1 else "[" + ", ".join(errors) + "]"
    return f'PriorityClass.scheduling.k8s.io "{name}" is invalid: {joined}'


def test_several_field_errors_are_joined_in_order() -> None:
    above, policy = CASES["pc-create-above-max"], CASES["pc-create-bad-preemption-policy"]
    obj = {**above["object"], "preemptionPolicy": policy["object"]["preemptionPolicy"]}
    decision = _decide("CREATE", obj)
    errors = above["expected"]["fieldErrors"] + policy["expected"]["fieldErrors"]
    assert (decision.code, decision.reason, decision.message) == (422, "Invalid", _invalid("too-high", errors))


def test_bad_name_uses_the_dns_subdomain_message() -> None:
    assert NAME_ERROR is not None
    decision = _decide("CREATE", priority_class("High_Priority", 10))
    assert decision.message == _invalid("High_Priority", [NAME_ERROR.group(1)])


@pytest.mark.parametrize(
    ("obj", "why"),
    [
        (priority_class("system-node-critical", 5), "value of system-node-critical PriorityClass must be 2000001000"),
        (
            priority_class("system-cluster-critical", 2000000000, global_default=True),
            "globalDefault of system-cluster-critical PriorityClass must be false",
        ),
    ],
)
def test_system_prefix_rules(obj: dict[str, Any], why: str) -> None:
    template = CASES["pc-create-system-prefix-unknown"]["expected"]["fieldErrors"][0]
    expected = template.replace("system-custom is not a known system priority class", why)
    decision = _decide("CREATE", obj)
    assert decision.message == _invalid(obj["metadata"]["name"], [expected])


def test_exact_builtin_class_is_accepted_even_above_the_user_limit() -> None:
    assert _decide("CREATE", builtin_priority_classes()[0]).allowed


def test_adding_never_to_a_class_without_policy_is_an_immutable_change() -> None:
    old = priority_class("high", 1000)
    decision = _decide("UPDATE", priority_class("high", 1000, policy="Never"), old)
    assert decision.message == _invalid("high", ['preemptionPolicy: Invalid value: "Never": field is immutable'])


def test_builtin_classes_cannot_be_deleted() -> None:
    assert SYSTEM_DELETE is not None
    for pc in builtin_priority_classes():
        name = pc["metadata"]["name"]
        decision = _decide("DELETE", None, pc)
        expected = f'priorityclasses.scheduling.k8s.io "{name}" is forbidden: {SYSTEM_DELETE.group(1)}'
        assert (decision.code, decision.reason, decision.message) == (403, "Forbidden", expected)


def _defaults_view(*classes: dict[str, Any]) -> StaticClusterView:
    return StaticClusterView(priority_classes=[*builtin_priority_classes(), *classes])


def test_with_two_defaults_the_lowest_value_is_the_existing_one() -> None:
    low, high = priority_class("d-low", 10, global_default=True), priority_class("d-high", 20, global_default=True)
    view = _defaults_view(low, high)
    denied = _decide("UPDATE", {**high, "description": "x"}, high, view=view)
    template = CASES["pc-update-set-default-conflict"]["expected"]["message"]
    assert denied.message == template.replace('"high"', '"d-high"').replace("default-prio", "d-low")
    assert _decide("UPDATE", {**low, "description": "x"}, low, view=view).allowed


def test_updating_a_class_that_already_is_the_default_does_not_need_the_claim(lease_store: InMemoryLeaseStore) -> None:
    low, high = priority_class("d-low", 10, global_default=True), priority_class("d-high", 20, global_default=True)
    claim = LeaseDefaultClassClaim(lease_store)
    assert claim.claim("d-high", is_still_default=lambda name: True) is None
    decision = _decide("UPDATE", {**low, "description": "x"}, low, view=_defaults_view(low, high), claim=claim)
    assert decision.allowed and lease_store.record is not None and lease_store.record.holder == "d-high"


def test_create_default_claims_and_a_racing_second_default_is_denied(lease_store: InMemoryLeaseStore) -> None:
    claim = LeaseDefaultClassClaim(lease_store)
    stale = _defaults_view()  # neither class is in the cache yet: only the claim can tell them apart
    assert _decide("CREATE", priority_class("first", 1, global_default=True), view=stale, claim=claim).allowed
    assert lease_store.record is not None and lease_store.record.holder == "first"
    second = _decide("CREATE", priority_class("second", 2, global_default=True), view=stale, claim=claim)
    template = CASES["pc-create-second-global-default"]["expected"]["message"]
    assert second.message == template.replace("another-default", "second").replace("default-prio", "first")
    assert second.code == 403


def test_concurrent_default_creates_admit_exactly_one() -> None:
    """Eight replicas create different defaults at once against a cache that knows none of them."""
    stale = _defaults_view()
    store = InMemoryLeaseStore()
    writes = threading.Lock()  # the apiserver serializes writes; reads interleave freely
    create, replace = store.create, store.replace

    def locked_create(*args: Any, **options: Any) -> None:
        with writes:
            create(*args, **options)

    def locked_replace(*args: Any, **options: Any) -> None:
        with writes:
            replace(*args, **options)

    store.create, store.replace = locked_create, locked_replace  # type: ignore[method-assign]
    claim = LeaseDefaultClassClaim(store)
    results: dict[str, bool] = {}
    barrier = threading.Barrier(8)

    def create_default(name: str) -> None:
        barrier.wait()
        obj = priority_class(name, 1, global_default=True)
        results[name] = _decide("CREATE", obj, view=stale, claim=claim).allowed

    threads = [threading.Thread(target=create_default, args=(f"c{i}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(results.values()) == 1
    assert store.record is not None and results[store.record.holder]


def test_dry_run_does_not_claim_and_delete_releases(lease_store: InMemoryLeaseStore) -> None:
    claim = LeaseDefaultClassClaim(lease_store)
    pc = priority_class("d", 1, global_default=True)
    assert _decide("CREATE", pc, claim=claim, dry_run=True).allowed
    assert lease_store.record is None
    assert _decide("CREATE", pc, claim=claim).allowed
    assert _decide("DELETE", None, pc, claim=claim, dry_run=True).allowed
    assert lease_store.record is not None and lease_store.record.holder == "d"
    assert _decide("DELETE", None, pc, claim=claim).allowed
    assert lease_store.record.holder == ""


def test_un_defaulting_releases(lease_store: InMemoryLeaseStore) -> None:
    claim = LeaseDefaultClassClaim(lease_store)
    pc = priority_class("d", 1, global_default=True)
    assert _decide("CREATE", pc, claim=claim).allowed
    view = _defaults_view(pc)
    assert _decide("UPDATE", {**pc, "globalDefault": False}, pc, view=view, claim=claim).allowed
    assert lease_store.record is not None and lease_store.record.holder == ""


def test_a_failing_claim_denies_instead_of_crashing() -> None:
    class Broken:
        def claim(
            self, class_name: str, *, is_still_default: Callable[[str], bool], until: float | None = None
        ) -> str | None:
            raise OSError("apiserver unreachable")

        def release(self, class_name: str, *, until: float | None = None) -> None:
            raise OSError("apiserver unreachable")

    decision = _decide("CREATE", priority_class("d", 1, global_default=True), claim=Broken())
    assert (decision.allowed, decision.code, decision.reason) == (False, 500, "InternalError")
    assert "apiserver unreachable" in decision.message
    assert _decide("DELETE", None, priority_class("d", 1, global_default=True), claim=Broken()).allowed


def test_a_claim_past_the_reviews_deadline_denies_as_a_lease_failure_and_writes_nothing(
    lease_store: InMemoryLeaseStore,
) -> None:
    decision = _decide("CREATE", priority_class("d", 1, global_default=True), claim=LeaseDefaultClassClaim(lease_store),
                       until=time.monotonic() - 0.1)
    assert (decision.allowed, decision.code, decision.reason, decision.message) == (
        False, 500, "InternalError",
        "cannot claim the cluster-wide globalDefault lease for d: this review's time budget ran out before the "
        "claim was decided")
    assert lease_store.record is None


@pytest.mark.parametrize(
    ("obj", "fragment"),
    [({"metadata": {"name": "x"}, "value": "10"}, "value"), ({"metadata": {"name": "x"}, "value": 2**31}, "value")],
)
def test_undecodable_fields_are_bad_requests(obj: dict[str, Any], fragment: str) -> None:
    decision = _decide("CREATE", obj)
    assert (decision.code, decision.reason) == (400, "BadRequest") and fragment in decision.message


def _lint_errors(obj: dict[str, Any]) -> list[str]:
    return [f.message for f in lint_text(json.dumps(obj), "pc.json") if f.severity is Severity.ERROR]


def test_a_null_value_or_global_default_is_its_zero_value_as_go_decodes_it() -> None:
    obj = {**priority_class("nulls", 0), "value": None, "globalDefault": None, "description": None}
    assert _lint_errors(obj) == []
    assert _decide("CREATE", obj).allowed
    # the zero values take part in the checks: a null value is 0 against the stored 7, a change
    decision = _decide("UPDATE", obj, priority_class("nulls", 7))
    assert (decision.code, decision.message) == (422, _invalid("nulls", [
        "value: Forbidden: may not be changed in an update."]))
    # and a null globalDefault is no default, so an existing default does not refuse it
    default = priority_class("d", 1, global_default=True)
    view = StaticClusterView(priority_classes=[*builtin_priority_classes(), default])
    assert _decide("CREATE", obj, view=view).allowed


@pytest.mark.parametrize(("field", "obj", "message"), [
    ("description", {**priority_class("x", 1), "description": 5}, "description: must be a string or null, not 5"),
    ("metadata.name", {**priority_class("x", 1), "metadata": {"name": 5}},
     "metadata.name: must be a string or null, not 5"),
    ("metadata.namespace", {**priority_class("x", 1), "metadata": {"name": "x", "namespace": ["a"]}},
     "metadata.namespace: must be a string or null, not a list"),
    ("metadata.finalizers", {**priority_class("x", 1), "metadata": {"name": "x", "finalizers": "f"}},
     'metadata.finalizers: must be a list or null, not "f"'),
])
def test_every_field_go_cannot_decode_is_a_bad_request_as_binpack_lint_says(
        field: str, obj: dict[str, Any], message: str) -> None:
    assert _lint_errors(obj) == [message]
    decision = _decide("CREATE", obj)
    assert (decision.allowed, decision.code, decision.reason, decision.message) == (False, 400, "BadRequest", message)


def _with_meta(obj: dict[str, Any], **metadata: Any) -> dict[str, Any]:
    return {**obj, "metadata": {**obj["metadata"], **metadata}}


def test_a_namespace_is_cleared_on_create_and_update() -> None:
    # rest.BeforeCreate/BeforeUpdate clear the namespace of a cluster-scoped object before validating it
    obj = _with_meta(priority_class("nsd", 1), namespace="default")
    assert _decide("CREATE", obj).allowed
    assert _decide("UPDATE", {**obj, "description": "x"}, priority_class("nsd", 1)).allowed


def test_generate_name_is_judged_under_the_generated_name() -> None:
    assert _decide("CREATE", {**priority_class("", 1), "metadata": {"generateName": "gen-"}}).allowed
    decision = _decide("CREATE", {**priority_class("", 1), "metadata": {"generateName": "system-"}})
    why = "system-xxxxx is not a known system priority class"
    expected = CASES["pc-create-system-prefix-unknown"]["expected"]["fieldErrors"][0].replace(
        "system-custom is not a known system priority class", why)
    assert (decision.code, decision.message) == (422, _invalid("system-xxxxx", [expected]))


_KEY_PATTERN = ("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
                "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")


def test_label_and_annotation_keys_are_validated_after_the_name() -> None:
    assert NAME_ERROR is not None
    obj = _with_meta(priority_class("High_Priority", 10), labels={"bad key!": "v"},
                     annotations={"Example.COM/Upper-Is-Fine": "", "x//y": None})
    decision = _decide("CREATE", obj)
    assert decision.message == _invalid("High_Priority", [
        NAME_ERROR.group(1),
        f'metadata.labels: Invalid value: "bad key!": name part {_KEY_PATTERN}',
        f'metadata.annotations: Invalid value: "x//y": a valid label key {_KEY_PATTERN} with an optional DNS '
        "subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ])


def test_update_checks_labels_and_annotation_size_before_the_immutable_fields() -> None:
    old = priority_class("high", 1000)
    new = _with_meta(priority_class("high", 1001), labels={"tier": "x" * 64},
                     annotations={"a": "x" * (256 * 1024)})
    decision = _decide("UPDATE", new, old)
    assert decision.message == _invalid("high", [
        'metadata.labels: Invalid value: "' + "x" * 64 + '": must be no more than 63 bytes',
        "metadata.annotations: Too long: may not be more than 262144 bytes",
        "value: Forbidden: may not be changed in an update.",
    ])


@pytest.mark.parametrize("metadata", [{"name": "x", "labels": {"a": 1}}, {"name": "x", "annotations": ["a"]}])
def test_undecodable_labels_or_annotations_are_bad_requests(metadata: dict[str, Any]) -> None:
    decision = _decide("CREATE", {"metadata": metadata, "value": 1})
    assert (decision.code, decision.reason) == (400, "BadRequest") and "metadata." in decision.message
