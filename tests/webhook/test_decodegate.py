"""``DecodeGate``: which bodies are decoded at once (no waiting here: a refusal is asked for with no wait left)."""

from __future__ import annotations

import time

from webhook.server.decodegate import RESERVE, DecodeGate

LIMIT = 7 * 1024 * 1024


def test_ordinary_reviews_fit_beside_one_of_the_largest_size() -> None:
    gate = DecodeGate(LIMIT + RESERVE, wait_seconds=0)
    with gate.admitted(LIMIT) as big, gate.admitted(20_000) as small, gate.admitted(20_000) as another:
        assert (big, small, another) == (True, True, True)


def test_a_second_large_review_is_refused_until_the_first_is_done() -> None:
    gate = DecodeGate(LIMIT + RESERVE, wait_seconds=0)
    with gate.admitted(LIMIT) as first, gate.admitted(2 * 1024 * 1024) as second:
        assert (first, second) == (True, False)
    with gate.admitted(2 * 1024 * 1024) as later:
        assert later is True


def test_a_body_over_the_capacity_is_decoded_when_nothing_else_is() -> None:
    gate = DecodeGate(1000, wait_seconds=0)
    with gate.admitted(5000) as alone:
        assert alone is True
        with gate.admitted(10) as beside:
            assert beside is False


def test_the_wait_ends_at_the_reviews_deadline() -> None:
    # the deadline counts from the review's arrival: one that has passed leaves no wait, though the gate's own
    # wait (2.5 s) would; a body that fits is still admitted
    gate = DecodeGate(LIMIT + RESERVE)
    past = time.monotonic() - 1.0
    with gate.admitted(LIMIT, until=past) as first, gate.admitted(2 * 1024 * 1024, until=past) as second:
        assert (first, second) == (True, False)
