"""ImageLocality (linter.scoring.imagelocality), hand-built from kube-scheduler 1.36.2:

* image_locality.go: ``normalizedImageName`` appends ``:latest`` when ``LastIndex(name, ":") <=
  LastIndex(name, "/")``; ``sumImageScores`` looks up every init container, container and image volume
  (``volume.Image.Reference``) and adds ``scaledImageScore`` per hit, repeats included;
  ``scaledImageScore`` = ``int64(float64(Size) * (float64(NumNodes) / float64(totalNumNodes)))``;
  ``calculatePriority(sum, len(InitContainers)+len(Containers))`` clamps to ``[23 MiB, 1000 MiB x n]`` and
  returns ``100 * (sum - min) / (max - min)`` in int64; ``Score`` takes ``totalNumNodes`` from
  ``NodeInfos().List()`` (every node).
* backend/cache/cache.go ``addNodeImageStates``: a name's state is created with the ``SizeBytes`` of the
  node that adds it first; later nodes only join its ``Nodes`` set; ``ImageStateSummary.Snapshot`` gives
  ``NumNodes = len(Nodes)``.
* kubernetes issue 138952: 1.36 sums image volumes but leaves them out of ``numContainers``.
"""

from __future__ import annotations

from typing import Any

import pytest

from linter.scoring.imagelocality import (
    MIN_THRESHOLD,
    ImageStates,
    calculate_priority,
    normalized_image_name,
    pod_images,
    scaled_image_score,
)

MIB = 1024 * 1024


@pytest.mark.parametrize(("name", "expected"), [
    ("nginx", "nginx:latest"),
    ("nginx:1.25", "nginx:1.25"),
    ("localhost:5000/app", "localhost:5000/app:latest"),  # the port's ':' comes before the last '/'
    ("localhost:5000/app:v2", "localhost:5000/app:v2"),
    ("reg.io/app@sha256:0123", "reg.io/app@sha256:0123"),  # the digest's ':' is after the last '/'
    ("", ":latest"),
])
def test_normalized_image_name(name: str, expected: str) -> None:
    assert normalized_image_name(name) == expected


def test_pod_images_counts_init_sidecar_and_volumes_but_bounds_by_containers_only() -> None:
    pod = {"spec": {
        "initContainers": [{"name": "i", "image": "init"}, {"name": "s", "image": "side", "restartPolicy": "Always"}],
        "containers": [{"name": "a", "image": "app:1"}, {"name": "b", "image": "app:1"}],
        "ephemeralContainers": [{"name": "e", "image": "debug"}],
        "volumes": [{"name": "v", "image": {"reference": "model"}}, {"name": "w", "emptyDir": {}}],
    }}
    images = pod_images(pod)
    assert images.refs == ("init:latest", "side:latest", "app:1", "app:1", "model:latest")
    assert images.containers == 4


def test_scaled_image_score_divides_first() -> None:
    # 500 MiB on 5 of 10 nodes; float64 rounding then truncation: 7/10 is a little under 0.7, so 90 bytes on
    # 7 of 10 nodes give 62 (exact arithmetic: 63), and 49 on 1 of 49 give 0, not 1
    assert scaled_image_score(500 * MIB, 5, 10) == 262144000
    assert scaled_image_score(90, 7, 10) == 62
    assert scaled_image_score(49, 1, 49) == 0


@pytest.mark.parametrize(("total", "containers", "expected"), [
    (0, 1, 0),
    (MIN_THRESHOLD, 1, 0),
    (262144000, 1, 23),  # 100 * 238026752 / 1024458752 = 23.2
    (1000 * MIB, 1, 100),
    (5000 * MIB, 1, 100),  # clamped to the bound
    (1000 * MIB, 2, 49),  # 100 * (1000Mi - 23Mi) / (2000Mi - 23Mi) = 49.4
    (MIN_THRESHOLD + 1, 0, 100),  # no container: Go's bounds cross (max 0 < min), sum -> 0 -> 100*(-min)/(-min)
])
def test_calculate_priority(total: int, containers: int, expected: int) -> None:
    assert calculate_priority(total, containers) == expected


def _node(*images: tuple[list[str], int]) -> dict[str, Any]:
    return {"status": {"images": [{"names": n, "sizeBytes": s} for n, s in images]}}


def test_states_keep_the_first_nodes_size_and_count_nodes_once() -> None:
    states = ImageStates([
        ("a", _node((["app:1", "app@sha256:1"], 800 * MIB), (["app:1"], 1))),  # listed twice: one holder
        ("b", _node((["app:1"], 100 * MIB))),  # a different size: the state keeps a's
        ("c", _node()),
        ("d", _node()),
    ])
    assert states.size["app:1"] == 800 * MIB and states.holders["app:1"] == 2 and states.total_nodes == 4
    pod = {"spec": {"containers": [{"name": "c", "image": "app:1"}]}}
    score, total, found = states.score(pod_images(pod), "b")
    assert total == 419430400 and found == [("app:1", 800 * MIB, 2, 419430400)]
    assert score == 100 * (419430400 - MIN_THRESHOLD) // (1000 * MIB - MIN_THRESHOLD) == 38
    assert states.score(pod_images(pod), "c")[:2] == (0, 0)


def test_a_repeated_image_adds_twice_and_a_volume_raises_the_sum_not_the_bound() -> None:
    states = ImageStates([("a", _node((["app:1"], 600 * MIB), (["model:latest"], 600 * MIB)))])
    two = {"spec": {"containers": [{"name": "x", "image": "app:1"}, {"name": "y", "image": "app:1"}]}}
    assert states.score(pod_images(two), "a")[:2] == (calculate_priority(1200 * MIB, 2), 1200 * MIB)
    with_volume = {"spec": {"containers": [{"name": "x", "image": "app:1"}],
                            "volumes": [{"name": "m", "image": {"reference": "model"}}]}}
    score, total, _ = states.score(pod_images(with_volume), "a")
    assert total == 1200 * MIB and score == 100  # one container: clamped at 1000 MiB (issue 138952)


def test_a_short_name_does_not_match_the_registry_form() -> None:
    states = ImageStates([("a", _node((["docker.io/library/nginx:latest"], 500 * MIB)))])
    pod = {"spec": {"containers": [{"name": "c", "image": "nginx"}]}}
    assert states.score(pod_images(pod), "a")[:2] == (0, 0)
