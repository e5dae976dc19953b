"""The cache's pod keys: every pod the apiserver listed, though only untracked pods' keys are stored apart."""

from __future__ import annotations

from typing import Any

from linter.scoring.cluster.state import ClusterState
from webhook.cluster.stores import PodKeyStore


def _pod(name: str, *, node: str | None = None, phase: str = "Running", nominated: str | None = None,
         cpu: str = "100m") -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "c", "resources": {"requests": {"cpu": cpu}}}]}
    if node:
        spec["nodeName"] = node
    status: dict[str, Any] = {"phase": phase}
    if nominated:
        status["nominatedNodeName"] = nominated
    return {"kind": "Pod", "metadata": {"name": name, "namespace": "team"}, "spec": spec, "status": status}


def test_keys_cover_every_listed_pod_and_deletes_reach_the_state() -> None:
    state = ClusterState()
    state.apply_node({"kind": "Node", "metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "4"}}})
    store = PodKeyStore(state)
    pods = {"bound": _pod("bound", node="n1"), "pending": _pod("pending", phase="Pending"),
            "nominated": _pod("nominated", phase="Pending", nominated="n1"),
            "done": _pod("done", node="n1", phase="Succeeded"), "bad": _pod("bad", node="n1", cpu="lots")}
    for pod in pods.values():
        try:
            store.upsert(store.key_of(pod), pod)
        except ValueError:
            assert pod is pods["bad"]  # refused by the state, still a listed key
    everything = {f"team/{name}" for name in pods}
    assert store.keys() == everything and store.count() == 5
    assert state.pod_count == 1 and state.tracks_pod("team", "nominated")

    moved = _pod("pending", node="n1")  # scheduled: now counted by the state, no longer stored apart
    store.upsert("team/pending", moved)
    assert state.pod_count == 2 and store.keys() == everything and store.count() == 5

    for key in ("team/bound", "team/nominated", "team/done", "team/bad", "team/pending", "team/never-seen"):
        store.delete(key)
    assert store.keys() == set() and store.count() == 0
    assert state.pod_count == 0 and not state.tracks_pod("team", "nominated")
