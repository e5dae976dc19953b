"""Every createPriorityClass / updatePriorityClass case of vectors/priority.json, through the priorityclass wing.

The decision is assembled the way the API server orders it: defaulting, field validation
(422 with the exact field errors and message), then the Priority admission plugin's
globalDefault check (403). Expected values come only from the vector file.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from paths import SHARED

from linter.formats.priorityclass import validate as pc

VECTORS = SHARED / "vectors"
CASES = [c for c in json.loads((VECTORS / "priority.json").read_text())["cases"]
         if c["op"] in ("createPriorityClass", "updatePriorityClass")]


def decide(case: dict[str, Any]) -> dict[str, Any]:
    obj = case["object"]
    update = case["op"] == "updatePriorityClass"
    errors = pc.validate_update(case["old"], obj) if update else pc.validate_create(obj)
    if errors:
        return {"allowed": False, "code": 422, "reason": "Invalid", "fieldErrors": [str(e) for e in errors],
                "message": pc.invalid_message(pc.name_of(obj), errors)}
    blocker = pc.global_default_conflict(obj, case["existing"], update=update)
    if blocker is not None:
        return {"allowed": False, "code": 403, "reason": "Forbidden",
                "message": pc.forbidden_message(pc.name_of(obj), pc.already_default_reason(blocker))}
    defaulted = pc.apply_defaults(obj)
    return {"allowed": True, "defaulted": {"preemptionPolicy": defaulted["preemptionPolicy"],
                                           "globalDefault": pc.is_global_default(defaulted)}}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_priorityclass_vector(case: dict[str, Any]) -> None:
    got = decide(case)
    expected = case["expected"]
    assert got["allowed"] == expected["allowed"]
    for key in ("code", "reason", "message", "fieldErrors", "defaulted"):
        if key in expected:
            assert got.get(key) == expected[key], key


def test_vectors_cover_both_operations_and_both_rejections() -> None:
    ops = {c["op"] for c in CASES}
    codes = {c["expected"].get("code") for c in CASES}
    assert ops == {"createPriorityClass", "updatePriorityClass"} and {422, 403} <= codes
