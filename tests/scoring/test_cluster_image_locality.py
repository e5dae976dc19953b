"""ImageLocality in ClusterState's ranking (linter.scoring.cluster.images) against the scalar model.

The store keeps what the scheduler cache keeps (backend/cache/cache.go): ``UpdateNode`` runs
``removeNodeImageStates`` on the old images and ``addNodeImageStates`` on the new ones, ``RemoveNode`` the
former; a name's size is the one of the node that created its state and survives while any node lists the
name. Random event sequences (one size per name, so the order of creation does not matter) must give the
scalar model's weighted score on every node.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pytest

from linter.model import Profile, default_kube_scheduler_model
from linter.scoring.cluster.images import image_locality_totals
from linter.scoring.cluster.state import ClusterState
from linter.scoring.imagelocality import ImageStates, calculate_priority, pod_images, scaled_image_score

MIB = 1024 * 1024
MODEL = default_kube_scheduler_model()
PROFILE = MODEL.profiles[0]


def _node(name: str, *images: tuple[list[str], int], cpu: str = "4") -> dict[str, Any]:
    return {"kind": "Node", "metadata": {"name": name},
            "status": {"allocatable": {"cpu": cpu, "memory": "8Gi", "pods": "110"},
                       "images": [{"names": n, "sizeBytes": s} for n, s in images]}}


def _pod(*images: str) -> dict[str, Any]:
    return {"kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
            "spec": {"containers": [{"name": f"c{i}", "image": image, "resources": {"requests": {"cpu": "1"}}}
                                    for i, image in enumerate(images)]}}


def _scores(state: ClusterState, pod: dict[str, Any], profile: Profile = PROFILE) -> dict[str, int]:
    store = state.store
    totals = image_locality_totals(store.images, store.size, store.present_count(), pod, profile)
    names = [store.row_names[r] for r in range(store.size)]
    return {str(n): 0 if totals is None else int(totals[r]) for r, n in enumerate(names) if store.present[r]}


def test_a_watch_update_adds_and_removes_a_nodes_images() -> None:
    state = ClusterState()
    for name in ("a", "b", "c", "d"):
        state.apply_node(_node(name))
    pod = _pod("app:1")
    assert _scores(state, pod) == {"a": 0, "b": 0, "c": 0, "d": 0}
    state.apply_node(_node("b", (["app:1"], 900 * MIB)))
    # int(943718400 * 1/4) = 235929600 -> floor(100 * 211812352 / 1024458752) = 20
    assert _scores(state, pod) == {"a": 0, "b": 20, "c": 0, "d": 0}
    state.apply_node(_node("c", (["app:1"], 900 * MIB)))
    assert _scores(state, pod)["c"] == _scores(state, pod)["b"] == 43  # 2 of 4 nodes
    state.apply_node(_node("b"))  # garbage-collected on b
    assert _scores(state, pod) == {"a": 0, "b": 0, "c": 20, "d": 0}
    state.delete_node("c")  # RemoveNode drops c's images: nobody holds app:1 now
    assert _scores(state, pod) == {"a": 0, "b": 0, "d": 0} and "app:1" not in state.store.images.ids


def test_a_state_keeps_the_size_of_the_node_that_created_it() -> None:
    state = ClusterState()
    state.apply_node(_node("a", (["app:1"], 800 * MIB)))
    state.apply_node(_node("b", (["app:1"], 100 * MIB)))  # joins a's state: the size stays 800 MiB
    pod = _pod("app:1")
    expected = calculate_priority(scaled_image_score(800 * MIB, 2, 2), 1)
    assert _scores(state, pod) == {"a": expected, "b": expected}
    state.apply_node(_node("a"))  # a drops it; b still holds the state a created
    assert _scores(state, pod)["b"] == calculate_priority(scaled_image_score(800 * MIB, 1, 2), 1)
    state.apply_node(_node("b", (["app:1"], 300 * MIB)))  # b alone: removed, then created anew with 300 MiB
    assert _scores(state, pod)["b"] == calculate_priority(scaled_image_score(300 * MIB, 1, 2), 1)


def test_bad_images_are_refused_before_anything_changes() -> None:
    state = ClusterState()
    state.apply_node(_node("a", (["app:1"], 900 * MIB)))
    bad = _node("a")
    bad["status"]["images"] = [{"names": ["app:1"], "sizeBytes": "900Mi"}]
    with pytest.raises(ValueError, match=r"node a: status.images\[0\].sizeBytes must be an int64 integer"):
        state.apply_node(bad)
    assert _scores(state, _pod("app:1")) == {"a": 89}  # floor(100 * (900 - 23) / (1000 - 23)) MiB


def test_weight_zero_or_no_image_adds_nothing() -> None:
    state = ClusterState()
    state.apply_node(_node("a", (["app:1"], 900 * MIB)))
    store = state.store
    assert image_locality_totals(store.images, store.size, 1, _pod("other:1"), PROFILE) is None
    assert image_locality_totals(store.images, store.size, 1, _pod("app:1"), Profile("x")) is None
    small = ClusterState()
    small.apply_node(_node("a", (["tiny:1"], 20 * MIB)))  # below the 23 MiB floor on every node
    assert image_locality_totals(small.store.images, 1, 1, _pod("tiny:1"), PROFILE) is None


def test_the_ranking_order_counts_image_locality_and_kept_rankings_follow_images() -> None:
    state = ClusterState()
    state.apply_node(_node("big", cpu="8"))
    state.apply_node(_node("small", (["app:1"], 900 * MIB), cpu="2"))
    with_image, without = _pod("app:1"), _pod("other:1")
    for _ in range(3):  # the second and third of a burst get the kept ranking
        assert [n for n, _ in state.rank(with_image, MODEL, None, 2).scores] == ["small", "big"]
        assert [n for n, _ in state.rank(without, MODEL, None, 2).scores] == ["big", "small"]
    state.apply_node(_node("small", cpu="2"))  # the image is gone: a node event, no kept ranking reused
    assert [n for n, _ in state.rank(with_image, MODEL, None, 2).scores] == ["big", "small"]


NAMES = [f"img{i}:v" for i in range(12)]
SIZE = {name: (i * 97 + 13) * MIB for i, name in enumerate(NAMES)}


@pytest.mark.parametrize("seed", range(30))
def test_random_events_match_the_scalar_model(seed: int) -> None:
    rng = random.Random(seed)
    state = ClusterState()
    live: dict[str, dict[str, Any]] = {}
    for _ in range(60):
        name = f"n{rng.randrange(12)}"
        if live and rng.random() < 0.2:
            gone = rng.choice(sorted(live))
            state.delete_node(gone)
            del live[gone]
            continue
        held = rng.sample(NAMES, rng.randrange(6))
        obj = _node(name, *((["r/" + n, n], SIZE[n]) for n in held))  # two names per image, as the kubelet lists
        state.apply_node(obj)
        live[name] = copy.deepcopy(obj)
        pod = _pod(*rng.sample(NAMES, rng.randrange(1, 4)), rng.choice(NAMES))
        scalar = ImageStates((n, live[n]) for n in live)
        images = pod_images(pod)
        expected = {n: scalar.score(images, n)[0] * PROFILE.image_locality_weight for n in live}
        got = _scores(state, pod)
        assert got == expected
    assert np.all(state.store.images.matrix[state.store.size:] == 0)


def test_kept_scores_follow_rows_that_move() -> None:
    """A Node without images deleted: the last row moves into its place with no image change."""
    state = ClusterState()
    state.apply_node(_node("a"))
    state.apply_node(_node("b"))
    state.apply_node(_node("c", (["app:1"], 900 * MIB)))
    pod = _pod("app:1")
    first = _scores(state, pod)
    assert first == {"a": 0, "b": 0, "c": calculate_priority(scaled_image_score(900 * MIB, 1, 3), 1)}
    state.delete_node("a")
    assert _scores(state, pod) == {"b": 0, "c": calculate_priority(scaled_image_score(900 * MIB, 1, 2), 1)}
    state.delete_node("b")  # one node left: it holds the image alone
    assert _scores(state, pod) == {"c": calculate_priority(900 * MIB, 1)}


def test_holder_masks_survive_growth_and_many_events() -> None:
    """More nodes than the store's first 64 rows, with the masks of asked-about images kept across events."""
    rng = random.Random(7)
    state = ClusterState()
    live: dict[str, dict[str, Any]] = {}
    pod = _pod(NAMES[0], NAMES[1])
    for step in range(400):
        name = f"n{rng.randrange(150)}"
        if live and rng.random() < 0.25:
            gone = rng.choice(sorted(live))
            state.delete_node(gone)
            del live[gone]
        else:
            held = rng.sample(NAMES[:4], rng.randrange(3))
            obj = _node(name, *(([n], SIZE[n]) for n in held))
            state.apply_node(obj)
            live[name] = obj
        if step % 5 == 0:
            scalar = ImageStates((n, live[n]) for n in live)
            assert _scores(state, pod) == {n: scalar.score(pod_images(pod), n)[0] for n in live}


