"""``--plot``: the strategy's utilization -> score line as a terminal chart, with each node's
resources marked where they sit on it (a letter per node)."""

from __future__ import annotations

import math
import string
from collections.abc import Callable
from typing import Any

from linter.model import ShapePoint
from linter.scoring.strategies import broken_line, scaled_shape

__all__ = ["render_plot"]

Json = dict[str, Any]
WIDTH = 51  # one column per 2 % of utilization
HEIGHT = 11  # one row per tenth of the score range


def _curve(doc: Json) -> tuple[Callable[[int], float], float, str]:
    """(utilization -> score, top of the score axis, title)."""
    strategy, engine = doc["strategy"], doc["engine"]
    shape = tuple(ShapePoint(p["utilization"], p["score"]) for p in doc.get("shape") or ())
    if engine == "legacy-rtcr":
        points = tuple((p.utilization, p.score) for p in shape)
        return (lambda u: broken_line(points, u)), 10.0, "legacy shape, score 0..10"
    if engine == "volcano-binpack":
        return (lambda u: float(u)), 100.0, "binpack term per unit weight (x100): grows with utilization"
    if strategy == "RequestedToCapacityRatio":
        scaled = scaled_shape(shape)
        return (lambda u: broken_line(scaled, u)), 100.0, "RequestedToCapacityRatio shape (scores x10)"
    if strategy == "MostAllocated":
        return (lambda u: float(u)), 100.0, "MostAllocated: score = utilization"
    return (lambda u: float(100 - u)), 100.0, "LeastAllocated: score = 100 - utilization"


def _marks(doc: Json) -> list[tuple[str, str, list[tuple[str, float, float]]]]:
    """(letter, node, [(resource, utilization %, score)]) for nodes that have a breakdown."""
    out = []
    letters = iter(string.ascii_uppercase + string.ascii_lowercase)
    for node in doc["nodes"]:
        rows = node.get("resources")
        if not rows:
            continue
        letter = next(letters, None)
        if letter is None:
            break
        points: list[tuple[str, float, float]] = []
        for r in rows:
            if doc["engine"] == "volcano-binpack":
                if r["allocatable"] and math.isfinite(r["allocatable"]):  # NaN/Inf: an oversubscription annotation
                    u = min(100.0, 100.0 * r["requested"] / r["allocatable"])
                    points.append((r["name"], u, u))
            elif not r.get("skipped") and r.get("utilization") is not None:
                points.append((r["name"], float(r["utilization"]), float(r["resourceScore"])))
        out.append((letter, node["name"], points))
    return out


def render_plot(doc: Json) -> str:
    if doc["strategy"] is None:
        return "no bin-packing score configured: nothing to plot\n"
    f, top, title = _curve(doc)
    grid = [[" "] * WIDTH for _ in range(HEIGHT)]

    def row_of(y: float) -> int:
        return HEIGHT - 1 - max(0, min(HEIGHT - 1, round(y / top * (HEIGHT - 1))))

    for col in range(WIDTH):
        grid[row_of(f(col * 2))][col] = "."
    marks = _marks(doc)
    for letter, _, points in marks:
        for _, u, y in points:
            r, c = row_of(y), max(0, min(WIDTH - 1, round(u / 2)))
            grid[r][c] = letter if grid[r][c] in (".", " ", letter) else "*"
    lines = [f"  {title}"]
    for i, cells in enumerate(grid):
        label = top * (HEIGHT - 1 - i) / (HEIGHT - 1)
        lines.append((f"  {label:5g} |" + "".join(cells)).rstrip())
    lines.append("        +" + "-" * WIDTH)
    lines.append("         0%" + " " * (WIDTH // 2 - 5) + "50%" + " " * (WIDTH // 2 - 5) + "100% utilization")
    if any("*" in cells for cells in grid):
        lines.append("  * = several nodes at the same point")
    for letter, name, points in marks:
        detail = ", ".join(f"{res} {u:.4g}% -> {y:.4g}" for res, u, y in points) or "no scored resource"
        lines.append(f"  {letter} = {name}: {detail}")
    return "\n".join(lines) + "\n"
