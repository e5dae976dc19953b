"""Issue 9 §3: each measured way the cache lied about being ready, reproduced against the replay apiserver.

Every test drives a real ``ClusterCache`` (real kubernetes client, real HTTP) into the failure, then checks that
``/readyz`` of an app over that cache answers 503, that a pod review is not decided from it (HTTP 503, the
webhook's failurePolicy path, with a one-line reason) and, where the failure ends, that the cache recovers
without a restart. Bounds are small in the tests (``watch_timeout=1`` etc.); docs/operations.md gives the
production ones. No test measures time: each waits (bounded) for a state.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from replay_server import ReplayServer, Reply, event_line, fixture_bytes, status_body, wait_until
from webhook_helpers import pod, priority_class, review

from webhook.admission.scheduler_models import SchedulerModels
from webhook.cluster.cache import ClusterCache
from webhook.cluster.reflector import Backoff
from webhook.server.app import create_app
from webhook.settings import Settings


@dataclass(frozen=True)
class RecordingBackoff(Backoff):
    """Tiny real delays; remembers the attempt number of every wait (what the backoff schedule is fed)."""

    attempts: list[int] = field(default_factory=list)

    def delay(self, attempt: int) -> float:
        self.attempts.append(attempt)
        return 0.01


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    replay = ReplayServer().serve_fixtures().start()
    yield replay
    replay.stop()


@pytest.fixture
def make_cache(server: ReplayServer, tmp_path: Path) -> Iterator[Any]:
    caches: list[ClusterCache] = []

    def make(**options: Any) -> ClusterCache:
        options.setdefault("backoff", RecordingBackoff())
        cache = ClusterCache.from_kubeconfig(str(server.kubeconfig(tmp_path / "kubeconfig")), **options)
        caches.append(cache)
        cache.start()
        return cache

    yield make
    for cache in caches:
        cache.stop()


def readyz(cache: ClusterCache) -> int:
    app = create_app(Settings(), cache, scheduler_models=SchedulerModels.static())
    return app.test_client().get("/readyz").status_code


def pod_review_status(cache: ClusterCache) -> tuple[int, str]:
    app = create_app(Settings(), cache, scheduler_models=SchedulerModels.static())
    reply = app.test_client().post("/mutate/pods", json=review("Pod", "CREATE", pod()))
    body = reply.get_json()
    return reply.status_code, str(body.get("error", ""))


def new_class_event(name: str, version: str) -> bytes:
    obj = priority_class(name, 4242)
    obj["metadata"]["resourceVersion"] = version
    return event_line("ADDED", obj)


def test_a_hung_watch_turns_readyz_503_and_is_dropped_then_the_new_class_arrives(
    server: ReplayServer, make_cache: Any
) -> None:
    server.enqueue("priorityclasses", "watch", Reply(lines=[], hang=True))  # silent past its own timeout
    server.enqueue("priorityclasses", "watch", Reply(lines=[new_class_event("late", "900")]))
    cache = make_cache(watch_timeout=1, stale_after=1.5, watch_read_margin=2)
    assert cache.wait_synced(10)
    assert wait_until(lambda: readyz(cache) == 503, timeout=10)
    assert pod_review_status(cache)[0] == 503
    assert wait_until(lambda: "late" in cache.priority_classes(), timeout=15)  # the client dropped the hung watch
    assert wait_until(lambda: readyz(cache) == 200, timeout=10)


def test_backoff_restarts_from_zero_after_a_successful_reconnect(server: ReplayServer, make_cache: Any) -> None:
    failure = Reply(status=500, body=status_body(500, "InternalError", "apiserver restarting"))
    server.enqueue("priorityclasses", "watch", *([failure] * 5))
    server.enqueue("priorityclasses", "watch", Reply(lines=[new_class_event("back", "901")], hold=False))
    server.enqueue("priorityclasses", "watch", failure)
    backoff = RecordingBackoff()
    cache = make_cache(backoff=backoff, watch_timeout=30)
    assert cache.wait_synced(10)
    assert wait_until(lambda: "back" in cache.priority_classes() and len(backoff.attempts) >= 6, timeout=10)
    # five failures back off 0..4; the good watch resets, so the next failure waits attempt 0 again
    assert backoff.attempts[:6] == [0, 1, 2, 3, 4, 0]


def test_a_worker_that_cannot_list_is_not_ready_and_decides_nothing(server: ReplayServer, make_cache: Any) -> None:
    server.defaults[("priorityclasses", "list")] = Reply(status=403, body=status_body(403, "Forbidden", "no RBAC"))
    cache = make_cache(unhealthy_after=0.2)
    assert wait_until(lambda: len(server.requests_for("priorityclasses", "list")) >= 2)
    assert not cache.is_synced() and readyz(cache) == 503
    status, error = pod_review_status(cache)
    assert status == 503 and "has not finished its first list" in error
    server.defaults[("priorityclasses", "list")] = Reply(body=fixture_bytes("list-priorityclasses.raw.json"))
    assert wait_until(lambda: readyz(cache) == 200, timeout=10)  # recovers without a restart


def test_a_malformed_first_watch_event_makes_readyz_503_until_the_stream_is_sane(
    server: ReplayServer, make_cache: Any
) -> None:
    malformed = Reply(lines=[b'{"type":"ADDED","object":"not an object"}'], hold=False)
    server.defaults[("nodes", "watch")] = malformed
    cache = make_cache(unhealthy_after=0.3)
    assert cache.wait_synced(10)
    assert wait_until(lambda: readyz(cache) == 503, timeout=10)
    assert cache.stats()["watch_restarts"] >= 1  # it relists: rewatching would replay the same event
    server.defaults[("nodes", "watch")] = Reply(lines=[])
    assert wait_until(lambda: readyz(cache) == 200, timeout=10)


def test_a_list_without_items_never_empties_a_kind(server: ReplayServer, make_cache: Any) -> None:
    nodes = {n["metadata"]["name"] for n in json.loads(fixture_bytes("list-nodes.raw.json"))["items"]}
    no_items = Reply(body=b'{"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"950"}}')
    expired = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "Expired", "code": 410,
               "message": "too old resource version"}
    cache = make_cache(unhealthy_after=0.3, watch_timeout=1)
    assert cache.wait_synced(10)
    server.defaults[("nodes", "list")] = no_items
    server.enqueue("nodes", "watch", Reply(lines=[event_line("ERROR", expired)], hold=False))
    assert wait_until(lambda: cache.stats()["watch_errors"] >= 2, timeout=10)
    assert cache.object_keys()["nodes"] == nodes
    assert wait_until(lambda: readyz(cache) == 503, timeout=10)


def test_a_watch_that_ends_at_once_is_reopened_with_growing_backoff(server: ReplayServer, make_cache: Any) -> None:
    server.defaults[("pods", "watch")] = Reply(lines=[], hold=False)
    backoff = RecordingBackoff()
    cache = make_cache(backoff=backoff, unhealthy_after=0.3)
    assert cache.wait_synced(10)
    assert wait_until(lambda: len(backoff.attempts) >= 5, timeout=10)
    assert backoff.attempts[:5] == [0, 1, 2, 3, 4]
    assert wait_until(lambda: readyz(cache) == 503, timeout=10)
