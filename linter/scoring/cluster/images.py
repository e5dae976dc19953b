"""The images of every node, for ImageLocality over all rows at once (:mod:`linter.scoring.imagelocality`).

Image names repeat across nodes (a cluster runs a few hundred images on thousands of nodes), so each name
is interned once: ``ids`` maps it to a small integer, and the per-id lists hold what the scheduler cache's
image state holds (``size``: the ``sizeBytes`` of the node that created it; ``holders``: the Nodes listing
the name). Each row keeps its names' ids in one int32 matrix (``id + 1``, 0 = empty slot), about 4 bytes per
name per node. An id whose last holder goes is freed and reused, as the cache deletes a state no node holds.

:func:`image_locality_totals` looks up the pod's names first: when none is on any node, or the positive sizes of all
of them together cannot reach the 23 MiB floor, every node scores 0 and nothing is computed per row. Otherwise the
holders of each name come from a row mask kept up to date as nodes change (one pass over the matrix the first
time a name is asked about), and the weighted scores are kept for the next pod with the same images until a
node's images or the row order change.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from linter.model import Profile
from linter.scoring.imagelocality import (
    MAX_CONTAINER_THRESHOLD,
    MIN_THRESHOLD,
    calculate_priority,
    pod_images,
    scaled_image_score,
)
from linter.scoring.strategies import MAX_NODE_SCORE

__all__ = ["ImageEntries", "NodeImages", "image_locality_totals", "parse_node_images"]

Int64Array = npt.NDArray[np.int64]
Int32Array = npt.NDArray[np.int32]
BoolArray = npt.NDArray[np.bool_]
# a node's status.images as (names, sizeBytes) pairs, in the node's order
ImageEntries = tuple[tuple[tuple[str, ...], int], ...]

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_KEPT_SUMS = 16  # weighted scores kept for recent image sets (dropped whenever a node or an image changes)
_SUBSET_IMAGES = 8  # up to this many distinct images of a pod, rows are scored per subset of them held
_KEPT_MASKS = 64  # images whose holder masks are kept up to date (a few MiB at 65,000 nodes)


def parse_node_images(status: Mapping[str, Any], where: str) -> ImageEntries:
    """``status.images`` as :data:`ImageEntries`; ValueError naming the field when it is not what the API
    server stores (a list of ``{names: [string], sizeBytes: int64}``). Runs on every node update (kubelet
    status reports), so the usual entry takes a few C-level checks."""
    raw = status.get("images")
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ValueError(f"{where}.images must be a list")
    out: list[tuple[tuple[str, ...], int]] = []
    for entry in raw:
        try:
            names, size = entry.get("names") or [], entry.get("sizeBytes") or 0
            "".join(names)  # TypeError unless every name is a string (a lone string passes: checked below)
        except (AttributeError, TypeError):
            names = size = None
        if type(names) is not list or type(size) is not int or not _INT64_MIN <= size <= _INT64_MAX:
            raise ValueError(_entry_problem(raw.index(entry), entry, where))
        out.append((tuple(names), size))
    return tuple(out)


def _entry_problem(i: int, entry: object, where: str) -> str:
    if not isinstance(entry, Mapping):
        return f"{where}.images[{i}] must be an object"
    names = entry.get("names") or []
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return f"{where}.images[{i}].names must be a list of strings"
    return f"{where}.images[{i}].sizeBytes must be an int64 integer"


class NodeImages:
    """Interned image names and each row's ids; rows follow :class:`~linter.scoring.cluster.store.NodeStore`'s
    (it calls :meth:`grow`, :meth:`move`, :meth:`wipe` and :meth:`clear` as its rows change).

    For the images rankings ask about, a boolean row mask of their holders is kept (at most
    ``_KEPT_MASKS``, least recently used dropped) and updated in place as rows change, so an image pulled on
    one node costs the next ranking one element, not a pass over the matrix."""

    def __init__(self, capacity: int) -> None:
        self.ids: dict[str, int] = {}
        self.size: list[int] = []  # per id
        self.holders: list[int] = []  # per id; 0: a free id
        self._names: list[str] = []  # per id (to free it)
        self._free: list[int] = []
        self.matrix: Int32Array = np.zeros((capacity, 0), np.int32)  # row -> ids + 1
        self._digest: list[int | None] = [None] * capacity  # row -> hash of its last entries (None: no images)
        self.version = 0  # bumped whenever an id's holders or size or a row's ids change
        self._masks: OrderedDict[int, BoolArray] = OrderedDict()  # id -> its holders, one per row of capacity
        self._kept: dict[tuple[Any, ...], Int64Array] = {}  # recent weighted scores, for this version only

    # ------------------------------------------------------------ rows (driven by the store)
    def grow(self, capacity: int) -> None:
        old = self.matrix.shape[0]
        grown = np.zeros((capacity, self.matrix.shape[1]), np.int32)
        grown[:old] = self.matrix
        self.matrix = grown
        self._digest.extend([None] * (capacity - len(self._digest)))
        for image, mask in self._masks.items():
            wider = np.zeros(capacity, np.bool_)
            wider[:old] = mask
            self._masks[image] = wider

    def move(self, src: int, dst: int) -> None:
        self.matrix[dst] = self.matrix[src]
        self._digest[dst] = self._digest[src]
        for mask in self._masks.values():
            mask[dst] = mask[src]
        self.version += 1

    def wipe(self, row: int) -> None:
        """Empty a row whose ids moved elsewhere (no holder changes)."""
        self.matrix[row] = 0
        self._digest[row] = None
        for mask in self._masks.values():
            mask[row] = False

    def clear(self, row: int) -> None:
        """Forget a row's images (its Node is gone): the names lose a holder, as ``removeNodeImageStates``."""
        if self._digest[row] is None:
            return
        self._release(row)
        self.matrix[row] = 0
        self._digest[row] = None
        self.version += 1

    def set_row(self, row: int, entries: ImageEntries) -> None:
        """A Node added or updated: ``removeNodeImageStates`` of its old images, then ``addNodeImageStates``."""
        digest = hash(entries) if entries else None
        if digest == self._digest[row]:
            return  # status heartbeats: the same images
        self._release(row)
        ids: list[int] = []
        seen: set[int] = set()
        for names, size in entries:
            for name in names:
                image = self._intern(name, size)
                if image not in seen:
                    seen.add(image)
                    ids.append(image)
                    self.holders[image] += 1
                    mask = self._masks.get(image)
                    if mask is not None:
                        mask[row] = True
        if len(ids) > self.matrix.shape[1]:
            wider = np.zeros((self.matrix.shape[0], len(ids)), np.int32)
            wider[:, : self.matrix.shape[1]] = self.matrix
            self.matrix = wider
        self.matrix[row] = 0
        self.matrix[row, : len(ids)] = np.array(ids, np.int32) + 1
        self._digest[row] = digest
        self.version += 1

    def _intern(self, name: str, size: int) -> int:
        image = self.ids.get(name)
        if image is not None:
            return image
        if self._free:
            image = self._free.pop()
            self.size[image], self._names[image] = size, name
        else:
            image = len(self.size)
            self.size.append(size)
            self.holders.append(0)
            self._names.append(name)
        self.ids[name] = image
        return image

    def _release(self, row: int) -> None:
        for stored in self.matrix[row].tolist():
            if not stored:
                break
            image = stored - 1
            self.holders[image] -= 1
            mask = self._masks.get(image)
            if not self.holders[image]:  # no node lists it any more: the state goes
                del self.ids[self._names[image]]
                self._names[image] = ""
                self._free.append(image)
                self._masks.pop(image, None)  # the id may name another image next
            elif mask is not None:
                mask[row] = False

    # ------------------------------------------------------------ scoring
    def _mask(self, image: int) -> BoolArray:
        mask = self._masks.get(image)
        if mask is None:
            mask = (self.matrix == image + 1).any(axis=1)
            if len(self._masks) >= _KEPT_MASKS:
                self._masks.popitem(last=False)
            self._masks[image] = mask
        else:
            self._masks.move_to_end(image)
        return mask

    def weighted(self, rows: int, adds: Sequence[tuple[int, int]], containers: int, weight: int) -> Int64Array:
        """Per row, ``calculatePriority`` of the sum of ``amount`` over the ``(id, amount)`` pairs whose image
        the row holds, times ``weight``. Callers must not write to it (it is kept)."""
        key = (self.version, rows, tuple(adds), containers, weight)
        kept = self._kept.get(key)
        if kept is not None:
            return kept
        if len(adds) <= _SUBSET_IMAGES:
            # each row holds one of 2**k subsets of the pod's images: score the subsets, then pick per row
            code = self._mask(adds[0][0])[:rows].view(np.uint8).copy()
            for bit, (image, _) in enumerate(adds[1:], 1):
                code |= self._mask(image)[:rows].view(np.uint8) << np.uint8(bit)
            table = np.array([calculate_priority(sum(a for b, (_, a) in enumerate(adds) if subset >> b & 1), containers)
                              * weight for subset in range(1 << len(adds))], np.int64)
            result: Int64Array = np.take(table, code)
        else:
            sums: Int64Array = np.zeros(rows, np.int64)
            for image, amount in adds:
                sums += self._mask(image)[:rows] * np.int64(amount)
            result = _priorities(sums, containers) * np.int64(weight)
        result.flags.writeable = False
        if len(self._kept) >= _KEPT_SUMS or any(k[0] != self.version for k in self._kept):
            self._kept.clear()
        self._kept[key] = result
        return result


