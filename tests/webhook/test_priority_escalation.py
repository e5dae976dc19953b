"""Issue 9 §2: with the Priority plugin off a pod cannot pick its own priority, an UPDATE keeps it, and a
globalDefault claim naming a class that does not exist (read live) blocks no real default. A live read waits
no longer than what is left of the review's time budget.

A class missing from the cache snapshot is read live from a local apiserver stand-in (the replay server) through
the real ``ClusterCache`` and kubernetes client: not found -> the plugin's 403, found -> resolved from it, the
apiserver failing -> 503. The UPDATE carry-over is the plugin's: omitted fields come back from ``oldObject``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from replay_server import ReplayServer, Reply, fixture_bytes, status_body, synthetic_list
from webhook_helpers import InMemoryLeaseStore, apply_response_patch, pod, priority_class, request_of, review

from webhook.admission.decide import pods, priorityclasses
from webhook.admission.encode import encode
from webhook.admission.scheduler_models import SchedulerModels
from webhook.cluster.cache import ClusterCache
from webhook.cluster.lease import LeaseDefaultClassClaim
from webhook.cluster.reflector import Backoff
from webhook.cluster.static import StaticClusterView
from webhook.server.app import create_app
from webhook.settings import Settings, env_name

FORGED = 2_000_001_000  # system-node-critical's value, chosen by the pod itself


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[ReplayServer, ClusterCache]]:
    server = ReplayServer().serve_fixtures().start()
    # the recorded classes minus the globalDefault one, so a claim is the only thing that can block a default
    classes = [c for c in json.loads(fixture_bytes("list-priorityclasses.raw.json"))["items"]
               if not c.get("globalDefault")]
    server.defaults[("priorityclasses", "list")] = synthetic_list("PriorityClassList", classes, "239")
    cache = ClusterCache.from_kubeconfig(str(server.kubeconfig(tmp_path / "kubeconfig")),
                                         backoff=Backoff(base=0.01, cap=0.05))
    cache.start()
    assert cache.wait_synced(10)
    yield server, cache
    cache.stop()
    server.stop()


def _decide(obj: dict[str, Any], view: Any, operation: str = "CREATE", old: dict[str, Any] | None = None) -> Any:
    document = review("Pod", operation, obj, old)
    decision = pods.decide(request_of(document), view, Settings(), SchedulerModels.static())
    return encode(document["request"]["uid"], decision)["response"]


def test_unknown_class_with_a_self_chosen_priority_is_denied_after_a_live_read(
    live: tuple[ReplayServer, ClusterCache],
) -> None:
    server, cache = live
    response = _decide(pod(priorityClassName="sneaky", priority=FORGED), cache)
    assert response["allowed"] is False
    assert response["status"]["code"] == 403
    assert response["status"]["message"] == 'pods "web" is forbidden: no PriorityClass with name sneaky was found'
    assert server.requests_for("priorityclasses", "get") == [{"name": "sneaky"}]


def test_a_class_the_cache_has_not_seen_yet_is_resolved_from_the_apiserver(
    live: tuple[ReplayServer, ClusterCache],
) -> None:
    server, cache = live
    server.classes["fresh"] = priority_class("fresh", 7000, policy="Never")
    assert "fresh" not in cache.priority_classes()
    forged = _decide(pod(priorityClassName="fresh", priority=FORGED), cache)
    assert forged["allowed"] is False and "computed 7000" in forged["status"]["message"]
    filled = _decide(pod(priorityClassName="fresh"), cache)
    assert filled["allowed"] is True
    spec = apply_response_patch(pod(priorityClassName="fresh"), filled)["spec"]
    assert (spec["priority"], spec["preemptionPolicy"]) == (7000, "Never")
    assert any("read from the apiserver" in w for w in filled["warnings"])


def test_an_apiserver_that_cannot_answer_the_live_read_denies_with_503(
    live: tuple[ReplayServer, ClusterCache],
) -> None:
    server, cache = live
    server.enqueue("priorityclasses", "get", Reply(status=500, body=status_body(500, "InternalError", "etcd down")))
    response = _decide(pod(priorityClassName="sneaky", priority=FORGED), cache)
    assert response["allowed"] is False
    assert (response["status"]["code"], response["status"]["reason"]) == (503, "ServiceUnavailable")
    assert "sneaky" in response["status"]["message"] and "HTTP 500" in response["status"]["message"]


def test_a_live_read_that_times_out_is_not_retried(live: tuple[ReplayServer, ClusterCache]) -> None:
    # urllib3 would retry the GET after its 2 s timeout, and the retry finds no scripted answer (404): a pod
    # denied 403 on a second guess, after 2 s x the tries; one try answers 503 after 2 s
    server, cache = live
    server.enqueue("priorityclasses", "get", Reply(delay=8.0, body=json.dumps(priority_class("sneaky", 5)).encode()))
    response = _decide(pod(priorityClassName="sneaky"), cache)
    assert (response["allowed"], response["status"]["code"]) == (False, 503)
    assert "Read timed out" in response["status"]["message"]
    assert server.requests_for("priorityclasses", "get") == [{"name": "sneaky"}]


def test_update_that_drops_priority_gets_the_old_values_back() -> None:
    view = StaticClusterView(priority_classes=[priority_class("high", 1000, policy="Never")])
    old = pod(priorityClassName="high", priority=1000, preemptionPolicy="Never")
    new = pod(priorityClassName="high")
    response = _decide(new, view, "UPDATE", old)
    assert response["allowed"] is True
    spec = apply_response_patch(new, response)["spec"]
    assert (spec["priority"], spec["preemptionPolicy"]) == (1000, "Never")
    # Fields the new object still carries are left alone (the apiserver's immutability check judges them).
    kept = pod(priorityClassName="high", priority=5, preemptionPolicy="Never")
    assert "patch" not in _decide(kept, view, "UPDATE", old)


def test_a_subresource_update_is_untouched() -> None:
    view = StaticClusterView()
    document = review("Pod", "UPDATE", pod(), pod(priority=3))
    document["request"]["subResource"] = "status"
    decision = pods.decide(request_of(document), view, Settings(), SchedulerModels.static())
    assert decision.allowed and not decision.patch


def _claim_review(name: str) -> Any:
    return request_of(review("PriorityClass", "CREATE", priority_class(name, 500, global_default=True)))


def test_a_claim_naming_a_class_that_does_not_exist_blocks_nobody_after_its_grace(
    live: tuple[ReplayServer, ClusterCache],
) -> None:
    server, cache = live
    store = InMemoryLeaseStore()
    ago = datetime.now(UTC) - timedelta(seconds=20)
    store.create("ghost", ago)  # e.g. a forged or failed create: no such class, live or cached
    claim = LeaseDefaultClassClaim(store)
    assert priorityclasses.decide(_claim_review("real-default"), cache, claim).allowed
    assert store.record is not None and store.record.holder == "real-default"
    assert {"name": "ghost"} in server.requests_for("priorityclasses", "get")


def test_a_claim_whose_class_exists_live_but_not_yet_in_the_cache_still_holds(
    live: tuple[ReplayServer, ClusterCache],
) -> None:
    server, cache = live
    server.classes["lagging"] = priority_class("lagging", 900, global_default=True)
    store = InMemoryLeaseStore()
    store.create("lagging", datetime.now(UTC) - timedelta(minutes=5))
    decision = priorityclasses.decide(_claim_review("second"), cache, LeaseDefaultClassClaim(store))
    assert not decision.allowed and "PriorityClass lagging is already marked as default" in decision.message
    assert store.record is not None and store.record.holder == "lagging"


def test_a_live_read_gets_only_what_is_left_of_the_reviews_time(live: tuple[ReplayServer, ClusterCache]) -> None:
    server, cache = live
    server.enqueue("priorityclasses", "get", Reply(delay=8.0, body=json.dumps(priority_class("sneaky", 5)).encode()))
    started = time.monotonic()
    decision = pods.decide(request_of(review("Pod", "CREATE", pod(priorityClassName="sneaky"))), cache, Settings(),
                           SchedulerModels.static(), until=started + 0.5)
    elapsed = time.monotonic() - started
    assert (decision.allowed, decision.code, decision.reason) == (False, 503, "ServiceUnavailable")
    assert re.fullmatch(
        r"PriorityClass sneaky is not in binpack-guard's cache and the apiserver could not be asked \(get "
        r"priorityclass sneaky: no answer within the 0\.[45]\d s left of this review's time budget\); the pod's "
        r"priority cannot be checked, retry", decision.message), decision.message
    assert server.requests_for("priorityclasses", "get") == [{"name": "sneaky"}]
    assert elapsed < 1.5  # 0.5 s were left; the read's own bound is 2 s, the apiserver's answer 8 s away


def test_a_live_read_with_no_time_left_is_not_sent(live: tuple[ReplayServer, ClusterCache]) -> None:
    server, cache = live
    decision = pods.decide(request_of(review("Pod", "CREATE", pod(priorityClassName="sneaky"))), cache, Settings(),
                           SchedulerModels.static(), until=time.monotonic() - 0.1)
    assert (decision.allowed, decision.code, decision.reason) == (False, 503, "ServiceUnavailable")
    assert decision.message == (
        "PriorityClass sneaky is not in binpack-guard's cache and the apiserver could not be asked (get "
        "priorityclass sneaky: not sent, no time was left of this review's time budget); the pod's priority "
        "cannot be checked, retry")
    assert server.requests_for("priorityclasses", "get") == []


def test_a_pod_review_is_answered_within_its_budget_from_the_settings(
    live: tuple[ReplayServer, ClusterCache],
) -> None:
    # the server's view: BINPACK_GUARD_POD_TIMEOUT_MS as the chart sets it, the route passing the deadline on
    server, cache = live
    server.enqueue("priorityclasses", "get", Reply(delay=8.0, body=json.dumps(priority_class("sneaky", 5)).encode()))
    settings = Settings.from_env({env_name("pod_timeout_ms"): "300"})
    client = create_app(settings, cache, scheduler_models=SchedulerModels.static()).test_client()
    started = time.monotonic()
    reply = client.post("/mutate/pods", json=review("Pod", "CREATE", pod(priorityClassName="sneaky"), uid="late"))
    elapsed = time.monotonic() - started
    response = reply.get_json()["response"]
    assert (response["allowed"], response["status"]["code"]) == (False, 503)
    assert "left of this review's time budget" in response["status"]["message"]
    assert elapsed < 1.4  # 0.3 s budget; without it the live read waited its own 2 s
