"""The accept rule that spreads connections over workers (webhook.server.balance), on a real shared table."""

from __future__ import annotations

from webhook.server.balance import WorkerSlots


def test_only_the_least_loaded_serving_workers_accept() -> None:
    slots = WorkerSlots(size=4)
    a, b = slots.assign(1), slots.assign(2)
    a.serving(True)
    b.serving(True)
    assert a.may_accept() and b.may_accept()  # a tie: both may take the next connection
    a.opened()
    assert not a.may_accept() and b.may_accept()
    b.opened()
    b.opened()
    assert a.may_accept() and not b.may_accept()
    b.closed()
    b.closed()
    assert b.may_accept() and b.open_connections() == 0


def test_a_worker_that_is_not_serving_does_not_hold_the_others_back() -> None:
    slots = WorkerSlots(size=4)
    a, syncing = slots.assign(1), slots.assign(2)
    a.serving(True)
    a.opened()
    a.opened()
    assert a.may_accept()  # the syncing worker has 0 connections but is not serving yet
    syncing.serving(True)
    assert not a.may_accept()
    slots.release(2)  # the worker exited: its slot no longer counts, and is reused
    assert a.may_accept()
    again = slots.assign(3)
    assert again.open_connections() == 0
