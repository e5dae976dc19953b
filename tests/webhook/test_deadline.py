"""The arithmetic of a review's one deadline (``webhook.server.deadline``) and the lint-budget reasons built on it."""

from __future__ import annotations

import pytest

from webhook.server.boundedlint import others_linting, spent_waiting, too_slow
from webhook.server.deadline import ARRIVAL, arrival, gate_seconds, remaining, waited


def test_the_gate_waits_its_own_time_but_never_past_the_budget() -> None:
    assert gate_seconds(2.5, 2.5) == 2.5  # the chart: 3 s webhooks, 2.5 s lint budget
    assert gate_seconds(2.5, 1.5) == 1.5  # a shorter ConfigMap budget bounds the gate too
    assert gate_seconds(2.5, 9.5) == 2.5  # a longer one does not lengthen the gate's wait


def test_remaining_and_waited_count_from_the_deadline() -> None:
    # budget 1.5 s from an arrival at 100.0: the deadline is 101.5
    assert remaining(101.5, 100.25) == 1.25
    assert remaining(101.5, 102.0) == 0.0
    assert waited(1.5, 101.5, 100.25) == 0.25
    assert waited(1.5, 101.5, 101.5) == 1.5


def test_arrival_is_the_workers_stamp_else_now() -> None:
    assert arrival(7.0) == 7.0
    token = ARRIVAL.set(3.0)
    try:
        assert arrival(7.0) == 3.0
    finally:
        ARRIVAL.reset(token)


@pytest.mark.parametrize(("budget", "deadline", "started", "reason"), [
    (2.5, 102.5, 100.02, "linting took longer than the 2.5 s budget"),  # as before: no wait worth a tenth
    (1.5, 101.5, 101.3, "linting took longer than the 0.2 s left of the 1.5 s budget after 1.3 s of waiting"),
])
def test_a_lint_over_the_deadline_says_how_much_went_to_waiting(
    budget: float, deadline: float, started: float, reason: str
) -> None:
    assert too_slow(budget, deadline, started) == reason


def test_no_turn_at_the_linter_says_how_much_went_to_waiting_before() -> None:
    assert others_linting(2.5, 0.01) == "other ConfigMaps were being linted for the whole 2.5 s budget"
    assert others_linting(1.5, 1.0) == ("other ConfigMaps were being linted for the rest of the 1.5 s budget "
                                        "after 1.0 s of waiting")
    assert spent_waiting(1.5) == "the 1.5 s budget was spent waiting before linting could start"
