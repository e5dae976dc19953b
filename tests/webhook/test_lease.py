"""The globalDefault claim over a real coordination.k8s.io Lease (real kubernetes client, local Lease server).

The replay server implements Lease GET/POST/PUT with real optimistic concurrency: a PUT whose
resourceVersion is stale answers 409, a POST of an existing name answers 409.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from replay_server import LeaseReadGate, ReplayServer, wait_until

from webhook.cluster.kubeclient import load_client_configuration
from webhook.cluster.lease import KubeLeaseStore, LeaseConflict, LeaseDefaultClassClaim, LeaseUnavailable

NAMESPACE, NAME = "binpack-guard", "binpack-guard-global-default"


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    replay = ReplayServer().start()
    yield replay
    replay.stop()


@pytest.fixture
def kubeconfig(server: ReplayServer, tmp_path: Path) -> str:
    return str(server.kubeconfig(tmp_path / "kubeconfig"))


def store(kubeconfig: str) -> KubeLeaseStore:
    return KubeLeaseStore(load_client_configuration(kubeconfig), NAMESPACE, NAME)


def never_default(name: str) -> bool:
    return False


def test_store_round_trip_and_conflicts(kubeconfig: str, server: ReplayServer) -> None:
    lease = store(kubeconfig)
    assert lease.get() is None
    when = datetime(2026, 11, 22, 10, 0, 0, 123456, tzinfo=UTC)
    lease.create("bp-default", when)
    record = lease.get()
    assert record is not None
    assert record.holder == "bp-default"
    assert record.acquired == when
    with pytest.raises(LeaseConflict):
        lease.create("other", when)
    with pytest.raises(LeaseConflict):
        lease.replace("other", when, "999999")
    lease.replace("other", when, record.resource_version)
    assert (lease.get() or record).holder == "other"
    stored = server.leases.leases[(NAMESPACE, NAME)]
    assert stored["spec"]["holderIdentity"] == "other"


def test_claim_is_idempotent_and_names_the_holder(kubeconfig: str) -> None:
    claim = LeaseDefaultClassClaim(store(kubeconfig))
    assert claim.claim("bp-default", is_still_default=never_default) is None
    assert claim.claim("bp-default", is_still_default=never_default) is None
    # the holder's claim is fresh, so it wins even though no cache has seen the class yet
    assert claim.claim("bp-other", is_still_default=never_default) == "bp-default"


def test_stale_claim_is_taken_over_only_when_the_holder_is_no_longer_default(kubeconfig: str) -> None:
    now = datetime.now(UTC)
    later = LeaseDefaultClassClaim(store(kubeconfig), clock=lambda: now + timedelta(minutes=5))
    LeaseDefaultClassClaim(store(kubeconfig), clock=lambda: now).claim("old", is_still_default=never_default)
    assert later.claim("new", is_still_default=lambda name: name == "old") == "old"
    assert later.claim("new", is_still_default=never_default) is None
    assert (store(kubeconfig).get() or pytest.fail("lease vanished")).holder == "new"


def test_release_frees_the_claim_for_another_class(kubeconfig: str) -> None:
    claim = LeaseDefaultClassClaim(store(kubeconfig))
    assert claim.claim("first", is_still_default=never_default) is None
    claim.release("someone-else")  # not the holder: no effect
    assert claim.claim("second", is_still_default=never_default) == "first"
    claim.release("first")
    assert claim.claim("second", is_still_default=never_default) is None


def test_concurrent_claims_have_exactly_one_winner(kubeconfig: str) -> None:
    results: dict[str, str | None] = {}
    barrier = threading.Barrier(24)

    def attempt(name: str) -> None:
        claim = LeaseDefaultClassClaim(store(kubeconfig), max_attempts=50)
        barrier.wait()
        results[name] = claim.claim(name, is_still_default=never_default)

    threads = [threading.Thread(target=attempt, args=(f"class-{i}",)) for i in range(24)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    winners = [name for name, holder in results.items() if holder is None]
    assert len(results) == 24
    assert len(winners) == 1
    assert all(holder == winners[0] for holder in results.values() if holder is not None)


def lease_writes(server: ReplayServer) -> list[str]:
    return [verb for (resource, verb, _) in server.requests if resource == "leases" and verb in ("POST", "PUT")]


def test_without_the_read_gate_claimers_served_one_after_another_never_contend(
    kubeconfig: str, server: ReplayServer
) -> None:
    # what a loaded machine can do to the webhook race test: the first claim is written before the second read
    assert LeaseDefaultClassClaim(store(kubeconfig)).claim("first", is_still_default=never_default) is None
    assert LeaseDefaultClassClaim(store(kubeconfig)).claim("second", is_still_default=never_default) == "first"
    assert lease_writes(server) == ["POST"]


def test_read_gate_makes_two_claimers_read_the_absent_lease_and_race_to_create_it(
    kubeconfig: str, server: ReplayServer
) -> None:
    gate = LeaseReadGate(parties=2, timeout=10.0)
    server.leases.absent_read_gate = gate
    results: dict[str, str | None] = {}

    def attempt(name: str) -> None:
        results[name] = LeaseDefaultClassClaim(store(kubeconfig)).claim(name, is_still_default=never_default)

    first = threading.Thread(target=attempt, args=("first",))
    first.start()
    # the first claimer is held at its read even though nobody else is claiming yet
    assert wait_until(lambda: gate.held == 1)
    assert lease_writes(server) == []
    attempt("second")
    first.join(10)
    assert gate.filled
    assert lease_writes(server) == ["POST", "POST"]  # both created it: one got 409 AlreadyExists
    winners = [name for name, holder in results.items() if holder is None]
    assert len(results) == 2 and len(winners) == 1
    assert [holder for holder in results.values() if holder is not None] == winners  # the loser names the winner


def test_read_gate_lets_a_lone_reader_go_after_its_timeout_and_then_stays_open(
    kubeconfig: str, server: ReplayServer
) -> None:
    gate = LeaseReadGate(parties=2, timeout=0.3)
    server.leases.absent_read_gate = gate
    lease = store(kubeconfig)
    started = time.monotonic()
    assert lease.get() is None
    assert time.monotonic() - started >= 0.3
    assert not gate.filled
    assert lease.get() is None
    assert gate.held == 1  # the gate is spent: later reads of the absent Lease pass without being held


def test_a_claim_that_would_outlast_the_reviews_deadline_ends_at_it(kubeconfig: str, server: ReplayServer) -> None:
    # a lone reader of the absent Lease is held 20 s: far past the claim's own bounds (5 s a request, 3 s of
    # retrying) and the review's deadline, 0.5 s away
    server.leases.absent_read_gate = LeaseReadGate(parties=2, timeout=20.0)
    started = time.monotonic()
    with pytest.raises(LeaseUnavailable) as caught:
        LeaseDefaultClassClaim(store(kubeconfig)).claim("late", is_still_default=never_default, until=started + 0.5)
    elapsed = time.monotonic() - started
    assert str(caught.value).startswith(
        f"this review's time budget ran out before the claim was decided; last error: lease {NAMESPACE}/{NAME}: ")
    assert "timed out" in str(caught.value)
    assert lease_writes(server) == [] and len(server.requests_for("leases", "GET")) == 1  # one try, no retries
    assert elapsed < 1.5


def test_a_claim_with_no_time_left_sends_nothing(kubeconfig: str, server: ReplayServer) -> None:
    with pytest.raises(LeaseUnavailable) as caught:
        LeaseDefaultClassClaim(store(kubeconfig)).claim("late", is_still_default=never_default,
                                                        until=time.monotonic() - 0.1)
    assert str(caught.value) == "this review's time budget ran out before the claim was decided"
    assert server.requests_for("leases", "GET") == []


def test_unreachable_apiserver_is_reported_not_guessed(tmp_path: Path) -> None:
    dead = ReplayServer().start()
    url = dead.url
    dead.stop()  # the port is closed now
    config = tmp_path / "kubeconfig"
    config.write_text(
        '{"apiVersion":"v1","kind":"Config","current-context":"c","clusters":[{"name":"c","cluster":'
        f'{{"server":"{url}"}}}}],"users":[{{"name":"u","user":{{}}}}],"contexts":[{{"name":"c","context":'
        '{"cluster":"c","user":"u"}}]}'
    )
    claim = LeaseDefaultClassClaim(store(str(config)))
    with pytest.raises(LeaseUnavailable):
        claim.claim("x", is_still_default=never_default)