def _bound(name: str, node_name: str) -> dict[str, Any]:
    return {"kind": "Pod", "metadata": {"name": name, "namespace": "default"},
            "spec": {"nodeName": node_name, "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]},
            "status": {"phase": "Running"}}


def test_kept_scores_are_not_reused_after_rows_moved_back_to_the_same_count() -> None:
    """Rows held by pods of a missing Node come and go; the row count returns to what it was while the
    image-bearing node sits in another row: a score kept for that count must not be handed out."""
    state = ClusterState()
    state.apply_pod(_bound("early", "ghost-1"))  # row 0, no Node
    state.apply_node(_node("b"))  # row 1
    state.apply_node(_node("c", (["app:1"], 900 * MIB)))  # row 2
    pod = _pod("app:1")
    expected = {"b": 0, "c": calculate_priority(scaled_image_score(900 * MIB, 1, 2), 1)}
    assert _scores(state, pod) == expected
    state.delete_pod("default", "early")  # row 0 released: c moves into it
    state.apply_pod(_bound("late", "ghost-2"))  # a new row 2: three rows again
    assert _scores(state, pod) == expected


@pytest.mark.parametrize("seed", range(5))
def test_pods_with_many_images_or_no_container_match_the_scalar_model(seed: int) -> None:
    """Above 8 distinct images the rows are scored from summed sizes instead of per subset; a pod with only
    an image volume has no container (Go's bounds cross)."""
    rng = random.Random(seed)
    state = ClusterState()
    live = {}
    for i in range(40):
        obj = _node(f"n{i}", *(([n], SIZE[n]) for n in rng.sample(NAMES, rng.randrange(8))))
        state.apply_node(obj)
        live[f"n{i}"] = obj
    scalar = ImageStates(live.items())
    many = _pod(*NAMES[:11])
    volume_only = {"kind": "Pod", "metadata": {"name": "v", "namespace": "default"},
                   "spec": {"volumes": [{"name": "m", "image": {"reference": NAMES[2]}}]}}
    for pod in (many, volume_only):
        assert _scores(state, pod) == {n: scalar.score(pod_images(pod), n)[0] for n in live}


def test_a_negative_size_lowers_only_the_rows_that_hold_it() -> None:
    """Node validation leaves status.images alone, so a negative sizeBytes is stored and ImageLocality adds it
    as it is. The pod's images together sum below the floor here, yet node a, which holds only the big one,
    scores: the shortcut for "no row can pass the floor" must count positive sizes only."""
    state = ClusterState()
    nodes = {"a": _node("a", (["big:1"], 900 * MIB)), "b": _node("b", (["neg:1"], -2000 * MIB)), "c": _node("c")}
    for obj in nodes.values():
        state.apply_node(obj)
    pod = _pod("big:1", "neg:1")
    scalar = ImageStates(nodes.items())
    expected = {n: scalar.score(pod_images(pod), n)[0] for n in nodes}
    # int(943718400 / 3) = 314572800 -> floor(100 * (314572800 - 24117248) / (2 * 1048576000 - 24117248)) = 14
    assert expected == {"a": 14, "b": 0, "c": 0}
    assert _scores(state, pod) == expected


@pytest.mark.parametrize("seed", range(10))
def test_random_negative_sizes_match_the_scalar_model(seed: int) -> None:
    rng = random.Random(seed)
    sizes = {name: rng.choice((-1, 1)) * rng.randrange(2000) * MIB for name in NAMES}
    state = ClusterState()
    live = {}
    for i in range(12):
        obj = _node(f"n{i}", *(([n], sizes[n]) for n in rng.sample(NAMES, rng.randrange(5))))
        state.apply_node(obj)
        live[f"n{i}"] = obj
    scalar = ImageStates(live.items())
    for _ in range(10):
        pod = _pod(*rng.sample(NAMES, rng.randrange(1, 4)))
        assert _scores(state, pod) == {n: scalar.score(pod_images(pod), n)[0] for n in live}
