"""ClusterCache through the real kubernetes client against a local server replaying recorded apiserver traffic.

Each test scripts the replay server (LISTs, chunked WATCH streams, 410s), starts a real ``ClusterCache``
from a kubeconfig that points at it, and checks what the cache then reports through its public view
(``object_keys``, ``priority_classes``, ``stats``, ``scheduling_state``) and what the client sent.
"""

from __future__ import annotations

import copy
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from replay_server import (
    ReplayServer,
    Reply,
    event_line,
    fixture_bytes,
    fixture_reply,
    fixture_watch,
    paged_fixture,
    status_body,
    synthetic_list,
    wait_until,
)

from linter.model import default_kube_scheduler_model
from linter.scoring.cluster.images import image_locality_totals
from webhook.cluster.cache import ClusterCache
from webhook.cluster.kubeclient import ClientConfigError
from webhook.cluster.reflector import Backoff

FAST = Backoff(base=0.01, cap=0.05)


def fixture_items(name: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = json.loads(fixture_bytes(f"{name}.raw.json"))["items"]
    return items


def names(items: list[dict[str, Any]], *, pods: bool = False) -> set[str]:
    if pods:
        return {f"{i['metadata']['namespace']}/{i['metadata']['name']}" for i in items}
    return {i["metadata"]["name"] for i in items}


def recorded_events(name: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = json.loads(fixture_bytes(f"{name}.events.json"))
    return events


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    replay = ReplayServer().serve_fixtures().start()
    yield replay
    replay.stop()


@pytest.fixture
def make_cache(server: ReplayServer, tmp_path: Path) -> Iterator[Any]:
    caches: list[ClusterCache] = []

    def make(**options: Any) -> ClusterCache:
        options.setdefault("backoff", FAST)
        cache = ClusterCache.from_kubeconfig(str(server.kubeconfig(tmp_path / "kubeconfig")), **options)
        caches.append(cache)
        cache.start()
        return cache

    yield make
    for cache in caches:
        cache.stop()


def test_initial_sync_mirrors_the_recorded_lists(server: ReplayServer, make_cache: Any) -> None:
    cache = make_cache()
    assert cache.wait_synced(10)
    keys = cache.object_keys()
    assert keys["nodes"] == names(fixture_items("list-nodes"))
    assert keys["pods"] == names(fixture_items("list-pods-all-namespaces"), pods=True)
    classes = cache.priority_classes()
    recorded = {i["metadata"]["name"]: i for i in fixture_items("list-priorityclasses")}
    assert set(classes) == set(recorded)
    for name, obj in recorded.items():
        assert classes[name].value == obj["value"]
        assert classes[name].global_default == bool(obj.get("globalDefault"))
        assert classes[name].preemption_policy == obj["preemptionPolicy"]
    with cache.scheduling_state() as state:
        bound = [p for p in fixture_items("list-pods-all-namespaces") if p["spec"].get("nodeName")]
        assert state.node_count == len(recorded_nodes := fixture_items("list-nodes")) == len(keys["nodes"])
        assert state.pod_count == len(bound)
        ranking = state.rank(fixture_items("list-pods-all-namespaces")[0], default_kube_scheduler_model(), top=0)
        assert ranking.total_nodes == len(recorded_nodes)
    assert wait_until(lambda: cache.synced_after is not None)
    with cache.scheduling_state() as state:
        # the preemption twin's per-node order was sorted by the sync, not left to the first pod fitting nowhere
        assert len(state.pod_table.importance.slots) == state.pod_count > 0
    # every LIST was paginated and every watch started from the list's resourceVersion with bookmarks on
    for resource in ("nodes", "pods", "priorityclasses"):
        assert all("limit" in q for q in server.requests_for(resource, "list"))
        assert wait_until(lambda r=resource: bool(server.requests_for(r, "watch")))  # type: ignore[misc]
        first_watch = server.requests_for(resource, "watch")[0]
        assert first_watch["allowWatchBookmarks"] == "true"
        assert first_watch["resourceVersion"] == "239"
    assert cache.is_healthy()


def test_paginated_list_follows_continue_tokens(server: ReplayServer, make_cache: Any) -> None:
    server.defaults[("pods", "list")] = paged_fixture(["list-pods-page1", "list-pods-page2", "list-pods-page3"])
    cache = make_cache(page_size=2)
    assert cache.wait_synced(10)
    pages = [names(fixture_items(f"list-pods-page{n}"), pods=True) for n in (1, 2, 3)]
    assert cache.object_keys()["pods"] == pages[0] | pages[1] | pages[2]
    sent = server.requests_for("pods", "list")
    page1 = json.loads(fixture_bytes("list-pods-page1.raw.json"))["metadata"]["continue"]
    page2 = json.loads(fixture_bytes("list-pods-page2.raw.json"))["metadata"]["continue"]
    assert [q.get("continue") for q in sent] == [None, page1, page2]
    assert {q["limit"] for q in sent} == {"2"}


def test_watch_events_update_the_cache_and_bookmarks_move_the_resource_version(
    server: ReplayServer, make_cache: Any
) -> None:
    server.enqueue("pods", "watch", fixture_watch("watch-pods", hold=False))
    server.enqueue("nodes", "watch", fixture_watch("watch-nodes", hold=False))
    cache = make_cache()
    assert cache.wait_synced(10)
    pod_events, node_events = recorded_events("watch-pods"), recorded_events("watch-nodes")
    # the streams end after their BOOKMARK; the next watch must resume from the bookmark's resourceVersion
    assert wait_until(lambda: len(server.requests_for("pods", "watch")) >= 2)
    assert wait_until(lambda: len(server.requests_for("nodes", "watch")) >= 2)
    assert server.requests_for("pods", "watch")[1]["resourceVersion"] == pod_events[-1]["object"]["metadata"][
        "resourceVersion"]
    assert server.requests_for("nodes", "watch")[1]["resourceVersion"] == node_events[-1]["object"][
        "metadata"]["resourceVersion"]
    expected_pods = names(fixture_items("list-pods-all-namespaces"), pods=True)
    expected_nodes = names(fixture_items("list-nodes"))
    for events, expected, pods in ((pod_events, expected_pods, True), (node_events, expected_nodes, False)):
        for event in events:
            key = names([event["object"]], pods=pods).pop() if event["type"] != "BOOKMARK" else None
            if event["type"] == "ADDED":
                expected.add(key)
            elif event["type"] == "DELETED":
                expected.discard(key)
    keys = cache.object_keys()
    assert keys["pods"] == expected_pods
    assert keys["nodes"] == expected_nodes
    assert "" not in keys["nodes"]  # a bookmark is never an object
    with cache.scheduling_state() as state:
        assert state.node_count == len(expected_nodes)
    assert cache.stats()["watch_restarts"] == 0  # a normal end of stream re-watches without relisting


@pytest.mark.parametrize("recording", ["watch-pods-410-watch-cache", "watch-pods-410-etcd-no-watch-cache"])
def test_error_410_inside_a_watch_stream_relists_and_reconciles(
    server: ReplayServer, make_cache: Any, recording: str
) -> None:
    initial = fixture_items("list-pods-all-namespaces")
    survivors = [*initial[:3], _pod_named(initial[0], "appeared-during-gap")]
    server.enqueue("pods", "list", fixture_reply("list-pods-all-namespaces"))
    server.enqueue("pods", "watch", fixture_watch(recording))
    server.defaults[("pods", "list")] = synthetic_list("PodList", survivors, "400")
    cache = make_cache()
    assert cache.wait_synced(10)
    assert wait_until(lambda: cache.object_keys()["pods"] == names(survivors, pods=True))
    assert cache.stats()["watch_restarts"] >= 1
    assert len(server.requests_for("pods", "list")) >= 2
    assert wait_until(lambda: server.requests_for("pods", "watch")[-1]["resourceVersion"] == "400")


def test_http_410_on_list_is_retried(server: ReplayServer, make_cache: Any) -> None:
    server.enqueue("pods", "list", fixture_reply("list-pods-410-exact-compacted-rv"))
    cache = make_cache()
    assert cache.wait_synced(10)
    assert cache.object_keys()["pods"] == names(fixture_items("list-pods-all-namespaces"), pods=True)
    assert len(server.requests_for("pods", "list")) == 2


def test_expired_continue_token_restarts_the_list_from_the_first_page(
    server: ReplayServer, make_cache: Any
) -> None:
    pages = paged_fixture(["list-pods-page1", "list-pods-page2", "list-pods-page3"])
    server.enqueue("pods", "list", pages, fixture_reply("list-pods-410-expired-continue"))
    server.defaults[("pods", "list")] = pages
    cache = make_cache(page_size=2)
    assert cache.wait_synced(10)
    assert cache.object_keys()["pods"] == names(fixture_items("list-pods-all-namespaces"), pods=True)
    tokens = [q.get("continue") for q in server.requests_for("pods", "list")]
    assert tokens[0] is None and tokens[1] is not None
    assert tokens[2] is None  # restarted without the inconsistent token the 410 offered
    expired_token = json.loads(fixture_bytes("list-pods-410-expired-continue.raw.json"))["metadata"]["continue"]
    assert expired_token not in tokens
    assert len(tokens) == 5


def test_errors_back_off_mark_the_cache_unhealthy_and_recover(server: ReplayServer, make_cache: Any) -> None:
    failure = Reply(status=500, body=status_body(500, "InternalError", "etcd unavailable"))
    server.enqueue("nodes", "list", *([failure] * 4))
    cache = make_cache(unhealthy_after=0.0, backoff=Backoff(base=0.2, cap=0.2))
    assert wait_until(lambda: len(server.requests_for("nodes", "list")) >= 1)
    assert not cache.is_synced()
    assert wait_until(lambda: not cache.is_healthy(), timeout=2)
    assert cache.wait_synced(10)
    assert cache.is_healthy()
    assert len(server.requests_for("nodes", "list")) == 5


def test_priority_class_events_and_unknown_event_types(server: ReplayServer, make_cache: Any) -> None:
    base = fixture_items("list-priorityclasses")
    changed = {**base[0], "globalDefault": False, "value": 7}
    new = {**base[1], "metadata": {**base[1]["metadata"], "name": "fresh", "resourceVersion": "301"},
           "preemptionPolicy": "Never"}
    lines = [event_line("MODIFIED", changed), event_line("SOMETHING_NEW", new), event_line("ADDED", new),
             event_line("DELETED", base[2])]
    server.enqueue("priorityclasses", "watch", Reply(lines=lines))
    cache = make_cache()
    assert cache.wait_synced(10)
    assert wait_until(lambda: "fresh" in cache.priority_classes())
    classes = cache.priority_classes()
    assert base[2]["metadata"]["name"] not in classes
    assert classes[base[0]["metadata"]["name"]].value == 7
    assert not classes[base[0]["metadata"]["name"]].global_default
    assert classes["fresh"].preemption_policy == "Never"
    assert cache.is_healthy()


def test_stop_ends_idle_watches_promptly(server: ReplayServer, make_cache: Any) -> None:
    cache = make_cache(watch_timeout=300)
    assert cache.wait_synced(10)
    assert wait_until(lambda: all(server.requests_for(r, "watch") for r in ("nodes", "pods", "priorityclasses")))
    started = time.monotonic()
    cache.stop(timeout=5)
    assert time.monotonic() - started < 5
    assert not [t for t in threading.enumerate() if t.name.startswith("cache-")]
    assert not cache.is_healthy()  # its reflectors have ended


def test_bad_kubeconfig_is_one_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    with pytest.raises(ClientConfigError, match=str(missing)):
        ClusterCache.from_kubeconfig(str(missing))


def _pod_named(template: dict[str, Any], name: str) -> dict[str, Any]:
    return {**template, "metadata": {**template["metadata"], "name": name, "resourceVersion": "399"}}


def test_other_errors_inside_a_watch_stream_rewatch_from_the_same_version(
    server: ReplayServer, make_cache: Any
) -> None:
    status = json.loads(status_body(500, "InternalError", "etcdserver: request timed out"))
    server.enqueue("nodes", "watch", Reply(lines=[event_line("ERROR", status)], hold=False))
    cache = make_cache()
    assert cache.wait_synced(10)
    assert wait_until(lambda: len(server.requests_for("nodes", "watch")) >= 2)
    assert [q["resourceVersion"] for q in server.requests_for("nodes", "watch")[:2]] == ["239", "239"]
    assert len(server.requests_for("nodes", "list")) == 1  # no relist: the version is still servable
    assert cache.stats()["watch_restarts"] == 0


def test_watched_node_changes_reach_the_scheduling_state(server: ReplayServer, make_cache: Any) -> None:
    events = recorded_events("watch-nodes")
    added_node = events[0]["object"]  # node-d, still carrying the not-ready:NoSchedule taint
    server.enqueue("nodes", "watch", Reply(lines=[event_line("ADDED", added_node)]))
    cache = make_cache()
    assert cache.wait_synced(10)
    assert wait_until(lambda: added_node["metadata"]["name"] in cache.object_keys()["nodes"])
    unbound = next(p for p in fixture_items("list-pods-all-namespaces") if not p["spec"].get("nodeName"))
    with cache.scheduling_state() as state:
        ranking = state.rank(unbound, default_kube_scheduler_model(), top=0)
    assert ranking.total_nodes == len(fixture_items("list-nodes")) + 1
    # node-d is known but tainted: filtered out, while every recorded node is scored
    assert set(dict(ranking.scores)) == names(fixture_items("list-nodes"))
    assert sum(ranking.reason_counts.values()) == 1


def test_a_server_cache_gives_freed_memory_back_after_its_sync(
        server: ReplayServer, make_cache: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from webhook.cluster import cache as cache_module

    calls: list[bool] = []
    monkeypatch.setattr(cache_module, "release_free_heap", lambda: calls.append(gc.get_freeze_count() > 0) or True)
    try:
        cache = make_cache(freeze_gc=True)
        assert cache.wait_synced(10)
        assert wait_until(lambda: calls == [True])  # once, after the synced state was frozen
    finally:
        gc.unfreeze()


def test_watched_image_changes_reach_image_locality(server: ReplayServer, make_cache: Any) -> None:
    """A MODIFIED Node whose status.images gained one name and then swapped it for another: the state holds
    the second name only (the first freed, as the scheduler cache drops an image no node lists), and a pod
    running it scores ImageLocality on that node alone."""
    first = copy.deepcopy(fixture_items("list-nodes")[0])
    first["metadata"]["resourceVersion"] = "999990"
    first["status"]["images"] = [{"names": ["registry.example.com/a:1"], "sizeBytes": 900 * 1024 * 1024}]
    second = copy.deepcopy(first)
    second["metadata"]["resourceVersion"] = "999991"
    second["status"]["images"] = [{"names": ["registry.example.com/b:1"], "sizeBytes": 900 * 1024 * 1024}]
    server.enqueue("nodes", "watch", Reply(lines=[event_line("MODIFIED", first), event_line("MODIFIED", second)]))
    cache = make_cache()
    assert cache.wait_synced(10)

    def holds_b() -> bool:
        with cache.scheduling_state() as state:
            return "registry.example.com/b:1" in state.store.images.ids
    assert wait_until(holds_b)
    pod = {"metadata": {"name": "p", "namespace": "default"},
           "spec": {"containers": [{"name": "c", "image": "registry.example.com/b:1"}]}}
    with cache.scheduling_state() as state:
        store = state.store
        assert "registry.example.com/a:1" not in store.images.ids
        totals = image_locality_totals(store.images, store.size, store.present_count(), pod,
                                       default_kube_scheduler_model().profiles[0])
        assert totals is not None
        scored = {store.row_names[r]: int(totals[r]) for r in range(store.size) if totals[r]}
    assert list(scored) == [first["metadata"]["name"]]
