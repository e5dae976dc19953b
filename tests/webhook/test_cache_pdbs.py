"""PodDisruptionBudgets in the cluster cache (issue 10), through the real kubernetes client against the
local replay server: the policy/v1 LIST (paginated), WATCH events, a 410 relist that drops vanished
budgets, and the budgets reaching the preemption prediction of the scheduling state."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from replay_server import ReplayServer, Reply, event_line, status_body, synthetic_list, wait_until

from linter.model import Profile
from webhook.cluster.cache import ClusterCache
from webhook.cluster.reflector import Backoff

FAST = Backoff(base=0.01, cap=0.05)


def budget(name: str, allowed: int, rv: str, app: str = "web") -> dict[str, Any]:
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
            "metadata": {"name": name, "namespace": "default", "resourceVersion": rv},
            "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": app}}},
            "status": {"disruptionsAllowed": allowed, "currentHealthy": 1, "desiredHealthy": 1, "expectedPods": 1}}


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    replay = ReplayServer().serve_fixtures().start()
    yield replay
    replay.stop()


@pytest.fixture
def make_cache(server: ReplayServer, tmp_path: Path) -> Iterator[Any]:
    caches: list[ClusterCache] = []

    def make(**options: Any) -> ClusterCache:
        cache = ClusterCache.from_kubeconfig(str(server.kubeconfig(tmp_path / "kubeconfig")), backoff=FAST,
                                             **options)
        caches.append(cache)
        cache.start()
        return cache

    yield make
    for cache in caches:
        cache.stop()


def test_pdbs_are_listed_with_pages_and_watched(server: ReplayServer, make_cache: Any) -> None:
    items = [budget("a", 0, "300"), budget("b", 1, "301"), budget("c", 0, "302")]
    server.defaults[("poddisruptionbudgets", "list")] = synthetic_list("PodDisruptionBudgetList", items, "310")
    server.enqueue("poddisruptionbudgets", "watch", Reply(lines=[
        event_line("MODIFIED", budget("a", 2, "311")),
        event_line("DELETED", budget("b", 1, "312")),
        event_line("ADDED", budget("d", 0, "313", app="db")),
    ]))
    cache = make_cache(page_size=2)
    assert cache.wait_synced(10)
    assert [q.get("limit") for q in server.requests_for("poddisruptionbudgets", "list")] == ["2", "2"]
    assert wait_until(lambda: cache.object_keys()["poddisruptionbudgets"] == {"default/a", "default/c",
                                                                               "default/d"})
    assert server.requests_for("poddisruptionbudgets", "watch")[0]["resourceVersion"] == "310"
    assert cache.stats()["poddisruptionbudgets"] == 3
    with cache.scheduling_state() as state:
        by_name = {p["metadata"]["name"]: p for p in state.pdbs}
    assert by_name["a"]["status"]["disruptionsAllowed"] == 2
    assert by_name["d"]["spec"]["selector"] == {"matchLabels": {"app": "db"}}


def test_a_410_relist_drops_budgets_deleted_during_the_gap(server: ReplayServer, make_cache: Any) -> None:
    server.enqueue("poddisruptionbudgets", "list",
                   synthetic_list("PodDisruptionBudgetList", [budget("a", 0, "300"), budget("b", 0, "301")], "310"))
    gone = json.loads(status_body(410, "Expired", "too old resource version: 310 (400)"))
    server.enqueue("poddisruptionbudgets", "watch", Reply(lines=[event_line("ERROR", gone)], hold=False))
    server.enqueue("poddisruptionbudgets", "list",
                   synthetic_list("PodDisruptionBudgetList", [budget("b", 0, "401")], "410"))
    cache = make_cache()
    assert cache.wait_synced(10)
    assert wait_until(lambda: cache.object_keys()["poddisruptionbudgets"] == {"default/b"})
    with cache.scheduling_state() as state:
        assert [p["metadata"]["name"] for p in state.pdbs] == ["b"]


def _node(name: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "resourceVersion": "1"},
            "spec": {}, "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}}}


def _pod(name: str, node: str, app: str | None) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "default", "resourceVersion": "2",
                         "labels": {"app": app} if app else {}},
            "spec": {"nodeName": node, "priority": 100,
                     "containers": [{"name": "c", "resources": {"requests": {"cpu": "4"}}}]},
            "status": {"phase": "Running", "startTime": "2026-01-01T00:00:00Z"}}


def test_cached_budgets_steer_the_predicted_nomination(server: ReplayServer, make_cache: Any) -> None:
    """Two equal victims; the one protected by a budget with no disruptions left is avoided."""
    server.defaults[("nodes", "list")] = synthetic_list("NodeList", [_node("n1"), _node("n2")], "5")
    server.defaults[("pods", "list")] = synthetic_list(
        "PodList", [_pod("protected", "n1", "web"), _pod("free", "n2", None)], "5")
    server.defaults[("poddisruptionbudgets", "list")] = synthetic_list(
        "PodDisruptionBudgetList", [budget("web", 0, "4")], "5")
    cache = make_cache()
    assert cache.wait_synced(10)
    pending = {"metadata": {"name": "p", "namespace": "default"},
               "spec": {"priority": 1000, "containers": [{"name": "c", "resources": {"requests": {"cpu": "4"}}}]}}
    with cache.scheduling_state() as state:
        prediction = state.preempt(pending, Profile("default-scheduler"))
        assert prediction.nominated_node == "n2" and prediction.victims == ("default/free",)
        assert prediction.decided_by == "fewest PDB violations"
        unprotected = state.preempt(pending, Profile("default-scheduler"), pdbs=[])
        assert unprotected.nominated_node is None and unprotected.possible_nodes == ("n1", "n2")
