"""Every case of vectors/oracle-preemption.json (a real kube-scheduler 1.36.2) through the model."""

from __future__ import annotations

from typing import Any

import pytest

from linter.scoring.preemption import predict_preemption

from .oracle import ORACLE, cluster


def test_eighteen_cases() -> None:
    assert len(ORACLE) == 18


@pytest.mark.parametrize("case", ORACLE, ids=[c["id"] for c in ORACLE])
def test_oracle_case(case: dict[str, Any]) -> None:
    nodes, pods, pdbs, pending = cluster(case)
    got = predict_preemption(pending, nodes, pods, pdbs)
    want = case["outcome"]
    assert got.needed == want["preemptionNeeded"]
    if not want["preemptionNeeded"]:
        return
    assert got.eligible == want["eligible"]
    assert got.nominated_node == want["nominatedNode"]
    assert sorted(v.key for v in got.victims) == want["victims"]
    assert got.message == want["message"]
    assert got.random == ()
    events = [e for e in want.get("events") or [] if isinstance(e, dict) and e.get("reason") == "FailedScheduling"]
    if events and "message" in events[0]:
        assert got.event_message == events[0]["message"]
