"""kube-scheduler 1.36's ImageLocality score, one node at a time.

The plugin favours nodes that already hold the pod's images, weighted by how widely each image has spread
(``sumImageScores``, ``scaledImageScore``, ``calculatePriority`` in
``pkg/scheduler/framework/plugins/imagelocality``):

* The images looked up are those of every init container (sidecars included), every container and, from
  1.36, every image volume's ``reference``, in that order and without removing repeats; ephemeral containers
  never count. Each name goes through ``normalizedImageName``: ``:latest`` is appended when the name has no
  ``:`` after its last ``/`` (so a digest reference is left alone, and no registry prefix is added).
* The node side is the scheduler cache's image states (``addNodeImageStates``): every name in every
  ``status.images[].names`` of a node is a key; its size is the ``sizeBytes`` of the node that created the
  state (later nodes with the same name do not change it) and its node count is the number of Node objects
  listing the name.
* An image found on the node adds ``int64(float64(size) * (float64(nodes) / float64(totalNodes)))``, where
  ``totalNodes`` is every Node of the snapshot (feasible or not).
* The sum is clamped to ``[23 MiB, 1000 MiB x containers]``, where ``containers`` counts init and regular
  containers only (1.36 leaves image volumes out of this bound, kubernetes issue 138952, fixed in 1.37), and
  scaled ``100 * (sum - 23 MiB) / (max - 23 MiB)`` in integers.

There is no PreScore (never skipped) and no normalising step; the framework multiplies by the profile's
ImageLocality weight (:attr:`~linter.model.Profile.image_locality_weight`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from linter.scoring.gomath import go_div
from linter.scoring.strategies import MAX_NODE_SCORE

__all__ = [
    "MAX_CONTAINER_THRESHOLD",
    "MIN_THRESHOLD",
    "ImageStates",
    "PodImages",
    "calculate_priority",
    "node_image_entries",
    "normalized_image_name",
    "pod_images",
    "scaled_image_score",
]

MIB = 1024 * 1024
MIN_THRESHOLD = 23 * MIB
MAX_CONTAINER_THRESHOLD = 1000 * MIB


def normalized_image_name(name: str) -> str:
    """``normalizedImageName``: ``:latest`` added when no ``:`` follows the last ``/``."""
    return name + ":latest" if name.rfind(":") <= name.rfind("/") else name


@dataclass(frozen=True)
class PodImages:
    """What ImageLocality reads of a pod: the normalised names it looks up (repeats kept) and the number of
    containers that sets its upper bound."""

    refs: tuple[str, ...]
    containers: int


def _image_of(item: object, key: str) -> str:
    value = item.get(key) if isinstance(item, Mapping) else None
    return value if isinstance(value, str) else ""


def pod_images(pod: Mapping[str, Any]) -> PodImages:
    spec = pod.get("spec")
    spec = spec if isinstance(spec, Mapping) else {}
    refs: list[str] = []
    containers = 0
    for field in ("initContainers", "containers"):
        items = spec.get(field)
        for item in items if isinstance(items, list) else ():
            containers += 1
            refs.append(normalized_image_name(_image_of(item, "image")))
    volumes = spec.get("volumes")
    for volume in volumes if isinstance(volumes, list) else ():
        image = volume.get("image") if isinstance(volume, Mapping) else None
        if image is not None:  # Go: volume.Image != nil (an empty reference still looks up ":latest")
            refs.append(normalized_image_name(_image_of(image, "reference")))
    return PodImages(tuple(refs), containers)


def node_image_entries(node: Mapping[str, Any]) -> Iterator[tuple[list[str], int]]:
    """``(names, sizeBytes)`` of each ``status.images`` entry; entries of the wrong shape are skipped (the
    readers report them first)."""
    status = node.get("status")
    images = status.get("images") if isinstance(status, Mapping) else None
    for entry in images if isinstance(images, list) else ():
        if not isinstance(entry, Mapping):
            continue
        names = entry.get("names")
        size = entry.get("sizeBytes") or 0
        if isinstance(size, bool) or not isinstance(size, int):
            continue
        yield [n for n in names if isinstance(n, str)] if isinstance(names, list) else [], size


def scaled_image_score(size: int, nodes: int, total_nodes: int) -> int:
    """``scaledImageScore``: the size times the share of nodes holding the image, in float64, truncated."""
    return int(float(size) * (float(nodes) / float(total_nodes)))


def calculate_priority(sum_scores: int, containers: int) -> int:
    """``calculatePriority``: 0..100 from the summed scaled sizes (int64 arithmetic, never negative)."""
    most = MAX_CONTAINER_THRESHOLD * containers
    if sum_scores < MIN_THRESHOLD:
        sum_scores = MIN_THRESHOLD
    elif sum_scores > most:
        sum_scores = most
    return go_div(MAX_NODE_SCORE * (sum_scores - MIN_THRESHOLD), most - MIN_THRESHOLD)  # < 0 only without containers


class ImageStates:
    """The scheduler cache's image states for a list of nodes, added in list order (``addNodeImageStates``)."""

    def __init__(self, nodes: Iterable[tuple[str, Mapping[str, Any]]]) -> None:
        self.size: dict[str, int] = {}  # name -> sizeBytes of the node that created its state
        self.holders: dict[str, int] = {}  # name -> Node objects listing it
        self.names_of: dict[str, frozenset[str]] = {}  # node name -> its image names
        for node_name, node in nodes:
            mine: set[str] = set()
            for names, size in node_image_entries(node):
                for name in names:
                    self.size.setdefault(name, size)
                    if name not in mine:
                        mine.add(name)
                        self.holders[name] = self.holders.get(name, 0) + 1
            self.names_of[node_name] = frozenset(mine)
        self.total_nodes = len(self.names_of)

    def score(self, images: PodImages, node_name: str) -> tuple[int, int, list[tuple[str, int, int, int]]]:
        """``(score 0..100, sumImageScores, [(name, size, nodes, scaled) of each looked-up name present])``."""
        held = self.names_of.get(node_name, frozenset())
        found = []
        total = 0
        for ref in images.refs:
            if ref in held:
                size, count = self.size[ref], self.holders[ref]
                scaled = scaled_image_score(size, count, self.total_nodes)
                found.append((ref, size, count, scaled))
                total += scaled
        return calculate_priority(total, images.containers), total, found
