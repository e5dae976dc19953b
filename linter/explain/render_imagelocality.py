"""Explain's text for ImageLocality (:mod:`linter.explain.imagelocality`): shown only where an image of the
pod is on some node, since the plugin scores 0 everywhere else."""

from __future__ import annotations

from typing import Any

from linter.scoring.imagelocality import MAX_CONTAINER_THRESHOLD, MIN_THRESHOLD

__all__ = ["image_locality_column", "image_locality_header", "image_locality_lines"]

Json = dict[str, Any]


def _held(doc: Json) -> bool:
    return bool(doc.get("imageLocalityWeight")) and any(n.get("imageLocalityImages") for n in doc["nodes"])


def image_locality_column(doc: Json) -> bool:
    """Whether the ranking table gets an ``images`` column: some node scores above 0."""
    return bool(doc.get("imageLocalityWeight")) and any(n.get("imageLocalityScore") for n in doc["nodes"])


def _bounds(doc: Json) -> tuple[int, int]:
    return MIN_THRESHOLD, MAX_CONTAINER_THRESHOLD * int(doc["imageLocalityContainers"])


def image_locality_header(doc: Json) -> list[str]:
    if not _held(doc):
        return []
    n = doc["imageLocalityContainers"]
    return [f"  ImageLocality, weight {doc['imageLocalityWeight']}: floor(100 * (sum - 23Mi) / ({n} x 1000Mi - 23Mi)), "
            f"sum of size * holders / {doc['imageLocalityNodes']} nodes per pod image on the node, "
            f"kept within 23Mi .. {n} x 1000Mi"]


def image_locality_lines(doc: Json, node: Json) -> list[str]:
    """The node's ImageLocality arithmetic, when it holds an image of the pod."""
    found = node.get("imageLocalityImages")
    if not doc.get("imageLocalityWeight") or not found:
        return []
    total = doc["imageLocalityNodes"]
    parts = "; ".join(f"{i['name']} {i['sizeBytes']} * {i['nodes']}/{total} = {i['scaled']}" for i in found)
    low, high = _bounds(doc)
    held = min(max(int(node["imageLocalitySum"]), low), high)
    return [f"    ImageLocality: {parts}",
            f"      = 100 * ({held} - {low}) / ({high} - {low}) = {node['imageLocalityScore']}; "
            f"* weight {doc['imageLocalityWeight']}"]
