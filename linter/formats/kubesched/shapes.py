"""The RequestedToCapacityRatio shapes a KubeSchedulerConfiguration writes, wherever it writes them.

``NodeResourcesFit.scoringStrategy.requestedToCapacityRatio.shape`` (v1beta2 and later) and the
pre-v1beta2 ``RequestedToCapacityRatio`` plugin's ``shape`` (a removed-version file still says
what its author meant). Only points whose ``utilization`` and ``score`` are integers count:
anything else is a decode error reported elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from linter.findings import Violation
from linter.model import ShapePoint, shape_falls
from linter.source import Pointer


def _points(raw: Any) -> list[ShapePoint] | None:
    if not isinstance(raw, list):
        return None
    points = []
    for item in raw:
        u = item.get("utilization", 0) if isinstance(item, dict) else None
        s = item.get("score", 0) if isinstance(item, dict) else None
        if not (isinstance(u, int) and isinstance(s, int)) or isinstance(u, bool) or isinstance(s, bool):
            return None
        points.append(ShapePoint(u, s))
    return points


def written_shapes(data: Any) -> Iterator[tuple[Pointer, list[ShapePoint]]]:
    """(pointer to ``shape``, its points) for every RequestedToCapacityRatio shape in the document."""
    profiles = data.get("profiles") if isinstance(data, dict) else None
    for i, profile in enumerate(profiles if isinstance(profiles, list) else []):
        configs = profile.get("pluginConfig") if isinstance(profile, dict) else None
        for j, entry in enumerate(configs if isinstance(configs, list) else []):
            args = entry.get("args") if isinstance(entry, dict) else None
            if not isinstance(args, dict):
                continue
            base: Pointer = ("profiles", i, "pluginConfig", j, "args")
            if entry.get("name") == "NodeResourcesFit":
                strategy = args.get("scoringStrategy")
                rtcr = strategy.get("requestedToCapacityRatio") if isinstance(strategy, dict) else None
                if isinstance(strategy, dict) and strategy.get("type") == "RequestedToCapacityRatio" \
                        and isinstance(rtcr, dict) and (points := _points(rtcr.get("shape"))):
                    yield (*base, "scoringStrategy", "requestedToCapacityRatio", "shape"), points
            elif entry.get("name") == "RequestedToCapacityRatio" and (points := _points(args.get("shape"))):
                yield (*base, "shape"), points


def spreads(ctx: Any) -> Iterator[Violation]:
    """BPL206: every written shape whose score falls as utilization rises."""
    for pointer, points in written_shapes(ctx.document.data):
        if shape_falls(points):
            low, high = min(points, key=lambda p: p.utilization), max(points, key=lambda p: p.utilization)
            yield Violation(f"this shape scores {high.score} at {high.utilization}% utilization but {low.score} at "
                            f"{low.utilization}%: emptier nodes win, so it spreads pods instead of packing them "
                            "(for bin packing let the score rise with utilization)", pointer)
