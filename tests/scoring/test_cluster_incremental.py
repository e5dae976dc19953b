"""Incremental updates: any sequence of node/pod events leaves ClusterState equal to a rebuild.

Checked three ways: against a ClusterState built from scratch from the final objects (in
both orders, nodes first and pods first), against the scalar model's
:func:`linter.scoring.nodes.node_views`, and by replaying the recorded apiserver watch
streams in ../shared/fixtures/watch.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from paths import SHARED

from linter.model import BalancedArgs, ResourceWeight, default_kube_scheduler_model
from linter.scoring.cluster.balanced import balanced_scores, bounded_balanced_scores, skips_pod
from linter.scoring.cluster.state import ClusterState
from linter.scoring.nodes import is_counted_pod, node_views
from linter.scoring.requests import actual_request

from .test_cluster_property import (
    NODE_NAMES,
    POD_NAMES,
    bound_pod,
    incoming_pod,
    node,
    nodes_with_cpu_and_memory,
    unique_by_name,
)

FIXTURES = SHARED / "fixtures/watch"


def snapshot(state: ClusterState) -> dict[str, dict[str, Any]]:
    """Every row with a name: presence, pod count and the non-zero sums per resource name."""
    store = state.store
    out: dict[str, dict[str, Any]] = {}
    for name, row in store.row_of.items():
        entry: dict[str, Any] = {"present": bool(store.present[row]), "pods": int(store.pod_count[row])}
        for label, array in (
            ("alloc", store.alloc),
            ("vc_alloc", store.vc_alloc),
            ("fit", store.fit_req),
            ("actual", store.act_req),
            ("volcano", store.vc_used),
        ):
            entry[label] = {r: int(array[c, row]) for r, c in store.resource_index.items() if array[c, row]}
        for c in store.resource_index.values():  # the store's derived columns stay in step with their sources
            assert store.fit_req100[c, row] == float(store.fit_req[c, row]) * 100
            assert store.fit_free100[c, row] == float(store.alloc[c, row] - store.fit_req[c, row]) * 100
            assert store.act_free[c, row] == (store.alloc[c, row : row + 1] - store.act_req[c, row : row + 1])[0]
            assert store.fit_peak[c] >= store.fit_req[c, row]
            assert store.act_req_f[c, row] == float(store.act_req[c, row])
            assert store.act_peak[c] >= store.act_req[c, row]
            assert store.act_negative or store.act_req[c, row] >= 0
        pods_col = store.resource_index.get("pods")
        allowed = int(store.alloc[pods_col, row]) if pods_col is not None else 0
        assert store.pods_full[row] == (int(store.pod_count[row]) >= allowed)
        entry["labels"] = {
            k: store.label_values[k][ids[row]] for k, ids in store.label_columns.items() if ids[row] >= 0
        }
        assert entry["labels"] == store.row_labels[row]
        entry["taints"] = store.taint_lists[int(store.taint_id[row])]
        entry["unschedulable"] = bool(store.unschedulable[row])
        out[name] = entry
    return out


def rebuild(nodes: dict[str, Any], pods: dict[tuple[str, str], Any], pods_first: bool) -> ClusterState:
    state = ClusterState()
    if pods_first:
        for p in pods.values():
            state.apply_pod(p)
    for n in nodes.values():
        state.apply_node(n)
    if not pods_first:
        for p in pods.values():
            state.apply_pod(p)
    return state


def _key(pod: dict[str, Any]) -> tuple[str, str]:
    return (pod["metadata"]["namespace"], pod["metadata"]["name"])


def _record(state: ClusterState, nodes: dict[str, Any], pods: dict[tuple[str, str], Any], kind: str, obj: Any) -> None:
    """Apply one generated event to ``state`` and to the plain record of the latest objects."""
    if kind == "node":
        state.apply_node(obj)
        nodes[obj["metadata"]["name"]] = obj
    elif kind == "delete-node":
        state.delete_node(obj)
        nodes.pop(obj, None)
    elif kind == "pod":
        state.apply_pod(obj)
        pods[_key(obj)] = obj
    else:
        state.delete_pod("ns", obj)
        pods.pop(("ns", obj), None)


EVENT = st.one_of(
    st.tuples(st.just("node"), st.sampled_from(NODE_NAMES).flatmap(lambda n: node(name=n))),
    st.tuples(st.just("delete-node"), st.sampled_from(NODE_NAMES)),
    st.tuples(st.just("pod"), st.sampled_from(POD_NAMES).flatmap(lambda n: bound_pod(name=n))),
    st.tuples(st.just("delete-pod"), st.sampled_from(POD_NAMES)),
)


@settings(max_examples=300, deadline=None)
@given(events=st.lists(EVENT, max_size=40), probe=incoming_pod())
def test_event_sequence_equals_rebuild(events: list[tuple[str, Any]], probe: dict[str, Any]) -> None:
    state = ClusterState()
    nodes: dict[str, Any] = {}
    pods: dict[tuple[str, str], Any] = {}
    for kind, obj in events:
        _record(state, nodes, pods, kind, obj)
    got = snapshot(state)
    assert got == snapshot(rebuild(nodes, pods, pods_first=False))
    assert got == snapshot(rebuild(nodes, pods, pods_first=True))
    assert state.node_count == len(nodes)
    assert state.pod_count == sum(1 for p in pods.values() if is_counted_pod(p))
    # The scalar model's sums for every existing node.
    for view in node_views(list(nodes.values()), list(pods.values())):
        row = got[view.name]
        assert row["pods"] == view.pod_count
        assert row["fit"] == {k: v for k, v in view.fit_requested.items() if v}
        assert row["actual"] == {k: v for k, v in view.requested.items() if v and k != "pods"}
        assert row["volcano"] == {k: int(v) for k, v in view.volcano_used.items() if v}
    # Rows left only by pods of missing nodes hold exactly those pods.
    bound_elsewhere = {p["spec"]["nodeName"] for p in pods.values() if is_counted_pod(p)} - set(nodes)
    assert {n for n, r in got.items() if not r["present"]} == bound_elsewhere
    model = default_kube_scheduler_model()
    assert state.rank(probe, model, top=0) == rebuild(nodes, pods, pods_first=True).rank(probe, model, top=0)


@settings(max_examples=100, deadline=None)
@given(events=st.lists(EVENT, max_size=25), probe=incoming_pod())
def test_rank_between_events_equals_rank_of_rebuild(events: list[tuple[str, Any]], probe: dict[str, Any]) -> None:
    """Ranking after every event (exercises the selector/taint caches as rows come and go)."""
    probe = copy.deepcopy(probe)
    probe["spec"].setdefault("nodeSelector", {"zone": "a"})
    state = ClusterState()
    nodes: dict[str, Any] = {}
    pods: dict[tuple[str, str], Any] = {}
    model = default_kube_scheduler_model()
    for kind, obj in events:
        _record(state, nodes, pods, kind, obj)
        assert state.rank(probe, model, top=0) == rebuild(nodes, pods, pods_first=False).rank(probe, model, top=0)


def _pod(name: str, node_name: str | None, cpu: str, phase: str | None = "Running") -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "c", "resources": {"requests": {"cpu": cpu}}}]}
    if node_name:
        spec["nodeName"] = node_name
    pod: dict[str, Any] = {"metadata": {"name": name, "namespace": "ns"}, "spec": spec}
    if phase:
        pod["status"] = {"phase": phase}
    return pod


def _node(name: str) -> dict[str, Any]:
    return {"metadata": {"name": name}, "status": {"allocatable": {"cpu": "8", "memory": "32Gi", "pods": "110"}}}


def test_lifecycle_of_one_pod_ends_where_it_started() -> None:
    state = ClusterState()
    state.apply_node(_node("a"))
    state.apply_node(_node("b"))
    empty = snapshot(state)
    steps = [
        _pod("p", None, "1", "Pending"),  # created, unbound: nothing
        _pod("p", "a", "1", "Pending"),  # bound
        _pod("p", "a", "1", "Running"),  # status-only update
        _pod("p", "a", "2", "Running"),  # resized in place
        _pod("p", "b", "2", "Running"),  # moved (cannot happen in k8s, still exact)
        _pod("p", "b", "2", "Succeeded"),  # terminal: contributes nothing
    ]
    for step in steps:
        state.apply_pod(step)
        alone = ClusterState()
        alone.apply_node(_node("a"))
        alone.apply_node(_node("b"))
        alone.apply_pod(step)
        assert snapshot(state) == snapshot(alone)
    assert snapshot(state) == empty
    state.apply_pod(_pod("p", "b", "2", "Running"))
    state.delete_pod("ns", "p")
    state.delete_pod("ns", "never-existed")
    assert snapshot(state) == empty and state.pod_count == 0


def test_node_deleted_and_recreated_keeps_its_pods() -> None:
    state = ClusterState()
    state.apply_pod(_pod("early", "a", "500m"))  # before its node
    state.apply_node(_node("a"))
    state.apply_pod(_pod("late", "a", "1"))
    with_node = snapshot(state)
    state.delete_node("a")
    assert state.node_count == 0 and state.pod_count == 2
    assert state.rank(_pod("x", None, "1"), default_kube_scheduler_model()).total_nodes == 0
    state.apply_node(_node("a"))
    assert snapshot(state) == with_node
    state.delete_node("a")
    state.delete_pod("ns", "early")
    state.delete_pod("ns", "late")
    assert snapshot(state) == {}  # the row is recycled once neither node nor pods remain


def _events(name: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = json.loads((FIXTURES / name).read_text())
    return events


def _apply(state: ClusterState, event: dict[str, Any]) -> None:
    obj = event.get("object") or {}
    if event.get("type") not in ("ADDED", "MODIFIED", "DELETED") or obj.get("kind") not in ("Node", "Pod"):
        return  # BOOKMARK / ERROR
    if obj["kind"] == "Node":
        if event["type"] == "DELETED":
            state.delete_node(obj["metadata"]["name"])
        else:
            state.apply_node(obj)
    elif event["type"] == "DELETED":
        state.delete_pod(obj["metadata"]["namespace"], obj["metadata"]["name"])
    else:
        state.apply_pod(obj)


def test_recorded_watch_streams_replay_like_a_relist() -> None:
    nodes = json.loads((FIXTURES / "list-nodes.json").read_text())["items"]
    pods = json.loads((FIXTURES / "list-pods-all-namespaces.json").read_text())["items"]
    state = ClusterState()
    latest_nodes = {n["metadata"]["name"]: n for n in nodes}
    latest_pods = {(p["metadata"]["namespace"], p["metadata"]["name"]): p for p in pods}
    for node_obj in nodes:  # LIST items carry no "kind"
        state.apply_node(node_obj)
    for pod_obj in pods:
        state.apply_pod(pod_obj)
    for event in _events("watch-nodes.events.json") + _events("watch-pods.events.json"):
        _apply(state, event)
        if event.get("type") not in ("ADDED", "MODIFIED", "DELETED"):
            continue
        obj = copy.deepcopy(event.get("object") or {})
        if obj.get("kind") == "Node":
            name = obj["metadata"]["name"]
            latest_nodes.pop(name, None) if event["type"] == "DELETED" else latest_nodes.update({name: obj})
        elif obj.get("kind") == "Pod":
            key = (obj["metadata"]["namespace"], obj["metadata"]["name"])
            latest_pods.pop(key, None) if event["type"] == "DELETED" else latest_pods.update({key: obj})
    assert snapshot(state) == snapshot(rebuild(latest_nodes, latest_pods, pods_first=False))
    assert state.node_count == len(latest_nodes)


def test_selector_cache_follows_rows_that_appear_and_move() -> None:
    """A cached nodeSelector verdict must not outlive row creation or a row moving into a freed slot."""
    state = ClusterState()
    for name, zone in (("a", "z1"), ("b", "z2"), ("c", "z1")):
        state.apply_node({**_node(name), "metadata": {"name": name, "labels": {"zone": zone}}})
    probe = _pod("probe", None, "100m")
    probe["spec"]["nodeSelector"] = {"zone": "z1"}
    model = default_kube_scheduler_model()
    steps: list[tuple[str, Any]] = [
        ("pod", _pod("early", "d", "1")),  # a row for a node that does not exist yet
        ("node", {**_node("d"), "metadata": {"name": "d", "labels": {"zone": "z1"}}}),
        ("delete-node", "a"),  # row of "a" is freed ...
        ("pod", _pod("ghost", "e", "1")),  # ... and reused
        ("delete-pod", "ghost"),  # the last row moves into the freed slot
        ("delete-node", "b"),
    ]
    nodes = {
        n: {**_node(n), "metadata": {"name": n, "labels": {"zone": z}}}
        for n, z in (("a", "z1"), ("b", "z2"), ("c", "z1"))
    }
    pods: dict[tuple[str, str], Any] = {}
    for kind, obj in steps:
        state.rank(probe, model, top=0)
        _record(state, nodes, pods, kind, obj)
        assert state.rank(probe, model, top=0) == rebuild(nodes, pods, pods_first=False).rank(probe, model, top=0)


def test_bad_objects_raise_one_line_errors_and_change_nothing() -> None:
    state = ClusterState()
    state.apply_node(_node("a"))
    state.apply_pod(_pod("good", "a", "1"))
    before = snapshot(state)
    bad_pod = _pod("good", "a", "1")
    bad_pod["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "one"
    bad_node = _node("a")
    bad_node["status"]["allocatable"]["memory"] = "lots"
    attempts: list[tuple[Any, tuple[str, ...]]] = [
        (lambda: state.apply_pod(bad_pod), ("pod ns/good", "spec.containers[0].resources.requests.cpu")),
        (lambda: state.apply_node(bad_node), ("node a", "status.allocatable")),
        (lambda: state.apply_node({"metadata": {"name": "b"}, "spec": "cordoned"}), ("node b", "spec")),
        (lambda: state.apply_node({"metadata": {}}), ("metadata.name",)),
    ]
    for attempt, fragments in attempts:
        try:
            attempt()
        except ValueError as exc:
            message = str(exc)
            assert "\n" not in message and all(f in message for f in fragments), message
        else:
            raise AssertionError(f"no error for {fragments}")
        assert snapshot(state) == before


def test_taint_cache_follows_taint_changes_and_rows_that_move() -> None:
    """The rows a taint rejects, kept per tolerations, must not outlive a node's taint change, a new taint
    list, or rows that appear and move."""
    def tainted(name: str, *keys: str) -> dict[str, Any]:
        taints = [{"key": k, "value": "x", "effect": "NoSchedule"} for k in keys]
        return {**_node(name), "spec": {"taints": taints}}

    state = ClusterState()
    nodes = {n: _node(n) for n in ("a", "b", "c")}
    for obj in nodes.values():
        state.apply_node(obj)
    tolerating = _pod("probe", None, "100m")
    tolerating["spec"]["tolerations"] = [{"key": "t1", "operator": "Exists"}]
    probes = [_pod("probe", None, "100m"), tolerating]
    model = default_kube_scheduler_model()
    steps: list[tuple[str, Any]] = [
        ("node", tainted("a", "t1")),  # a taint on a node the masks had as untainted
        ("node", tainted("b", "t2")),  # a new taint list
        ("node", tainted("a", "t2")),  # a node moves to another existing list
        ("node", _node("a")),  # and back to no taint
        ("pod", _pod("early", "d", "1")),  # a row for a node that does not exist yet
        ("node", tainted("d", "t1")),
        ("delete-node", "a"),  # row of "a" is freed ...
        ("delete-pod", "early"),  # ... and the last row moves into it
        ("node", tainted("c", "t1", "t2")),
    ]
    pods: dict[tuple[str, str], Any] = {}
    for kind, obj in steps:
        for probe in probes:
            state.rank(probe, model, top=0)
        _record(state, nodes, pods, kind, obj)
        for probe in probes:
            want = rebuild(nodes, pods, pods_first=False).rank(probe, model, top=0)
            got = state.rank(probe, model, top=0)
            assert (got, dict(got.reason_counts)) == (want, dict(want.reason_counts))


@settings(max_examples=100, deadline=None)
@given(nodes=nodes_with_cpu_and_memory(), data=st.data(), probe=incoming_pod())
def test_rank_between_pod_events_on_ordinary_nodes_equals_rank_of_rebuild(
    nodes: list[dict[str, Any]], data: st.DataObject, probe: dict[str, Any]
) -> None:
    """Ranking after every bound pod event on nodes that all have cpu and memory, where BalancedAllocation
    takes its float64 path (its requested columns and without-pod balance are kept between events)."""
    probe = copy.deepcopy(probe)
    for key in ("nodeSelector", "affinity", "tolerations"):
        probe["spec"].pop(key, None)
    names = [n["metadata"]["name"] for n in nodes]
    state = ClusterState()
    node_map = {n["metadata"]["name"]: n for n in nodes}
    for obj in nodes:
        state.apply_node(obj)
    pods: dict[tuple[str, str], Any] = {}
    model = default_kube_scheduler_model()
    event = st.one_of(
        st.tuples(st.just("pod"), st.sampled_from(POD_NAMES).flatmap(lambda n: bound_pod(name=n))),
        st.tuples(st.just("delete-pod"), st.sampled_from(POD_NAMES)),
    )
    real = actual_request(probe)

    def balanced_by_name(of: ClusterState) -> dict[str, float] | None:
        scores = bounded_balanced_scores(of.store, BalancedArgs(), real)
        return None if scores is None else {of.store.row_names[r]: s for r, s in enumerate(scores.tolist())}

    for _ in range(data.draw(st.integers(1, 12))):
        kind, obj = data.draw(event)
        if kind == "pod":
            obj["spec"]["nodeName"] = data.draw(st.sampled_from(names))  # every row stays a node
        state.rank(probe, model, top=0)
        _record(state, node_map, pods, kind, obj)
        fresh = rebuild(node_map, pods, pods_first=False)
        assert state.rank(probe, model, top=0) == fresh.rank(probe, model, top=0)
        if not skips_pod(BalancedArgs(), real):
            got = balanced_by_name(state)
            assert got is not None  # the float64 path applies on these nodes
            assert got == balanced_by_name(fresh)


_BALANCED = (
    BalancedArgs(),
    BalancedArgs(resources=tuple(ResourceWeight(name, 1) for name in ("cpu", "memory", "nvidia.com/gpu"))),
)


def _balances_by_name(state: ClusterState, args: BalancedArgs, real: dict[str, int]) -> dict[str | None, int]:
    """BalancedAllocation's score on every row by node name, from its int64 path; its float64 path, where it
    applies, must give the same."""
    names = state.store.row_names
    exact = balanced_scores(state.store, args, real)
    assert exact is not None
    by_name = {names[r]: s for r, s in enumerate(exact.tolist())}
    bounded = bounded_balanced_scores(state.store, args, real)
    if bounded is not None:
        assert {names[r]: s for r, s in enumerate(bounded.tolist())} == by_name
    return by_name


@settings(max_examples=150, deadline=None)
@given(nodes=st.lists(node(), min_size=1, max_size=6).map(unique_by_name), data=st.data(), probe=incoming_pod(),
       args=st.sampled_from(_BALANCED))
def test_kept_balances_follow_bound_pod_events_row_by_row(
    nodes: list[dict[str, Any]], data: st.DataObject, probe: dict[str, Any], args: BalancedArgs
) -> None:
    """After a few bound pod events BalancedAllocation's kept without-pod balance and float64 requested
    columns are updated for the changed rows alone (after many, or once a node changed, worked out again):
    both its paths then equal a rebuild's, on any nodes (zero and negative allocatables included, where a
    changed row's balance without the pod can leave 50..100), with two or three resources. (Which of the two
    paths applies may differ: a rebuild has no columns for resources that only deleted objects named.)"""
    real = actual_request(probe)
    if skips_pod(args, real):
        return
    names = [n["metadata"]["name"] for n in nodes]
    node_map = {n["metadata"]["name"]: n for n in nodes}
    state = ClusterState()
    for obj in nodes:
        state.apply_node(obj)
    pods: dict[tuple[str, str], Any] = {}
    event = st.one_of(
        st.tuples(st.just("pod"), st.sampled_from(POD_NAMES).flatmap(lambda n: bound_pod(name=n))),
        st.tuples(st.just("delete-pod"), st.sampled_from(POD_NAMES)),
        st.tuples(st.just("node"), st.sampled_from(names).flatmap(lambda n: node(name=n))),
    )
    for _ in range(data.draw(st.integers(1, 6))):
        _balances_by_name(state, args, real)  # what is kept now is what the events below must update
        batch = data.draw(st.lists(event, min_size=1, max_size=data.draw(st.sampled_from([3, 3, 40]))))
        for kind, obj in batch:
            if kind == "pod" and "nodeName" in obj["spec"]:
                obj["spec"]["nodeName"] = data.draw(st.sampled_from(names))  # the rows stay where they are
            _record(state, node_map, pods, kind, obj)
        assert _balances_by_name(state, args, real) == _balances_by_name(
            rebuild(node_map, pods, pods_first=False), args, real)


def test_store_tells_the_rows_changed_since_a_request_version() -> None:
    state = ClusterState()
    for name in ("a", "b"):
        state.apply_node(_node(name))
    store = state.store
    start = store.request_version
    state.apply_pod(_pod("p1", "b", "1"))
    state.apply_pod(_pod("p2", "a", "1"))
    state.apply_pod(_pod("p1", "a", "1"))  # moves: removed from b, added to a
    assert store.rows_changed_since(start) == [store.row_of[n] for n in ("b", "a", "b", "a")]
    assert store.rows_changed_since(store.request_version) == []
    for i in range(300):  # more changes than the store remembers
        state.apply_pod(_pod(f"q{i}", "a", "1"))
    assert store.rows_changed_since(start) is None
    assert store.rows_changed_since(store.request_version - 3) == [store.row_of["a"]] * 3


def test_balanced_float_path_declines_once_a_negative_amount_was_counted() -> None:
    """BalancedAllocation's float64 path reads the store's float64 copy of the requested amounts only while
    no row has ever held a negative amount (nonsense requests the state still counts, as kube-scheduler's
    NodeInfo sums them); once one has, the int64 path scores, and equals a rebuild's, also after the pod left."""
    state = ClusterState()
    state.apply_node(_node("a"))
    probe = {"metadata": {"name": "x", "namespace": "ns"}, "spec": {"containers": [{"name": "c", "resources": {
        "requests": {"cpu": "2", "memory": "8Gi"}}}]}}
    real = actual_request(probe)
    assert bounded_balanced_scores(state.store, BalancedArgs(), real) is not None
    state.apply_pod(_pod("neg", "a", "-1"))  # -1 cpu: with the probe's 2, a fraction of 1/8 like a valid one's
    assert state.store.act_negative
    assert bounded_balanced_scores(state.store, BalancedArgs(), real) is None
    # cpu -1/8 without the probe and 1/8 with it, memory 0 and 8Gi/32Gi: both balances int64(93.75) = 93
    assert _balances_by_name(state, BalancedArgs(), real) == {"a": 75}
    state.delete_pod("ns", "neg")
    assert bounded_balanced_scores(state.store, BalancedArgs(), real) is None  # the store remembers
    assert _balances_by_name(state, BalancedArgs(), real) == _balances_by_name(
        rebuild({"a": _node("a")}, {}, pods_first=False), BalancedArgs(), real)
