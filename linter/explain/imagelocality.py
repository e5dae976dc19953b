"""Explain's ImageLocality columns (:mod:`linter.scoring.imagelocality`).

Per node: ``imageLocalityScore`` (0..100 before the weight), ``imageLocalitySum`` (the summed scaled sizes,
bytes) and ``imageLocalityImages`` (each looked-up name the node holds: ``name``, ``sizeBytes``, ``nodes``,
``scaled``). The plugin does not normalise, so every node gets its score and its weighted score goes into
the node's ``total`` as Fit's does. All three are None when the profile does not score with ImageLocality.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from linter.model import Profile
from linter.scoring.imagelocality import ImageStates, pod_images
from linter.scoring.nodes import NodeView

__all__ = ["add_image_locality_scores"]

Json = dict[str, Any]


def add_image_locality_scores(profile: Profile, pod: Mapping[str, Any], views: Sequence[NodeView],
                              nodes: Sequence[Json]) -> Json:
    """Fill the per-node fields of ``nodes`` (one per view, same order, with ``total``) and return the
    document-level ones: the weight (None when the plugin does not score), the node count the spread is taken
    over and the container count of the upper bound."""
    weight = profile.image_locality_weight
    if not weight:
        for node in nodes:
            node.update(imageLocalityScore=None, imageLocalitySum=None, imageLocalityImages=None)
        return {"imageLocalityWeight": None, "imageLocalityNodes": None, "imageLocalityContainers": None}
    images = pod_images(pod)
    states = ImageStates((v.name, v.node) for v in views)
    for view, node in zip(views, nodes, strict=True):
        score, total, found = states.score(images, view.name)
        node.update(imageLocalityScore=score, imageLocalitySum=total,
                    imageLocalityImages=[{"name": n, "sizeBytes": s, "nodes": c, "scaled": x} for n, s, c, x in found])
        node["total"] += score * weight
    return {"imageLocalityWeight": weight, "imageLocalityNodes": states.total_nodes,
            "imageLocalityContainers": images.containers}