def _priorities(sums: Int64Array, containers: int) -> Int64Array:
    """``calculatePriority`` per row (int64, exact: the clamped sums stay far below 2**63 / 100)."""
    if containers < 1:  # no container: Go's bounds cross; the few distinct sums go through the scalar form
        values, inverse = np.unique(sums, return_inverse=True)
        return np.array([calculate_priority(int(v), containers) for v in values], np.int64)[inverse]
    most = MAX_CONTAINER_THRESHOLD * containers
    held = np.clip(sums, MIN_THRESHOLD, most)
    return (held - MIN_THRESHOLD) * MAX_NODE_SCORE // (most - MIN_THRESHOLD)


def image_locality_totals(images: NodeImages, rows: int, node_count: int, pod: Mapping[str, Any],
                          profile: Profile) -> Int64Array | None:
    """ImageLocality's score times its weight per row (rows that are no node: 0), or None when it is the same
    (0) on every node: no name of the pod is on any node, or together they stay below 23 MiB."""
    weight = profile.image_locality_weight
    if not weight or not images.ids or node_count < 1:
        return None
    wanted = pod_images(pod)
    adds: dict[int, int] = {}
    for ref in wanted.refs:
        image = images.ids.get(ref)
        if image is not None:  # each repeat of a name in the pod adds it again, as sumImageScores does
            adds[image] = adds.get(image, 0) + scaled_image_score(images.size[image], images.holders[image],
                                                                  node_count)
    # the most any row can reach is the sum of the positive amounts: a negative sizeBytes (the API server
    # stores any int64) only lowers the sum of a row that holds it
    if not adds or (wanted.containers >= 1 and sum(max(a, 0) for a in adds.values()) <= MIN_THRESHOLD):
        return None
    return images.weighted(rows, sorted(adds.items()), wanted.containers, weight)

