"""JSONPatch builders: RFC 6901 escaping, add vs replace by what exists, idempotence; applied with jsonpatch."""

from __future__ import annotations

import base64
import copy
import json
from typing import Any

import jsonpatch
import pytest
from hypothesis import given
from hypothesis import strategies as st

from webhook.admission.patch import PatchOp, encode_patch, escape_token, pointer, set_member, set_members


def _apply(doc: dict[str, Any], ops: list[PatchOp]) -> dict[str, Any]:
    result: dict[str, Any] = jsonpatch.apply_patch(copy.deepcopy(doc), [op.as_dict() for op in ops])
    return result


@pytest.mark.parametrize(
    ("token", "escaped"),
    [("binpack-guard.io/scores", "binpack-guard.io~1scores"), ("a~b", "a~0b"), ("~/", "~0~1"), ("~1", "~01")],
)
def test_escape_token(token: str, escaped: str) -> None:
    assert escape_token(token) == escaped
    assert jsonpatch.JsonPointer(pointer([token])).parts == [token]


def test_missing_annotations_map_is_added_whole() -> None:
    doc = {"metadata": {"name": "p"}}
    ops = set_members(doc, ["metadata", "annotations"], {"a/b": "1", "c": "2"})
    assert [op.op for op in ops] == ["add"]
    assert _apply(doc, ops)["metadata"]["annotations"] == {"a/b": "1", "c": "2"}


def test_existing_map_gets_add_for_new_and_replace_for_changed_members() -> None:
    doc = {"metadata": {"annotations": {"x/y": "old", "keep": "k"}}}
    ops = set_members(doc, ["metadata", "annotations"], {"x/y": "new", "z~": "3", "keep": "k"})
    assert [(op.op, op.path) for op in ops] == [
        ("replace", "/metadata/annotations/x~1y"),
        ("add", "/metadata/annotations/z~0"),
    ]
    assert _apply(doc, ops)["metadata"]["annotations"] == {"x/y": "new", "z~": "3", "keep": "k"}


def test_null_annotations_are_replaced() -> None:
    doc: dict[str, Any] = {"metadata": {"annotations": None}}
    ops = set_members(doc, ["metadata", "annotations"], {"a": "1"})
    assert [op.op for op in ops] == ["replace"]
    assert _apply(doc, ops)["metadata"]["annotations"] == {"a": "1"}


def test_missing_metadata_creates_nested_maps() -> None:
    doc: dict[str, Any] = {"spec": {}}
    ops = set_member(doc, ["metadata", "annotations", "k"], "v")
    assert ops == [PatchOp("add", "/metadata", {"annotations": {"k": "v"}})]


def test_equal_value_means_no_operation_but_bool_is_not_int() -> None:
    assert set_member({"spec": {"priority": 0}}, ["spec", "priority"], 0) == []
    ops = set_member({"spec": {"flag": 1}}, ["spec", "flag"], True)
    assert ops == [PatchOp("replace", "/spec/flag", True)]


def test_encode_patch_is_base64_of_a_json_array() -> None:
    ops = [PatchOp("add", "/spec/priority", 5)]
    assert json.loads(base64.b64decode(encode_patch(ops))) == [{"op": "add", "path": "/spec/priority", "value": 5}]


# The bare key "-" is left out: the python jsonpatch applier used to check patches treats it as
# "append" even on objects (the apiserver's applier does not), and it is no valid annotation key.
_keys = st.text(alphabet=st.sampled_from("ab/~.-0"), min_size=1, max_size=6).filter(lambda k: k != "-")


@given(
    existing=st.one_of(st.none(), st.dictionaries(_keys, st.text(max_size=3), max_size=4)),
    wanted=st.dictionaries(_keys, st.text(max_size=3), max_size=4),
)
def test_set_members_property(existing: dict[str, str] | None, wanted: dict[str, str]) -> None:
    """After the patch every wanted member has its value, others are kept, and a second pass is empty."""
    doc: dict[str, Any] = {"metadata": {"name": "p"}}
    if existing is not None:
        doc["metadata"]["annotations"] = existing
    result = _apply(doc, set_members(doc, ["metadata", "annotations"], wanted))
    if existing is None and not wanted:
        assert "annotations" not in result["metadata"]
        return
    assert result["metadata"]["annotations"] == {**(existing or {}), **wanted}
    assert set_members(result, ["metadata", "annotations"], wanted) == []
